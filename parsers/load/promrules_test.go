package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestPrometheusRulesFiles checks that plain rules files reach the rules as
// PrometheusRulesFile resources, from a directory walk and from standard input, and
// that a broken rules file is reported once.
func TestPrometheusRulesFiles(t *testing.T) {
	dir := t.TempDir()
	rules := "groups:\n  - name: g\n    rules:\n      - alert: A\n        expr: kube_persistentvolumeclaim_status_phase{phase=\"Pending\"} == 1\n"
	files := map[string]string{
		"alerts/storage.rules.yml": rules,
		"alerts/broken.yaml":       "groups:\n  - name: [\n",
		"alerts/pvc.yaml":          "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := Load([]string{"alerts", "-"}, Options{Dir: dir, Stdin: strings.NewReader(rules)})
	var got []string
	for _, r := range res.Base {
		got = append(got, r.Kind+" "+r.Origin.File+" "+r.Get("spec", "groups", "0", "rules", "0", "alert").Str())
	}
	want := []string{
		"PrometheusRulesFile <stdin> A",
		"PersistentVolumeClaim alerts/pvc.yaml ",
		"PrometheusRulesFile alerts/storage.rules.yml A",
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("resources (-want +got):\n%s", d)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Range.File != "alerts/broken.yaml" {
		t.Errorf("diagnostics = %v, want one for alerts/broken.yaml", res.Diagnostics)
	}
}
