package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestPreCommitManifest: pre-commit accepts the hooks manifest and the README's
// configuration.
func TestPreCommitManifest(t *testing.T) {
	preCommit := tool(t, "pre-commit")
	mustRun(t, repoRoot, nil, preCommit, "validate-manifest", ".pre-commit-hooks.yaml")
	cfg := filepath.Join(t.TempDir(), ".pre-commit-config.yaml")
	writeFile(t, cfg, readmeBlock(t, "pre-commit"))
	mustRun(t, repoRoot, nil, preCommit, "validate-config", cfg)
}

// TestPreCommitHooks runs the hooks with pre-commit on two sample repositories: the
// golang hook, built by pre-commit from a clone of this source, fails on a hazard and
// passes on a clean repository; the system hook uses the pvlint on PATH, as the
// README's configuration (pointed at the clone) does through `pre-commit run`.
func TestPreCommitHooks(t *testing.T) {
	preCommit := tool(t, "pre-commit")
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	copySource(t, src)
	rev := gitRepo(t, src)
	env := []string{
		"PRE_COMMIT_HOME=" + filepath.Join(tmp, "pre-commit"),
		// pre-commit builds with GOPATH in its own store; keep the module and build
		// caches so that nothing is downloaded twice.
		"GOMODCACHE=" + goEnv(t, "GOMODCACHE"), "GOCACHE=" + goEnv(t, "GOCACHE"),
	}
	sample := func(name string) string {
		dir := filepath.Join(tmp, name)
		copyDir(t, filepath.Join(repoRoot, "testdata", "ci", "sample", name), dir)
		gitRepo(t, dir)
		return dir
	}
	hazard, clean := sample("hazard"), sample("clean")

	r := run(t, hazard, env, preCommit, "try-repo", src, "pvlint", "--all-files")
	if r.code != 1 || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") || !regexp.MustCompile(`pvlint\.+Failed`).MatchString(r.output) ||
		strings.Contains(r.output, "standard input") {
		t.Errorf("golang hook on the hazard: exit %d\n%s", r.code, r.output)
	}
	r = run(t, clean, env, preCommit, "try-repo", src, "pvlint", "--all-files")
	if r.code != 0 || !regexp.MustCompile(`pvlint\.+Passed`).MatchString(r.output) {
		t.Errorf("golang hook on the clean sample: exit %d\n%s", r.code, r.output)
	}

	// The system hook: pvlint from PATH, as the README's configuration uses it (with the
	// clone standing in for the repository URL).
	bin := filepath.Join(tmp, "bin")
	mustRun(t, repoRoot, nil, "go", "build", "-o", filepath.Join(bin, "pvlint"), "./cmd/pvlint")
	sysEnv := append(env, "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	r = run(t, hazard, sysEnv, preCommit, "try-repo", src, "pvlint-system", "--all-files")
	if r.code != 1 || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") {
		t.Errorf("system hook on the hazard: exit %d\n%s", r.code, r.output)
	}
	cfg := readmeBlock(t, "pre-commit")
	if !strings.Contains(cfg, "id: pvlint-system") {
		t.Fatalf("the README's configuration does not use the pvlint-system hook:\n%s", cfg)
	}
	cfg = strings.Replace(cfg, "https://github.com/pvlint/pvlint", src, 1)
	cfg = regexp.MustCompile(`rev: \S+`).ReplaceAllString(cfg, "rev: "+rev)
	for _, dir := range []string{hazard, clean} {
		writeFile(t, filepath.Join(dir, ".pre-commit-config.yaml"), cfg)
	}
	if r := run(t, hazard, sysEnv, preCommit, "run", "--all-files"); r.code != 1 || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") {
		t.Errorf("README configuration on the hazard: exit %d\n%s", r.code, r.output)
	}
	if r := run(t, clean, sysEnv, preCommit, "run", "--all-files"); r.code != 0 {
		t.Errorf("README configuration on the clean sample: exit %d\n%s", r.code, r.output)
	}
}
