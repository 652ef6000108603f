package scan

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
	write("tofu/main.tofu")
	write("tofujson/main.tofu.json")
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
		{[]string{"tofu"}, 4, 1},
		{[]string{"tofujson"}, 4, 1},
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

// TestAhead checks that the count Ahead begins serves the first Evaluables with the
// same arguments, once, and no other: a chart added after the early count is seen by
// the next listing, not by the call the early count answers.
func TestAhead(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "app"), 0o755); err != nil {
		t.Fatal(err)
	}
	wait := Ahead(dir, []string{"."}, 1)
	if n := wait(); n != 0 {
		t.Fatalf("early count = %d, want 0", n)
	}
	if err := os.WriteFile(filepath.Join(dir, "app", "Chart.yaml"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if n := Evaluables(dir, []string{"app"}, 1); n != 1 {
		t.Errorf("Evaluables of other paths = %d, want 1 (a listing of its own)", n)
	}
	if n := Evaluables(dir, []string{"."}, 1); n != 0 {
		t.Errorf("the first Evaluables of the early count's paths = %d, want its 0", n)
	}
	if n := Evaluables(dir, []string{"."}, 1); n != 1 {
		t.Errorf("the next Evaluables = %d, want 1 (the early count serves once)", n)
	}
}
