package load

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLongQuantity is issue 27's quantity of millions of digits: exact arithmetic
// on it is quadratic (37 s for a PV and claim of 3 million digits each on main).
// The quantities are refused by length before any arithmetic, each a PVL000 at its
// node, in YAML and in Terraform alike; a sibling claim is still read.
func TestLongQuantity(t *testing.T) {
	dir := t.TempDir()
	digits := strings.Repeat("1", 3_000_000)
	files := map[string]string{
		"pv.yaml": "apiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: pv\nspec:\n  capacity:\n    storage: \"" + digits + "Gi\"\n" +
			"---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c\nspec:\n  volumeName: pv\n  resources:\n    requests:\n      storage: 0." + strings.Repeat("0", 3_000_000) + "1Gi\n" +
			"---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: sibling\nspec:\n  resources:\n    requests:\n      storage: 1Gi\n",
		"main.tf": "resource \"kubernetes_persistent_volume_claim_v1\" \"tf\" {\n  metadata {\n    name = \"tf\"\n  }\n  spec {\n    resources {\n      requests = {\n        storage = \"" + digits + "\"\n      }\n    }\n  }\n}\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := Load([]string{"."}, Options{Dir: dir})
	got := map[string]bool{}
	for _, d := range res.Diagnostics {
		if strings.Contains(d.Message, "quantity of") {
			got[d.Range.String()] = true
		}
	}
	for _, want := range []string{"pv.yaml:7:14", "pv.yaml:17:16", "main.tf:8:19"} {
		found := false
		for k := range got {
			found = found || strings.HasPrefix(k, want)
		}
		if !found {
			t.Errorf("no quantity diagnostic at %s: %v", want, res.Diagnostics)
		}
	}
	if len(got) != 3 {
		t.Errorf("%d quantity diagnostics, want 3: %v", len(got), res.Diagnostics)
	}
	if n := len(names(res)); n != 4 {
		t.Errorf("resources %v, want all four", names(res))
	}
}

// TestPromQLBounds is issue 27's 300 KB PromQL expression of nested parentheses,
// which held the run for minutes in the parser and the rule's walks: it is a PVL000
// at the expression (which PVL021 then does not parse), as is an expression over
// 64 KiB; a sibling rule's expression is still left to PVL021, in a PrometheusRule
// as in a plain rules file.
func TestPromQLBounds(t *testing.T) {
	dir := t.TempDir()
	nested := strings.Repeat("(", 150_000) + "kube_persistentvolumeclaim_info" + strings.Repeat(")", 150_000)
	deep := strings.Repeat("(", 1000) + "kube_persistentvolumeclaim_info" + strings.Repeat(")", 1000)
	long := "kube_persistentvolumeclaim_info" + strings.Repeat(" + 1", 20_000)
	files := map[string]string{
		"rule.yaml": "apiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: r\nspec:\n  groups:\n  - name: g\n    rules:\n" +
			"    - alert: Nested\n      expr: \"" + nested + "\"\n" +
			"    - alert: Long\n      expr: \"" + long + "\"\n" +
			"    - alert: Deep\n      expr: \"" + deep + "\"\n" +
			"    - alert: Fine\n      expr: \"kube_persistentvolumeclaim_info{x=\\\"((((\\\"} > 0\"\n",
		"rules.yml": "groups:\n- name: g\n  rules:\n  - alert: Deep\n    expr: '" + deep + "'\n",
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := Load([]string{"."}, Options{Dir: dir})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, fmt.Sprintf("%d:%d %s %s", d.Range.Start.Line, d.Range.Start.Column, d.Range.File, d.Message))
	}
	want := []string{
		"10:13 rule.yaml PromQL expression of 300031 bytes, longer than the 65536 pvlint parses; not checked",
		"12:13 rule.yaml PromQL expression of 80031 bytes, longer than the 65536 pvlint parses; not checked",
		"14:13 rule.yaml PromQL expression nested more than 100 levels deep; not checked",
		"5:11 rules.yml PromQL expression nested more than 100 levels deep; not checked",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("diagnostics:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
