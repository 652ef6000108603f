package kustomize

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMaxOutput refuses a build whose output is over the limit, with a diagnostic at
// the kustomization, and builds the same overlay under the default limit.
func TestMaxOutput(t *testing.T) {
	env := testEnv(t)
	env.MaxOutput = 100
	res := Build("../../testdata/kustomize/overlays/prod", env)
	if len(res.Resources) != 0 || len(res.Diagnostics) != 1 {
		t.Fatalf("resources %d, diagnostics %v; want none and one", len(res.Resources), res.Diagnostics)
	}
	d := res.Diagnostics[0]
	got := d.Range.File + " " + d.Message
	if want := "testdata/kustomize/overlays/prod/kustomization.yaml the build output is more than 100 bytes"; !strings.HasPrefix(got, want) {
		t.Errorf("diagnostic %q, want it to start with %q", got, want)
	}
	if res := build(t, "prod"); len(res.Resources) == 0 || len(res.Diagnostics) > 0 {
		t.Errorf("default limit: %d resources, diagnostics %v", len(res.Resources), res.Diagnostics)
	}
	if diff := cmp.Diff(int64(DefaultMaxOutput), Env{}.maxOutput()); diff != "" {
		t.Errorf("default (-want +got):\n%s", diff)
	}
}
