package kustomize

import (
	"errors"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestRunElsewhere builds the prod overlay through Env.Run, as the loader does with a
// worker process: the build's output comes only from Run (kustomize is called once,
// there) and is mapped onto the files as an in-process build is; a failure of where
// the build ran is one diagnostic at the kustomization, with Run's text.
func TestRunElsewhere(t *testing.T) {
	want := build(t, "prod")
	env := testEnv(t)
	calls := 0
	env.Run = func(dir string, served map[string][]byte) (*Built, error) {
		calls++
		return BuildStream(dir, served, env), nil
	}
	got := Build("../../testdata/kustomize/overlays/prod", env)
	if calls != 1 {
		t.Fatalf("Run called %d times, want 1", calls)
	}
	if len(got.Resources) != len(want.Resources) || len(got.Resources) == 0 {
		t.Fatalf("%d resources through Run, %d in process", len(got.Resources), len(want.Resources))
	}
	for i, r := range got.Resources {
		if diff := cmp.Diff(related(want.Resources[i]), related(r)); diff != "" {
			t.Errorf("%s related (-in process +through Run):\n%s", r, diff)
		}
		if a, b := want.Resources[i].Locate("spec"), r.Locate("spec"); a != b {
			t.Errorf("%s spec at %s through Run, %s in process", r, b, a)
		}
	}
	env.Run = func(string, map[string][]byte) (*Built, error) {
		return nil, errors.New("building the kustomization prod exceeded the memory limit of 1 MiB (--limit eval-memory)")
	}
	failed := Build("../../testdata/kustomize/overlays/prod", env)
	if len(failed.Resources) != 0 || len(failed.Diagnostics) != 1 {
		t.Fatalf("resources %d, diagnostics %v", len(failed.Resources), failed.Diagnostics)
	}
	d := failed.Diagnostics[0]
	if d.Range.String() != "testdata/kustomize/overlays/prod/kustomization.yaml:1:1" || d.Message != "building the kustomization prod exceeded the memory limit of 1 MiB (--limit eval-memory)" {
		t.Errorf("diagnostic %s: %s", d.Range, d.Message)
	}
}
