package load

import (
	"os"
	"path/filepath"
	"testing"
)

// TestEvaluables checks the count the command line starts workers by: every chart,
// Terraform once however many files, nothing in skipped directories or on standard
// input, never more than asked for.
func TestEvaluables(t *testing.T) {
	dir := t.TempDir()
	write := func(rel string) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("plain/deploy.yaml")
	write("a/Chart.yaml")
	write("b/Chart.yaml")
	write("infra/main.tf")
	write("infra/vars.tf")
	write("infra/mod/x.tf.json")
	write(".git/c/Chart.yaml")
	write("node_modules/d/Chart.yaml")
	tests := []struct {
		paths []string
		most  int
		want  int
	}{
		{[]string{"plain"}, 4, 0},
		{[]string{"-"}, 4, 0},
		{[]string{"a"}, 4, 1},
		{[]string{"infra"}, 4, 1},
		{[]string{"."}, 10, 3},
		{[]string{"."}, 2, 2},
		{[]string{"a", "b", "infra"}, 1, 1},
		{[]string{"a", filepath.Join(dir, "b")}, 4, 2},
	}
	for _, tc := range tests {
		if got := Evaluables(dir, tc.paths, tc.most); got != tc.want {
			t.Errorf("Evaluables(%v, most %d) = %d, want %d", tc.paths, tc.most, got, tc.want)
		}
	}
}
