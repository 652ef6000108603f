package load

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// gitignoreTree is a repository with .gitignore files at two levels and files that are
// not Kubernetes manifests.
var gitignoreTree = map[string]string{
	".gitignore":            "# build output\nbuild/\n*.gen.yaml\n!keep.gen.yaml\n/rooted.yaml\n",
	"build/x.yaml":          object("ConfigMap", "build"),
	"a.gen.yaml":            object("ConfigMap", "generated"),
	"keep.gen.yaml":         object("ConfigMap", "kept"),
	"rooted.yaml":           object("ConfigMap", "rooted"),
	"local.yaml":            object("ConfigMap", "root-local"),
	"sub/.gitignore":        "local.yaml\n",
	"sub/local.yaml":        object("ConfigMap", "sub-local"),
	"sub/rooted.yaml":       object("ConfigMap", "sub-rooted"),
	"sub/app.yaml":          object("ConfigMap", "app"),
	".vscode/launch.json":   "{\n  // debug the server\n  \"version\": \"0.2.0\",\n  \"configurations\": []\n}\n",
	"tsconfig.json":         "{\n  \"compilerOptions\": {\"strict\": true,},\n}\n",
	"broken/manifest.yaml":  "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: [broken\n",
	"broken/manifest2.json": "{\"apiVersion\": \"v1\", \"kind\": \"ConfigMap\" \"metadata\": {\"name\": \"x\"}}\n",
	// A test harness's Go template of a manifest: not YAML until rendered.
	"hack/pvc.yaml": "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: {{.Name}}\n{{ with .Class }}\n  annotations:\n    class: {{.}}\n{{ end }}\n",
}

// TestGitignoreAndNonManifests: a walk skips what .gitignore files ignore (directory
// patterns, globs, negation, anchored patterns, a nested file applying to its own
// directory only) and, silently, files that do not parse and show no apiVersion and
// kind, or are templates of another tool; a broken file that does show them, with no
// template action, is still PVL000.
func TestGitignoreAndNonManifests(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, gitignoreTree)
	res := Load([]string{"."}, Options{Dir: dir})
	want := []string{"keep.gen.yaml:kept", "local.yaml:root-local", "sub/app.yaml:app", "sub/rooted.yaml:sub-rooted"}
	if diff := cmp.Diff(want, names(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	var files []string
	for _, d := range res.Diagnostics {
		files = append(files, d.Range.File)
	}
	if diff := cmp.Diff([]string{"broken/manifest.yaml", "broken/manifest2.json"}, files); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s\n%v", diff, res.Diagnostics)
	}
}

// TestNoGitignoreAndExplicitFiles: with NoGitignore every file is walked, and a file
// named on the command line is reported when it does not parse, manifest or not.
func TestNoGitignoreAndExplicitFiles(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, gitignoreTree)
	res := Load([]string{"."}, Options{Dir: dir, NoGitignore: true})
	want := []string{"a.gen.yaml:generated", "build/x.yaml:build", "keep.gen.yaml:kept", "local.yaml:root-local",
		"rooted.yaml:rooted", "sub/app.yaml:app", "sub/local.yaml:sub-local", "sub/rooted.yaml:sub-rooted"}
	if diff := cmp.Diff(want, names(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	res = Load([]string{".vscode/launch.json", "build/x.yaml", "hack/pvc.yaml"}, Options{Dir: dir})
	if len(res.Diagnostics) != 2 || res.Diagnostics[0].Range.File != ".vscode/launch.json" || res.Diagnostics[1].Range.File != "hack/pvc.yaml" {
		t.Errorf("diagnostics = %v, want one for the named .vscode/launch.json and one for the named template", res.Diagnostics)
	}
	if diff := cmp.Diff([]string{"build/x.yaml:build"}, names(res)); diff != "" {
		t.Errorf("a named, ignored file is read: (-want +got):\n%s", diff)
	}
}

// TestGitignoreSymlinkNotFollowed: a .gitignore that is a symlink (here to a file
// outside the walked directory) is not read, and .gitignore files above the walked
// directory do not apply.
func TestGitignoreSymlinkNotFollowed(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		".gitignore":        "*.yaml\n",
		"outside.ignore":    "*.yaml\n",
		"repo/sub/app.yaml": object("ConfigMap", "app"),
	})
	if err := os.Symlink(filepath.Join(dir, "outside.ignore"), filepath.Join(dir, "repo", "sub", ".gitignore")); err != nil {
		t.Skip("no symlinks:", err)
	}
	res := Load([]string{"."}, Options{Dir: filepath.Join(dir, "repo")})
	if diff := cmp.Diff([]string{"sub/app.yaml:app"}, names(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}
