package gitops

import (
	"os"
	"path/filepath"
	"testing"
)

func TestNormalizeURL(t *testing.T) {
	for in, want := range map[string]string{
		"https://github.com/o/r":                    "github.com/o/r",
		"https://github.com/O/R.git/":               "github.com/o/r",
		"git@github.com:o/r.git":                    "github.com/o/r",
		"ssh://git@github.com:22/o/r":               "github.com/o/r",
		"https://user:token@gitlab.example.com/g/r": "gitlab.example.com/g/r",
		"":                       "",
		"../other":               "",
		"/srv/git/r":             "",
		"oci://ghcr.io/o/charts": "ghcr.io/o/charts",
	} {
		if got := NormalizeURL(in); got != want {
			t.Errorf("NormalizeURL(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestPullLine: the lines are meant for a shell, and their words come from the
// repository under review: quoted, and never an option.
func TestPullLine(t *testing.T) {
	for _, tc := range []struct {
		p    Pull
		want string
	}{
		{Pull{Repo: "https://charts.example.com", Chart: "plex", Version: "1.2.3"}, "helm pull --repo https://charts.example.com plex --version 1.2.3"},
		{Pull{Repo: "oci://ghcr.io/o/charts/", Chart: "db", Version: ">=1.0.0 <2"}, "helm pull oci://ghcr.io/o/charts/db --version '>=1.0.0 <2'"},
		{Pull{Repo: "https://x.example/$(id)", Chart: "a", Version: "1.0.0'; rm -rf /; '"}, `helm pull --repo 'https://x.example/$(id)' a --version '1.0.0'\''; rm -rf /; '\'''`},
		{Pull{Repo: "oci://r.example/c", Chart: "app"}, "helm pull oci://r.example/c/app"},
	} {
		if !tc.p.Valid() {
			t.Errorf("%+v is not valid", tc.p)
		}
		if got := tc.p.Line(); got != tc.want {
			t.Errorf("Line(%+v) =\n  %s\nwant\n  %s", tc.p, got, tc.want)
		}
	}
	for _, p := range []Pull{
		{Repo: "https://x.example", Chart: "--kube-context=evil"},
		{Repo: "https://x.example", Chart: "a b"},
		{Repo: "https://x.example", Chart: "a", Version: "--devel"},
		{Repo: "file:///etc", Chart: "a"},
		{Repo: "", Chart: "a"},
		{Repo: "https://x.example/a b", Chart: "a"},
	} {
		if p.Valid() {
			t.Errorf("%+v is valid", p)
		}
	}
}

func TestCacheLookup(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{"app-1.0.0.tgz", "app-1.4.2.tgz", "app-2.0.0-rc.1.tgz", "my-app-2-3.1.0.tgz", "notes.txt"} {
		os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o644)
	}
	os.MkdirAll(filepath.Join(dir, "unpacked"), 0o755)
	os.WriteFile(filepath.Join(dir, "unpacked", "Chart.yaml"), []byte("name: db\nversion: 12.1.0\n"), 0o644)
	os.MkdirAll(filepath.Join(dir, "linked"), 0o755)
	os.Symlink("/etc/hostname", filepath.Join(dir, "linked", "Chart.yaml"))
	c := NewCache([]string{dir, filepath.Join(dir, "missing")})
	for _, tc := range []struct{ name, version, want string }{
		{"app", "1.0.0", "app-1.0.0.tgz"},
		{"app", "v1.4.2", "app-1.4.2.tgz"},
		{"app", "^1.0.0", "app-1.4.2.tgz"},
		{"app", "1.x", "app-1.4.2.tgz"},
		{"app", "", "app-1.4.2.tgz"}, // the latest: a prerelease is not
		{"app", "3.0.0", ""},
		{"my-app-2", "3.1.0", "my-app-2-3.1.0.tgz"},
		{"db", ">=12", "unpacked"},
		{"db", "11.0.0", ""},
		{"nope", "", ""},
	} {
		p, root, ok := c.Lookup(tc.name, tc.version)
		got := ""
		if ok {
			got = filepath.Base(p)
			if root != dir {
				t.Errorf("Lookup(%s, %s) root = %s", tc.name, tc.version, root)
			}
		}
		if got != tc.want {
			t.Errorf("Lookup(%s, %q) = %q, want %q", tc.name, tc.version, got, tc.want)
		}
	}
	var nilCache *Cache
	if _, _, ok := nilCache.Lookup("app", ""); ok {
		t.Error("a nil cache holds a chart")
	}
}

func TestRemotes(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, ".git"), 0o755)
	os.WriteFile(filepath.Join(dir, ".git", "config"), []byte("[core]\n\turl = not-a-remote\n[remote \"origin\"]\n\turl = git@github.com:o/r.git\n[remote \"up\"]\n\turl = \"https://gitlab.example.com/g/r\"\n[branch \"main\"]\n\tremote = origin\n"), 0o644)
	got := Remotes(dir)
	if len(got) != 2 || got[0] != "git@github.com:o/r.git" || got[1] != "https://gitlab.example.com/g/r" {
		t.Errorf("Remotes = %q", got)
	}
	if Remotes(t.TempDir()) != nil {
		t.Error("remotes without .git")
	}
}
