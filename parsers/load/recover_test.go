package load

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

// TestParserPanic makes the manifest parser panic on one file of a directory read by
// the worker pool: the panic becomes an internal error naming that file, and the
// other files are still read.
func TestParserPanic(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"a.yaml", "boom.yaml", "c.yaml"} {
		data := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + strings.TrimSuffix(name, ".yaml") + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	real := parseFile
	t.Cleanup(func() { parseFile = real })
	parseFile = func(l *loader, name string, data []byte) ([]*graph.Resource, []graph.Diagnostic) {
		if strings.HasSuffix(name, "boom.yaml") {
			panic("parser bug")
		}
		return real(l, name, data)
	}
	res := Load([]string{"."}, Options{Dir: dir})
	if diff := cmp.Diff([]string{"a.yaml:a", "c.yaml:c"}, names(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if len(res.Internal) != 1 || !strings.HasPrefix(res.Internal[0].Error(), "internal error reading boom.yaml: parser bug\n") {
		t.Errorf("internal errors = %v, want one naming boom.yaml", res.Internal)
	}
}
