package terraform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
)

// seeds adds every file under testdata/terraform with one of the suffixes.
func seeds(f *testing.F, suffixes ...string) {
	err := filepath.WalkDir("../../testdata/terraform", func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, s := range suffixes {
			if strings.HasSuffix(p, s) {
				data, err := os.ReadFile(p)
				if err != nil {
					return err
				}
				f.Add(data)
			}
		}
		return nil
	})
	if err != nil {
		f.Fatal(err)
	}
}

// FuzzModule evaluates arbitrary HCL as a module's only file: evaluation and
// normalisation must never panic, and every diagnostic must have a position.
func FuzzModule(f *testing.F) {
	seeds(f, ".tf")
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, src []byte) {
		ld := &loader{opts: Options{MaxInstances: 50, MaxFileSize: 1 << 20}, display: filepath.ToSlash,
			modules: map[string]*modEntry{}}
		m := newModule(dir, dir)
		m.addFile("main.tf", src)
		r := newRun(ld, Dir{Path: dir, Root: dir}, m)
		r.budget = 5000
		start := time.Now()
		r.evaluate()
		if d := time.Since(start); d > 3*time.Second {
			t.Fatalf("evaluation took %v", d)
		}
		check(t, append(m.diags, r.diags...))
		for _, res := range r.out {
			if res.Object == nil || res.Kind == "" {
				t.Fatalf("resource without object or kind: %+v", res)
			}
		}
	})
}

// FuzzPlan reads arbitrary JSON as a plan.
func FuzzPlan(f *testing.F) {
	seeds(f, ".json")
	f.Fuzz(func(t *testing.T, src []byte) {
		rs, diags, _ := ParsePlan("plan.json", src)
		check(t, diags)
		for _, r := range rs {
			if r.Object == nil {
				t.Fatalf("resource without object: %+v", r)
			}
		}
	})
}

func check(t *testing.T, diags []graph.Diagnostic) {
	t.Helper()
	for _, d := range diags {
		if strings.Contains(d.Message, "internal error") {
			t.Fatalf("%s: %s", d.Range, d.Message)
		}
		if !d.Range.IsValid() {
			t.Fatalf("diagnostic without a position: %q", d.Message)
		}
	}
}
