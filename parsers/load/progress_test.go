package load

import (
	"path/filepath"
	"testing"
)

// TestProgress loads plain manifests, a chart, Kustomize overlays and Terraform
// modules with a Progress: once the load returns, every stage has counted all of its
// inputs as done, and the line says so.
func TestProgress(t *testing.T) {
	dir, err := filepath.Abs("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	pr := &Progress{}
	if got := pr.String(); got != "0 files found" {
		t.Errorf("before the load: %q", got)
	}
	Load([]string{"demo", "helm/app", "kustomize/overlays", "terraform/opentofu", "terraform/eval"}, Options{Dir: dir, Progress: pr})
	for _, c := range []struct {
		name        string
		done, total int64
	}{
		{"manifests", pr.Parsed.Load(), pr.Files.Load()},
		{"kustomizations", pr.Built.Load(), pr.Kustomizations.Load()},
		{"charts", pr.Rendered.Load(), pr.Charts.Load()},
		{"modules", pr.Evaluated.Load(), pr.Modules.Load()},
	} {
		if c.total == 0 || c.done != c.total {
			t.Errorf("%s: %d of %d done", c.name, c.done, c.total)
		}
	}
	if pr.Found.Load() < pr.Files.Load() {
		t.Errorf("%d files found, fewer than the %d manifests", pr.Found.Load(), pr.Files.Load())
	}
	// testdata/demo: 6 files; 10 overlays; testdata/helm/app; 4 module directories.
	want := "manifests 6/6, kustomizations 10/10, charts 1/1, Terraform modules 4/4"
	if got := pr.String(); got != want {
		t.Errorf("progress line %q, want %q", got, want)
	}
	var none *Progress
	none.found()
	none.rendered(2)
	if none.String() != "" {
		t.Error("a nil Progress says something")
	}
}
