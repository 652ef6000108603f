package corpus

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/load"
)

// tree reads every file under dir, keyed by slash path.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestDeterministic(t *testing.T) {
	for _, tf := range []bool{false, true} {
		a, b, c := t.TempDir(), t.TempDir(), t.TempDir()
		opts := Options{Objects: 300, Seed: 7, Terraform: tf}
		if _, err := Write(a, opts); err != nil {
			t.Fatal(err)
		}
		if _, err := Write(b, opts); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(tree(t, a), tree(t, b)); diff != "" {
			t.Errorf("terraform=%v: same options, different corpus:\n%s", tf, diff)
		}
		opts.Seed = 8
		if _, err := Write(c, opts); err != nil {
			t.Fatal(err)
		}
		if cmp.Equal(tree(t, a), tree(t, c)) {
			t.Errorf("terraform=%v: seeds 7 and 8 wrote the same corpus", tf)
		}
	}
}

// TestStats checks that the corpus loads without a diagnostic, that every object it
// counts is a resource (YAML), and that the reported sizes are those on disk.
func TestStats(t *testing.T) {
	dir := t.TempDir()
	st, err := Write(dir, Options{Objects: 1000, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if st.Objects < 1000 || st.Objects > 1010 {
		t.Errorf("Objects = %d, want 1000 to 1010", st.Objects)
	}
	files := tree(t, dir)
	var bytes int64
	for _, body := range files {
		bytes += int64(len(body))
	}
	if len(files) != st.Files || bytes != st.Bytes {
		t.Errorf("Stats say %d files, %d bytes; the directory has %d files, %d bytes", st.Files, st.Bytes, len(files), bytes)
	}
	res := load.Load([]string{"."}, load.Options{Dir: dir})
	if len(res.Diagnostics) > 0 {
		t.Errorf("corpus has diagnostics: %v", res.Diagnostics)
	}
	kinds := map[string]int{}
	for _, r := range res.Base {
		kinds[r.Kind]++
	}
	if len(res.Base) != st.Objects {
		t.Errorf("%d resources loaded, %d objects written (%v)", len(res.Base), st.Objects, kinds)
	}
	for _, k := range []string{"Namespace", "StorageClass", "PersistentVolume", "PrometheusRule", "ServiceAccount", "ConfigMap",
		"PersistentVolumeClaim", "Deployment", "StatefulSet", "CronJob", "HorizontalPodAutoscaler", "Service"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the corpus", k)
		}
	}
}

func TestTerraformLoads(t *testing.T) {
	dir := t.TempDir()
	if _, err := Write(dir, Options{Objects: 300, Seed: 1, Terraform: true}); err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{"."}, load.Options{Dir: dir})
	if len(res.Diagnostics) > 0 {
		t.Errorf("corpus has diagnostics: %v", res.Diagnostics)
	}
	kinds := map[string]int{}
	for _, r := range res.Base {
		kinds[r.Kind]++
	}
	for _, k := range []string{"StorageClass", "PersistentVolume", "PersistentVolumeClaim", "Deployment", "StatefulSet", "CronJob", "HorizontalPodAutoscaler"} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the Terraform corpus (%v)", k, kinds)
		}
	}
}

func TestRejectsNoObjects(t *testing.T) {
	if _, err := Write(t.TempDir(), Options{}); err == nil {
		t.Error("Write accepted zero objects")
	}
}

// TestWorkloadsShape checks the workload-heavy corpus: it loads without a diagnostic,
// workloads and claims far outnumber ConfigMaps, and about a third of the application
// files are `helm template` output whose resources carry their template's path.
func TestWorkloadsShape(t *testing.T) {
	dir := t.TempDir()
	st, err := Write(dir, Options{Objects: 1000, Seed: 1, Workloads: true})
	if err != nil {
		t.Fatal(err)
	}
	res := load.Load([]string{"."}, load.Options{Dir: dir})
	if len(res.Diagnostics) > 0 {
		t.Errorf("corpus has diagnostics: %v", res.Diagnostics)
	}
	if len(res.Base) != st.Objects {
		t.Errorf("%d resources loaded, %d objects written", len(res.Base), st.Objects)
	}
	kinds, rendered := map[string]int{}, map[string]bool{}
	for _, r := range res.Base {
		kinds[r.Kind]++
		if r.Origin.Source != "" {
			rendered[r.Origin.File] = true
			if !strings.HasPrefix(r.Origin.Source, "app-") || !strings.Contains(r.Origin.Source, "/templates/") {
				t.Errorf("%s: template path %q", r.Origin.File, r.Origin.Source)
			}
		}
	}
	if cm, w := kinds["ConfigMap"], kinds["Deployment"]+kinds["StatefulSet"]+kinds["PersistentVolumeClaim"]; cm*10 > w {
		t.Errorf("%d ConfigMaps against %d Deployments, StatefulSets and claims: not workload-heavy (%v)", cm, w, kinds)
	}
	apps := 0
	for name := range tree(t, dir) {
		if strings.HasPrefix(name, "team-") {
			apps++
		}
	}
	if n := len(rendered); n < apps/3-1 || n > apps/3+1 {
		t.Errorf("%d of %d application files are rendered output; want a third", n, apps)
	}
	// The default shape is unchanged by the option's existence: no template paths.
	plain := t.TempDir()
	if _, err := Write(plain, Options{Objects: 300, Seed: 1}); err != nil {
		t.Fatal(err)
	}
	for _, r := range load.Load([]string{"."}, load.Options{Dir: plain}).Base {
		if r.Origin.Source != "" {
			t.Fatalf("default corpus has rendered output: %s", r.Origin.File)
		}
	}
}
