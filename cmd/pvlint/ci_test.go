package main

// The CI integrations (action.yml, .pre-commit-hooks.yaml, templates/pvlint.yml) are
// tested here, with the real runners: act for the GitHub Action, pre-commit for the
// hooks, gitlab-ci-local for the GitLab component. `make tools` installs them (Go tools
// into .tools/bin, npm packages into .ci/node_modules, Debian packages with apt); without
// them these tests fail, naming the tool; `go test -short` skips them all (they take
// minutes: the GoReleaser snapshot alone builds six binaries).

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// repoRoot is the module root, where the integration files live.
var repoRoot = func() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		panic(err)
	}
	return abs
}()

// tool returns the path of an installed test tool: a Go tool in .tools/bin, an npm
// package's binary in .ci/node_modules/.bin, or a command on PATH. Every test that
// needs one is a runner integration test, skipped under -short; a missing tool fails
// the test otherwise (missingTool).
func tool(t *testing.T, name string) string {
	t.Helper()
	if testing.Short() {
		t.Skipf("runner integration test (needs %s); skipped with -short", name)
	}
	for _, p := range []string{filepath.Join(repoRoot, ".tools", "bin", name), filepath.Join(repoRoot, ".ci", "node_modules", ".bin", name)} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	missingTool(t, name)
	return ""
}

// result is what a command did.
type result struct {
	code   int
	output string // standard output and standard error, interleaved
}

// run runs a command in dir with extra environment variables and returns its exit
// code and output; failing to start it fails the test.
func run(t *testing.T, dir string, env []string, name string, args ...string) result {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return result{0, out.String()}
	case errors.As(err, &exit):
		return result{exit.ExitCode(), out.String()}
	}
	t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
	return result{}
}

// mustRun runs a command that has to succeed and returns its output.
func mustRun(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	r := run(t, dir, env, name, args...)
	if r.code != 0 {
		t.Fatalf("%s %s: exit %d\n%s", name, strings.Join(args, " "), r.code, r.output)
	}
	return r.output
}

// copySource copies the repository's source — tracked files and new ones that are not
// ignored, as a commit of the working tree would hold them — into dst, so that the
// runners see what would be pushed, without node_modules, .tools or build output.
func copySource(t *testing.T, dst string) {
	t.Helper()
	files := strings.SplitSeq(strings.TrimRight(mustRun(t, repoRoot, nil, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00"), "\x00")
	for f := range files {
		src := filepath.Join(repoRoot, f)
		info, err := os.Lstat(src)
		if errors.Is(err, os.ErrNotExist) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		if !info.Mode().IsRegular() {
			continue
		}
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		to := filepath.Join(dst, f)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(to, data, info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

// gitRepo makes dir a git repository with one commit of everything in it, and returns
// the commit's SHA.
func gitRepo(t *testing.T, dir string) string {
	t.Helper()
	env := []string{"GIT_AUTHOR_NAME=pvlint test", "GIT_AUTHOR_EMAIL=test@pvlint.invalid", "GIT_COMMITTER_NAME=pvlint test", "GIT_COMMITTER_EMAIL=test@pvlint.invalid"}
	mustRun(t, dir, env, "git", "init", "-q", "-b", "main")
	mustRun(t, dir, env, "git", "add", "-A")
	mustRun(t, dir, env, "git", "commit", "-q", "-m", "test")
	return strings.TrimSpace(mustRun(t, dir, nil, "git", "rev-parse", "HEAD"))
}

// copyDir copies the regular files of a directory tree.
func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Join(dst, filepath.Dir(rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// readmeBlock returns the fenced code block that follows `<!-- ci:NAME -->` in
// README.md and the docs/ pages: the snippets users copy are the ones the tests run.
// A snippet shown on several pages (the front page and docs/ci.md) must be the same on
// each.
func readmeBlock(t *testing.T, name string) string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile("(?s)<!-- ci:" + regexp.QuoteMeta(name) + " -->\\s*```[a-z]*\\n(.*?)```")
	block, where := "", ""
	for _, page := range append([]string{filepath.Join(repoRoot, "README.md")}, pages...) {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(data, -1) {
			if where != "" && string(m[1]) != block {
				t.Fatalf("the ci:%s snippet differs between %s and %s", name, where, page)
			}
			block, where = string(m[1]), page
		}
	}
	if where == "" {
		t.Fatalf("no page has a code block after <!-- ci:%s -->", name)
	}
	return block
}

// writeFile writes a file, creating its directory.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// missingTool stops a test whose tool is not installed: a skip under -short, which
// skips integration tests on purpose, and a failure otherwise, so that a passing
// `go test ./...` never hides a check that did not run.
func missingTool(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s is not installed; skipped with -short (`make tools` installs it)", what)
	}
	t.Fatalf("%s is not installed: run `make tools`, or `go test -short` to skip the tests that need it", what)
}
