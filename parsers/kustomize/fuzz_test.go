package kustomize

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"

	"github.com/pvlint/pvlint/parsers/graph"
)

// kustomizeAttempt runs kustomize's own build on an in-memory kustomization whose
// only resource is ref, with no git program on PATH and pvlint's refusing HTTP
// transport, and says what kustomize tried: "clone" when it looked for git to clone
// a repository, "download" when it tried an HTTP request, "" otherwise.
func kustomizeAttempt(t *testing.T, ref string) string {
	t.Helper()
	noNetwork()
	fs := filesys.MakeFsInMemory()
	text, err := json.Marshal(map[string][]string{"resources": {ref}})
	if err != nil {
		t.Fatal(err)
	}
	if err := fs.WriteFile("/app/kustomization.yaml", text); err != nil {
		t.Fatal(err)
	}
	opts := krusty.MakeDefaultOptions()
	opts.PluginConfig = types.DisabledPluginConfig()
	opts.LoadRestrictions = types.LoadRestrictionsRootOnly
	_, err = krusty.MakeKustomizer(opts).Run(fs, "/app")
	switch {
	case err == nil:
		return ""
	case strings.Contains(err.Error(), "no 'git' program on path"):
		return "clone"
	case strings.Contains(err.Error(), "pvlint never downloads"):
		return "download"
	}
	return ""
}

// FuzzReference checks the classification of kustomization references: whatever
// kustomize would clone or download as written is classified remote (so the user
// gets a finding at the line), and what pvlint classifies local is served to
// kustomize in a form it tries neither to clone nor to download.
func FuzzReference(f *testing.F) {
	for _, s := range []string{
		"../base", "deployment.yaml", "deploy@127.0.0.1:org/repo", "git@github.com:org/repo.git",
		"github.com/org/repo//path?ref=v1", "https://example.com/x.yaml", "ssh://git@host/repo",
		"file:///srv/repo", "git::https://host/repo", "GITHUB.COM/org/repo", "a@b/c/d",
		"https://dev.azure.com/o/p/_git/r", "./x?ref=main", "HTTP://host/x", "u@h:p",
	} {
		f.Add(s)
	}
	f.Setenv("PATH", f.TempDir()) // no git: a clone attempt fails at the lookup
	dir := "/app"
	f.Fuzz(func(t *testing.T, v string) {
		if strings.ContainsAny(v, "\x00\n") {
			return
		}
		remote := isRemote(v)
		if !remote {
			if got := kustomizeAttempt(t, v); got != "" {
				t.Fatalf("kustomize tries to %s %q, which pvlint classifies local", got, v)
			}
		}
		r := (&kfile{dir: dir, subst: map[*graph.Node]string{}}).addRef("resources", &graph.Node{Kind: graph.String, Scalar: v}, true)
		if r == nil || remote {
			return
		}
		if !safeForKustomize(r.served) || !strings.HasPrefix(r.served, "./") && r.served != ".." && !strings.HasPrefix(r.served, "../") {
			t.Fatalf("%q is served as %q", v, r.served)
		}
		if filepath.Clean(filepath.Join(dir, r.served)) != r.abs {
			t.Fatalf("%q is served as %q, which is not %s", v, r.served, r.abs)
		}
		if got := kustomizeAttempt(t, r.served); got != "" {
			t.Fatalf("kustomize tries to %s %q (served for %q)", got, r.served, v)
		}
	})
}

// TestKustomizeAttempt shows the fuzz oracle sees what it must: kustomize, given these
// references as written, tries to clone or download them; given them anchored, it
// tries neither.
func TestKustomizeAttempt(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	for ref, want := range map[string]string{
		"deploy@127.0.0.1:org/repo":       "clone",
		"git@github.com:org/repo.git":     "clone",
		"file:///srv/repo":                "clone",
		"https://example.com/x.yaml":      "download",
		"./deploy@127.0.0.1:org/repo":     "",
		"../https://example.com/x.yaml":   "",
		"./github.com/org/repo//x?ref=v1": "",
	} {
		if got := kustomizeAttempt(t, ref); got != want {
			t.Errorf("kustomize given %q: attempt %q, want %q", ref, got, want)
		}
	}
}
