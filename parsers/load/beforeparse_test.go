package load

import (
	"os"
	"path/filepath"
	"testing"
)

// BeforeParse hears the size of the manifests the walk found, once, before any is
// parsed; files named directly and files the walk skips do not count.
func TestBeforeParse(t *testing.T) {
	dir := t.TempDir()
	a := []byte("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: a}\n")
	b := []byte("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: b}\nspec: {}\n")
	for name, data := range map[string][]byte{"a.yaml": a, "sub/b.yml": b, "notes.txt": []byte("not read"), ".git/c.yaml": a} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var calls []int64
	afters := 0
	res := Load([]string{"."}, Options{Dir: dir, BeforeParse: func(n int64) func() {
		calls = append(calls, n)
		return func() { afters++ }
	}})
	if len(calls) != 1 || calls[0] != int64(len(a)+len(b)) {
		t.Errorf("BeforeParse calls = %v, want one with %d bytes", calls, len(a)+len(b))
	}
	if afters != 1 {
		t.Errorf("the function BeforeParse returned was called %d times, want once", afters)
	}
	if len(res.Base) != 2 || len(res.Diagnostics) != 0 {
		t.Errorf("read %d resources with diagnostics %v, want 2 and none", len(res.Base), res.Diagnostics)
	}
}
