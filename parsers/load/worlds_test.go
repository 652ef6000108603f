package load

import (
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeFiles writes files (slash paths relative to dir) with their contents.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func object(kind, name string) string {
	return "apiVersion: v1\nkind: " + kind + "\nmetadata: {name: " + name + "}\n"
}

// dirWorldsOf renders each world as "name: file:resource, ..." with its resources sorted.
func dirWorldsOf(res *Result) []string {
	var out []string
	for _, w := range res.Worlds() {
		var rs []string
		for _, r := range w.Resources {
			rs = append(rs, r.Origin.File+":"+r.Name)
		}
		sort.Strings(rs)
		out = append(out, w.Name+": "+strings.Join(rs, " "))
	}
	sort.Strings(out)
	return out
}

// TestDirectoryWorlds: directories whose manifests define the same resource are
// alternatives, each linted with the files outside them; the world is the directory
// directly under the deepest common ancestor of the two definitions, whatever their
// depth; a duplicate in a directory and the directory above it is not an alternative.
func TestDirectoryWorlds(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"shared.yaml":                   object("StorageClass", "gp3"),
		"envs/dev/app.yaml":             object("PersistentVolumeClaim", "data"),
		"envs/prod/app.yaml":            object("PersistentVolumeClaim", "data"),
		"envs/prod/extra/more.yaml":     object("ConfigMap", "prod-only"),
		"examples/a/deep/deploy/x.yaml": object("Deployment", "wordpress"),
		"examples/b/x.yaml":             object("Deployment", "wordpress"),
		"nested/base.yaml":              object("ConfigMap", "settings"),
		"nested/inner/over.yaml":        object("ConfigMap", "settings"),
	})
	res := Load([]string{"."}, Options{Dir: dir})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	if diff := cmp.Diff([]string{"envs/dev", "envs/prod", "examples/a", "examples/b"}, res.WorldDirs()); diff != "" {
		t.Errorf("world directories (-want +got):\n%s", diff)
	}
	outside := "nested/base.yaml:settings nested/inner/over.yaml:settings shared.yaml:gp3"
	want := []string{
		"envs/dev: envs/dev/app.yaml:data " + outside,
		"envs/prod: envs/prod/app.yaml:data envs/prod/extra/more.yaml:prod-only " + outside,
		"examples/a: examples/a/deep/deploy/x.yaml:wordpress " + outside,
		"examples/b: examples/b/x.yaml:wordpress " + outside,
	}
	if diff := cmp.Diff(want, dirWorldsOf(res)); diff != "" {
		t.Errorf("worlds (-want +got):\n%s", diff)
	}
	for _, r := range res.Base {
		wantVariant := ""
		for _, w := range res.WorldDirs() {
			if strings.HasPrefix(r.Origin.File, w+"/") {
				wantVariant = w
			}
		}
		if r.Origin.Variant != wantVariant {
			t.Errorf("%s: variant %q, want %q", r.Origin.File, r.Origin.Variant, wantVariant)
		}
	}
}

// TestNoDuplicatesNoWorlds: without a duplicate across directories the load is one
// world, as before.
func TestNoDuplicatesNoWorlds(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/one.yaml": object("ConfigMap", "one"),
		"b/two.yaml": object("ConfigMap", "two"),
		"b/dup.yaml": object("ConfigMap", "three") + "---\n" + object("ConfigMap", "three"),
	})
	res := Load([]string{"."}, Options{Dir: dir})
	if res.WorldDirs() != nil {
		t.Errorf("world directories = %v, want none", res.WorldDirs())
	}
	ws := res.Worlds()
	if len(ws) != 1 || len(ws[0].Resources) != 4 {
		t.Errorf("worlds = %v, want one of 4 resources", dirWorldsOf(res))
	}
}

// TestNamespacedDuplicates: the same name in two namespaces is two objects; an
// implicit namespace is the default one.
func TestNamespacedDuplicates(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"a/x.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: one}\n",
		"b/x.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: two}\n",
		"c/x.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d}\n",
		"d/x.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: d, namespace: tenant}\n",
	})
	res := Load([]string{"."}, Options{Dir: dir})
	if res.WorldDirs() != nil {
		t.Errorf("world directories = %v, want none", res.WorldDirs())
	}
}

// TestWorldGlobs: directories Options.World names are worlds of their own even
// when they share no names; a Helm chart inside one is joined with that world only.
func TestWorldGlobs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"common.yaml":                           object("StorageClass", "gp3"),
		"examples/one/pvc.yaml":                 object("PersistentVolumeClaim", "producer-pvc"),
		"examples/two/job.yaml":                 object("Job", "producer-pvc"),
		"examples/three/chart/Chart.yaml":       "apiVersion: v2\nname: three\nversion: 0.1.0\n",
		"examples/three/chart/templates/x.yaml": object("ConfigMap", "{{ .Release.Name }}-x"),
		"other/cm.yaml":                         object("ConfigMap", "other"),
	})
	res := Load([]string{"."}, Options{Dir: dir, World: func(d string) bool {
		ok, _ := filepath.Match(filepath.Join(dir, "examples", "*"), d)
		return ok
	}})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	if diff := cmp.Diff([]string{"examples/one", "examples/three", "examples/two"}, res.WorldDirs()); diff != "" {
		t.Errorf("world directories (-want +got):\n%s", diff)
	}
	want := []string{
		"examples/one: common.yaml:gp3 examples/one/pvc.yaml:producer-pvc other/cm.yaml:other",
		"examples/two: common.yaml:gp3 examples/two/job.yaml:producer-pvc other/cm.yaml:other",
		"three: common.yaml:gp3 examples/three/chart/templates/x.yaml:release-name-x other/cm.yaml:other",
	}
	if diff := cmp.Diff(want, dirWorldsOf(res)); diff != "" {
		t.Errorf("worlds (-want +got):\n%s", diff)
	}
}

// TestTooManyWorlds: past the bound the load stays one world, with a diagnostic, so a
// tree of many small duplicates cannot multiply the work.
func TestTooManyWorlds(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{}
	for i := 0; i <= maxDirWorlds; i++ {
		files["ex/"+strconv.Itoa(i)+"/cm.yaml"] = object("ConfigMap", "same")
	}
	writeFiles(t, dir, files)
	res := Load([]string{"."}, Options{Dir: dir})
	if res.WorldDirs() != nil || len(res.Worlds()) != 1 {
		t.Errorf("worlds = %d, want one", len(res.Worlds()))
	}
	if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "more than the limit of 1000 separate worlds") {
		t.Errorf("diagnostics = %v", res.Diagnostics)
	}
}
