package load

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func names(res *Result) []string {
	var out []string
	for _, r := range res.Base {
		out = append(out, r.Origin.File+":"+r.Name)
	}
	sort.Strings(out)
	return out
}

// treeWithGit copies testdata/tree into a temporary directory and adds a .git
// directory holding a manifest (git cannot commit one), which the walk must skip.
func treeWithGit(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	err := filepath.WalkDir("testdata/tree", func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, "tree", strings.TrimPrefix(path, "testdata/tree"))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	git := filepath.Join(dir, "tree", "sub", ".git")
	if err := os.MkdirAll(git, 0o755); err != nil {
		t.Fatal(err)
	}
	pvc := []byte("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: git}\n")
	if err := os.WriteFile(filepath.Join(git, "ignored.yaml"), pvc, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestWalk(t *testing.T) {
	dir := treeWithGit(t)
	res := Load([]string{"tree"}, Options{Dir: dir})
	want := []string{"tree/app.yaml:a", "tree/sub/app.json:j"}
	if diff := cmp.Diff(want, names(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Range.File != "tree/sub/broken.yml" || res.Diagnostics[0].Range.Start.Line != 5 {
		t.Errorf("diagnostics = %v, want one at tree/sub/broken.yml:5", res.Diagnostics)
	}
	if _, ok := res.Sources["tree/app.yaml"]; !ok {
		t.Errorf("sources missing tree/app.yaml: %v", res.Sources)
	}
}

// TestExclude checks the Exclude hook: an excluded directory is not descended into,
// an excluded file is not read, and a path the user names is read anyway.
func TestExclude(t *testing.T) {
	dir := treeWithGit(t)
	var asked []string
	exclude := func(path string) bool {
		rel, _ := filepath.Rel(dir, path)
		asked = append(asked, filepath.ToSlash(rel))
		return rel == filepath.Join("tree", "sub") || rel == filepath.Join("tree", "app.yaml")
	}
	res := Load([]string{"tree"}, Options{Dir: dir, Exclude: exclude})
	if len(res.Base) != 0 || len(res.Diagnostics) != 0 {
		t.Errorf("excluded inputs were read: %v, %v", names(res), res.Diagnostics)
	}
	for _, p := range asked {
		if strings.HasPrefix(p, "tree/sub/") {
			t.Errorf("asked about %s inside an excluded directory", p)
		}
	}
	res = Load([]string{"tree/app.yaml"}, Options{Dir: dir, Exclude: exclude})
	if diff := cmp.Diff([]string{"tree/app.yaml:a"}, names(res)); diff != "" {
		t.Errorf("a named file is read (-want +got):\n%s", diff)
	}
}

func TestExplicitFileAndMissingPath(t *testing.T) {
	dir, _ := filepath.Abs("testdata")
	res := Load([]string{"tree/app.yaml", "tree/app.yaml", "nope.yaml"}, Options{Dir: dir})
	if diff := cmp.Diff([]string{"tree/app.yaml:a"}, names(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Range.File != "nope.yaml" || res.Diagnostics[0].Range.Start.Line != 1 {
		t.Errorf("diagnostics = %v", res.Diagnostics)
	}
}

func TestStdin(t *testing.T) {
	res := Load([]string{"-"}, Options{Stdin: strings.NewReader("apiVersion: v1\nkind: Pod\nmetadata: {name: p}\n"), StdinName: "rendered.yaml"})
	if diff := cmp.Diff([]string{"rendered.yaml:p"}, names(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

func TestSizeLimitAndSymlinkEscape(t *testing.T) {
	dir := t.TempDir()
	big := filepath.Join(dir, "big.yaml")
	if err := os.WriteFile(big, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: big}\n"+strings.Repeat("# pad\n", 100)), 0o644); err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "secret.yaml")
	if err := os.WriteFile(outside, []byte("apiVersion: v1\nkind: Pod\nmetadata: {name: secret}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "link.yaml")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	res := Load([]string{"."}, Options{Dir: dir, MaxFileSize: 200})
	if len(res.Base) != 0 {
		t.Errorf("resources = %v, want none", names(res))
	}
	var msgs []string
	for _, d := range res.Diagnostics {
		msgs = append(msgs, d.Range.File+": "+d.Message)
	}
	sort.Strings(msgs)
	if len(msgs) != 2 || !strings.Contains(msgs[0], "big.yaml: file is") || !strings.Contains(msgs[1], "link.yaml: symlink points outside") {
		t.Errorf("diagnostics = %q", msgs)
	}
}

func TestWorlds(t *testing.T) {
	res := &Result{Variants: []Variant{{Name: "a"}, {Name: "b"}}}
	if w := res.Worlds(); len(w) != 2 || w[0].Name != "a" {
		t.Errorf("worlds = %v", w)
	}
	res = &Result{}
	if w := res.Worlds(); len(w) != 1 || w[0].Name != "" {
		t.Errorf("worlds = %v", w)
	}
}
