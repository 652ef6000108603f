package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// commitAll commits every file of the repository's worktree.
func commitAll(t *testing.T, repo *git.Repository, msg string) {
	t.Helper()
	wt, err := repo.Worktree()
	if err != nil {
		t.Fatal(err)
	}
	if err := wt.AddGlob("."); err != nil {
		t.Fatal(err)
	}
	sig := &object.Signature{Name: "test", Email: "test@example.com", When: time.Unix(1700000000, 0)}
	if _, err := wt.Commit(msg, &git.CommitOptions{Author: sig, Committer: sig}); err != nil {
		t.Fatal(err)
	}
}

// TestNewFromRev: in a repository the test builds, a commit adds a hazardous
// Deployment; --new-from-rev against the commit before it reports only that
// Deployment's findings, from the repository root and from a subdirectory, committed
// or not, and nothing against the commit itself.
func TestNewFromRev(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp) // where the revision's tree is written, and removed
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"k8s/base.yaml": sharedClaim, "README.md": "x\n"})
	commitAll(t, repo, "base")
	// Uncommitted: the working tree is compared with HEAD.
	writeFiles(t, dir, map[string]string{"k8s/web.yaml": hazardousDeployment})
	check := func(name, cwd string, args ...string) {
		t.Helper()
		code, stdout, stderr := habitRun{}.run(t, cwd, append([]string{"-f", "json"}, args...)...)
		if code != ExitFindings {
			t.Fatalf("%s: exit %d, %s", name, code, stderr)
		}
		var rep struct {
			Findings []struct {
				RuleID  string `json:"ruleId"`
				Message string `json:"message"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Findings) == 0 {
			t.Fatalf("%s: no finding kept", name)
		}
		for _, f := range rep.Findings {
			if !strings.Contains(f.Message, "Deployment web") {
				t.Errorf("%s: kept %s: %s", name, f.RuleID, f.Message)
			}
		}
	}
	check("uncommitted", dir, "--new-from-rev", "HEAD", "k8s")
	commitAll(t, repo, "add web")
	check("committed", dir, "--new-from-rev", "HEAD~1", ".")
	check("subdirectory", filepath.Join(dir, "k8s"), "--new-from-rev", "HEAD~1")
	// Against the commit that has it, nothing is new.
	code, stdout, stderr := habitRun{}.run(t, dir, "--new-from-rev", "HEAD", "k8s")
	if code != ExitOK || stdout != "no findings\n" {
		t.Errorf("against HEAD: exit %d, %q, %q", code, stdout, stderr)
	}
	// A directory the revision did not have had no findings: all of today's are new.
	writeFiles(t, dir, map[string]string{"apps/app.yaml": sharedClaim})
	if code, stdout, _ := (habitRun{}).run(t, dir, "--new-from-rev", "HEAD", "apps"); code != ExitFindings || !strings.Contains(stdout, "Deployment old") {
		t.Errorf("new directory: exit %d, %q", code, stdout)
	}
	// Usage errors: an unknown revision, no repository.
	if code, _, stderr := (habitRun{}).run(t, dir, "--new-from-rev", "no-such-branch", "k8s"); code != ExitError || !strings.Contains(stderr, "pvlint: --new-from-rev no-such-branch: ") {
		t.Errorf("unknown revision: exit %d, %q", code, stderr)
	}
	outside := t.TempDir()
	writeFiles(t, outside, map[string]string{"app.yaml": sharedClaim})
	if code, _, stderr := (habitRun{}).run(t, outside, "--new-from-rev", "HEAD", "app.yaml"); code != ExitError || !strings.Contains(stderr, "repository") {
		t.Errorf("no repository: exit %d, %q", code, stderr)
	}
	if entries, err := os.ReadDir(tmp); err != nil || len(entries) > 0 {
		t.Errorf("temporary trees left behind: %v %v", entries, err)
	}
}

// TestNewFromRevGitWorktree: in a checkout made by `git worktree add` (its .git is a
// file naming the main repository's worktrees/ entry, and objects and refs live in the
// common directory), --new-from-rev resolves a branch, a full SHA and HEAD~1, and
// keeps only the findings of the worktree's change.
func TestNewFromRevGitWorktree(t *testing.T) {
	gitBin, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not installed")
	}
	t.Setenv("TMPDIR", t.TempDir())
	gitRun := func(dir string, args ...string) string {
		t.Helper()
		cmd := exec.Command(gitBin, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com",
			"GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return strings.TrimSpace(string(out))
	}
	main := t.TempDir()
	gitRun(main, "init", "-q", "-b", "main")
	writeFiles(t, main, map[string]string{"k8s/base.yaml": sharedClaim})
	gitRun(main, "add", "-A")
	gitRun(main, "commit", "-q", "-m", "base")
	base := gitRun(main, "rev-parse", "HEAD")
	wt := filepath.Join(t.TempDir(), "feature")
	gitRun(main, "worktree", "add", "-q", "-b", "feature", wt)
	if fi, err := os.Lstat(filepath.Join(wt, ".git")); err != nil || !fi.Mode().IsRegular() {
		t.Fatalf("%s/.git is not the file of a linked worktree: %v", wt, err)
	}
	writeFiles(t, wt, map[string]string{"k8s/web.yaml": hazardousDeployment})
	gitRun(wt, "add", "-A")
	gitRun(wt, "commit", "-q", "-m", "add web")
	for _, rev := range []string{"main", base, "HEAD~1"} {
		code, stdout, stderr := habitRun{}.run(t, wt, "-f", "json", "--new-from-rev", rev, "k8s")
		if code != ExitFindings {
			t.Fatalf("--new-from-rev %s in a git worktree: exit %d, %s", rev, code, stderr)
		}
		var rep struct {
			Findings []struct {
				Message string `json:"message"`
			} `json:"findings"`
		}
		if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
			t.Fatal(err)
		}
		if len(rep.Findings) == 0 {
			t.Errorf("--new-from-rev %s: no finding kept", rev)
		}
		for _, f := range rep.Findings {
			if !strings.Contains(f.Message, "Deployment web") {
				t.Errorf("--new-from-rev %s: kept an old finding: %s", rev, f.Message)
			}
		}
	}
	// Against the worktree's own HEAD nothing is new.
	if code, stdout, stderr := (habitRun{}).run(t, wt, "--new-from-rev", "feature", "k8s"); code != ExitOK || stdout != "no findings\n" {
		t.Errorf("against HEAD: exit %d, %q, %q", code, stdout, stderr)
	}
}

// TestWriteTreeHostile: a crafted tree's symlinks, .git entries, names that climb
// out and oversized files are not written; regular files are.
func TestWriteTreeHostile(t *testing.T) {
	st := memory.NewStorage()
	blob := func(content string) plumbing.Hash {
		o := st.NewEncodedObject()
		o.SetType(plumbing.BlobObject)
		w, _ := o.Writer()
		w.Write([]byte(content))
		w.Close()
		h, err := st.SetEncodedObject(o)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	tree := func(entries ...object.TreeEntry) plumbing.Hash {
		o := st.NewEncodedObject()
		if err := (&object.Tree{Entries: entries}).Encode(o); err != nil {
			t.Fatal(err)
		}
		h, err := st.SetEncodedObject(o)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	gitDir := tree(object.TreeEntry{Name: "config", Mode: filemode.Regular, Hash: blob("[core]\n")})
	sub := tree(object.TreeEntry{Name: "ok.yaml", Mode: filemode.Regular, Hash: blob("a: 1\n")})
	root := tree(
		object.TreeEntry{Name: "big.yaml", Mode: filemode.Regular, Hash: blob(strings.Repeat("x", 100))},
		object.TreeEntry{Name: "link.yaml", Mode: filemode.Symlink, Hash: blob("/etc/passwd")},
		object.TreeEntry{Name: "sub", Mode: filemode.Dir, Hash: sub},
		object.TreeEntry{Name: "top.yaml", Mode: filemode.Executable, Hash: blob("b: 2\n")},
	)
	tr, err := object.GetTree(st, root)
	if err != nil {
		t.Fatal(err)
	}
	parent := t.TempDir()
	dir := filepath.Join(parent, "tree")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := writeTree(st, tr, dir, 50); err != nil {
		t.Fatal(err)
	}
	var got []string
	filepath.WalkDir(parent, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(parent, p)
			got = append(got, filepath.ToSlash(rel))
		}
		return nil
	})
	if want := "tree/sub/ok.yaml tree/top.yaml"; strings.Join(got, " ") != want {
		t.Errorf("written %q, want %q", got, want)
	}
	// go-git refuses a .git entry or a name that climbs out: the run stops with
	// that error, and nothing is written.
	for _, bad := range []object.TreeEntry{
		{Name: ".git", Mode: filemode.Dir, Hash: gitDir},
		{Name: "..", Mode: filemode.Regular, Hash: blob("climb")},
		{Name: "x", Mode: filemode.Dir, Hash: tree(object.TreeEntry{Name: "..", Mode: filemode.Dir, Hash: sub})},
	} {
		tr, err := object.GetTree(st, tree(bad))
		if err != nil {
			t.Fatal(err)
		}
		out := t.TempDir()
		if err := writeTree(st, tr, filepath.Join(out, "tree"), 50); err == nil {
			t.Errorf("a tree with %q was written", bad.Name)
		}
		if entries, _ := os.ReadDir(out); len(entries) > 0 {
			t.Errorf("a tree with %q wrote %v", bad.Name, entries)
		}
	}
}

// TestGraphNewOnly: pvlint graph honours --new-from-rev and --new-from-patch as a lint
// run does: with --findings-only, a Deployment whose finding predates the revision
// (or is on no line the patch adds) is not drawn, the new one is. A lint run's
// --format mermaid=FILE (the GitHub Action's one run) writes the same picture as
// pvlint graph --findings-only with the same flags, an empty file when nothing is new.
func TestGraphNewOnly(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := t.TempDir()
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	claim := func(name string) string {
		return "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: " + name +
			"\nspec:\n  accessModes: [ReadWriteOnce]\n  resources: {requests: {storage: 1Gi}}\n---\n"
	}
	deployment := func(name, claim string) string {
		return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: " + name +
			"\nspec:\n  replicas: 3\n  strategy: {type: Recreate}\n  template:\n    spec:\n      volumes:\n" +
			"        - name: data\n          persistentVolumeClaim: {claimName: " + claim + "}\n"
	}
	writeFiles(t, dir, map[string]string{"k8s/old.yaml": claim("archive") + deployment("old", "archive")})
	commitAll(t, repo, "base")
	web := claim("uploads") + deployment("web", "uploads")
	writeFiles(t, dir, map[string]string{"k8s/web.yaml": web})
	lines := strings.Split(strings.TrimSuffix(web, "\n"), "\n")
	patch := fmt.Sprintf("diff --git a/k8s/web.yaml b/k8s/web.yaml\nnew file mode 100644\n--- /dev/null\n+++ b/k8s/web.yaml\n@@ -0,0 +1,%d @@\n+%s\n",
		len(lines), strings.Join(lines, "\n+"))
	patchFile := filepath.Join(t.TempDir(), "web.diff")
	if err := os.WriteFile(patchFile, []byte(patch), 0o644); err != nil {
		t.Fatal(err)
	}
	picture := filepath.Join(t.TempDir(), "graph.mmd")
	draw := func(args ...string) string {
		t.Helper()
		code, stdout, stderr := habitRun{}.run(t, dir, append([]string{"graph", "--findings-only"}, args...)...)
		if code != ExitOK {
			t.Fatalf("pvlint graph %v: exit %d, %s", args, code, stderr)
		}
		// The lint run's picture, over a stale one that it must replace.
		if err := os.WriteFile(picture, []byte("stale"), 0o644); err != nil {
			t.Fatal(err)
		}
		lintArgs := append([]string{"--format", "json", "--format", "mermaid=" + picture}, args...)
		code, report, stderr := habitRun{}.run(t, dir, lintArgs...)
		if code != ExitOK && code != ExitFindings {
			t.Fatalf("pvlint %v: exit %d, %s", lintArgs, code, stderr)
		}
		if !strings.Contains(report, `"findings"`) {
			t.Errorf("pvlint %v printed no JSON report beside the picture:\n%s", lintArgs, report)
		}
		if b, err := os.ReadFile(picture); err != nil || string(b) != stdout {
			t.Errorf("pvlint %v wrote a picture other than pvlint graph --findings-only's (%v):\n%s\nwant:\n%s", lintArgs, err, b, stdout)
		}
		return stdout
	}
	if all := draw("k8s"); !strings.Contains(all, "old") || !strings.Contains(all, "web") {
		t.Fatalf("without --new-from-*, both Deployments are drawn:\n%s", all)
	}
	for _, flags := range [][]string{{"--new-from-rev", "HEAD"}, {"--new-from-patch", patchFile}} {
		got := draw(append(flags, "k8s")...)
		if !strings.Contains(got, "web") || strings.Contains(got, "old") || strings.Contains(got, "archive") {
			t.Errorf("pvlint graph --findings-only %v draws more or less than the new Deployment:\n%s", flags, got)
		}
	}
	// Against the revision that has both, nothing is new and nothing is drawn.
	commitAll(t, repo, "web")
	if got := draw("--new-from-rev", "HEAD", "k8s"); got != "" {
		t.Errorf("nothing new, yet drawn:\n%s", got)
	}
}
