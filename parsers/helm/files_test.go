package helm

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// copyDir copies a fixture directory into dst.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// packChart writes dir as a chart archive (files under a top directory named top).
func packChart(t *testing.T, dir, top, out string) {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		hdr := &tar.Header{Name: top + "/" + filepath.ToSlash(rel), Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}
		if err := tw.WriteHeader(hdr); err != nil {
			return err
		}
		_, err = tw.Write(data)
		return err
	})
	if err == nil {
		err = tw.Close()
	}
	if err == nil {
		err = gz.Close()
	}
	if err == nil {
		err = os.WriteFile(out, buf.Bytes(), 0o644)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// tempEnv shows paths relative to a temporary directory and confines reads to it.
func tempEnv(dir string) Env {
	return Env{
		Display: func(p string) string {
			rel, _ := filepath.Rel(dir, p)
			return filepath.ToSlash(rel)
		},
		Inside: func(p string) bool {
			root, _ := filepath.EvalSymlinks(dir)
			return p == root || strings.HasPrefix(p, root+string(filepath.Separator))
		},
	}
}

func TestArchivedSubchart(t *testing.T) {
	dir := t.TempDir()
	chart := filepath.Join(dir, "umbrella")
	copyDir(t, "../../testdata/helm/umbrella", chart)
	packChart(t, filepath.Join(chart, "charts", "cache"), "cache", filepath.Join(chart, "charts", "cache-0.2.0.tgz"))
	if err := os.RemoveAll(filepath.Join(chart, "charts", "cache")); err != nil {
		t.Fatal(err)
	}
	res := Render(chart, Options{}, tempEnv(dir))
	sts := find(t, res, "umbrella", "StatefulSet")
	const file = "umbrella/charts/cache-0.2.0.tgz/templates/statefulset.yaml"
	// The dependency's template reads .Values.replicas: the user sets cache.replicas.
	if at := sts.Locate("spec", "replicas").String(); at != "umbrella/values.yaml:3:13" {
		t.Errorf("replicas at %s, want umbrella/values.yaml:3:13", at)
	}
	if !hasRelated(sts, sts.Locate("spec", "replicas"), file+":6:", "template "+file+" of the dependency cache") {
		t.Errorf("template not related: %v", sts.Related)
	}
	if _, ok := res.Sources[file]; !ok {
		t.Errorf("archived template missing from sources: %v", sortedKeys(res.Sources))
	}
}

func TestSymlinkOutsideRoot(t *testing.T) {
	dir := t.TempDir()
	chart := filepath.Join(dir, "app")
	copyDir(t, "../../testdata/helm/app", chart)
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("kind: Secret\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(chart, "templates", "leak.yaml")); err != nil {
		t.Fatal(err)
	}
	res := Render(chart, Options{}, tempEnv(dir))
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Range.File != "app/templates/leak.yaml" ||
		!strings.Contains(res.Diagnostics[0].Message, "outside the linted directory") {
		t.Fatalf("diagnostics = %v", res.Diagnostics)
	}
	if len(res.Variants) != 4 {
		t.Errorf("the rest of the chart was not rendered: %d variants", len(res.Variants))
	}
}

func TestRenderTimeout(t *testing.T) {
	dir := t.TempDir()
	chart := filepath.Join(dir, "slow")
	copyDir(t, "../../testdata/helm/sandbox", chart)
	// A render that takes far longer than the bound (about a second of work).
	slow := []byte("{{- range until 400000 }}{{ printf \"%d\" . | sha256sum | trunc 0 }}{{- end }}\n")
	if err := os.WriteFile(filepath.Join(chart, "templates", "slow.yaml"), slow, 0o644); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	res := Render(chart, Options{Timeout: 50 * time.Millisecond}, tempEnv(dir))
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("render returned after %s", took)
	}
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "took longer than 50ms") {
		t.Fatalf("diagnostics = %v", res.Diagnostics)
	}
}

func TestHelmignore(t *testing.T) {
	dir := t.TempDir()
	chart := filepath.Join(dir, "app")
	copyDir(t, "../../testdata/helm/app", chart)
	// chart-testing files are often packaged out; they are still variants.
	if err := os.WriteFile(filepath.Join(chart, ".helmignore"), []byte("ci/\ntemplates/hpa.yaml\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := Render(chart, Options{}, tempEnv(dir))
	if len(res.Variants) != 4 {
		t.Fatalf("%d variants, want 4", len(res.Variants))
	}
	for _, r := range res.Variants[2].Resources {
		if r.Kind == "HorizontalPodAutoscaler" {
			t.Errorf("ignored template rendered: %s", r.Origin.File)
		}
	}
}
