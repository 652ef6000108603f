package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	modv "golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// module is pvlint's module path, which the component installs with `go install`.
const module = "github.com/pvlint/pvlint"

// TestGitLabComponent runs the README's include of templates/pvlint.yml with
// gitlab-ci-local (shell executor, isolated build directory) on a copy of this
// project: the job downloads the release binary — a GoReleaser snapshot of this
// source, served as a GitHub release on a loopback address (the download-url input) —
// checks it against checksums.txt, fails on the hazard sample, and publishes a Code
// Quality report in GitLab's format, a JUnit report and the SARIF file.
func TestGitLabComponent(t *testing.T) {
	gcl := tool(t, "gitlab-ci-local")
	tool(t, "rsync") // --shell-isolation copies the project with it
	rel := snapshot(t)
	srv := serveRelease(t, rel)
	src := filepath.Join(t.TempDir(), "src")
	copySource(t, src)
	writeFile(t, filepath.Join(src, ".gitlab-ci.yml"), gitlabInclude(t, src, releaseTag, "  download-url: "+srv.URL+"/pvlint/pvlint/releases"))

	r := run(t, src, nil, gcl, "--shell-isolation", "--force-shell-executor", "--no-color")
	if r.code == 0 || !strings.Contains(r.output, "pvlint "+rel.version) || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") {
		t.Fatalf("gitlab-ci-local: exit %d (want a failed job that ran pvlint %s)\n%s", r.code, rel.version, r.output)
	}
	if n := srv.count("/pvlint/pvlint/releases/download/" + releaseTag + "/pvlint_linux_amd64.tar.gz"); n != 1 {
		t.Errorf("the archive was downloaded %d times, want once", n)
	}
	checkReports(t, src)
}

// TestGitLabComponentFromSource runs the component with a version that is not a release
// (a pseudo-version, as a branch or commit resolves to): the job builds pvlint with
// `go install module@version` — served from a module proxy directory the test writes
// from this source, so the real install line runs without the network.
func TestGitLabComponentFromSource(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pvlint inside the job; skipped with -short")
	}
	gcl := tool(t, "gitlab-ci-local")
	tool(t, "rsync")
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	copySource(t, src)
	version := "v0.0.0-ci." + time.Now().UTC().Format("20060102150405")
	proxy := moduleProxy(t, src, version, filepath.Join(tmp, "proxy"))
	modcache := goEnv(t, "GOMODCACHE")
	t.Cleanup(func() { forgetModule(t, modcache, version) })
	// A merge request commits a recording stub where the component once cached its
	// build: it must never run (TestGitLabComponentRunsNothingFromTheCheckout checks
	// the same without a runner).
	mark := filepath.Join(tmp, "committed-stub-ran")
	writeFile(t, filepath.Join(src, ".pvlint-bin", "pvlint"), "#!/bin/sh\necho \"$0 $*\" >> "+mark+"\necho pvlint "+version+"\n")
	if err := os.Chmod(filepath.Join(src, ".pvlint-bin", "pvlint"), 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(src, ".gitlab-ci.yml"), gitlabInclude(t, src, version, ""))

	// The module proxy is a directory, which cannot answer the checksum database: the
	// job's go command skips it (GOSUMDB=off) and verifies nothing it downloads from
	// the test's own proxy, which serves this source and the module cache's copies.
	vars := []string{
		"--variable", "GOPROXY=file://" + proxy + ",file://" + filepath.Join(modcache, "cache", "download"),
		"--variable", "GOSUMDB=off", "--variable", "GOFLAGS=-modcacherw",
		"--variable", "GOMODCACHE=" + modcache, "--variable", "GOCACHE=" + goEnv(t, "GOCACHE"),
	}
	r := run(t, src, nil, gcl, append([]string{"--shell-isolation", "--force-shell-executor", "--no-color"}, vars...)...)
	if r.code == 0 || !strings.Contains(r.output, "pvlint "+version) || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") {
		t.Fatalf("gitlab-ci-local: exit %d (want a failed job that built and ran pvlint %s)\n%s", r.code, version, r.output)
	}
	checkReports(t, src)
	if data, err := os.ReadFile(mark); err == nil {
		t.Errorf("the committed .pvlint-bin/pvlint ran:\n%s", data)
	}
}

// gitlabInclude is the README's include, pointed at this project's commit (GitLab
// resolves a component of the project's own path at the pipeline's commit from the
// working tree, which is how a component project tests itself), at version and at
// the hazard sample, with extra input lines.
func gitlabInclude(t *testing.T, src, version, extra string) string {
	t.Helper()
	sha := gitRepo(t, src)
	mustRun(t, src, nil, "git", "remote", "add", "origin", "https://gitlab.com/pvlint/pvlint.git")
	include := readmeBlock(t, "gitlab")
	include = strings.Replace(include, "$CI_SERVER_FQDN/pvlint/pvlint/pvlint@"+releaseTag, "$CI_SERVER_FQDN/pvlint/pvlint/pvlint@"+sha, 1)
	include = strings.Replace(include, "version: "+releaseTag, "version: "+version, 1)
	include = strings.Replace(include, "paths: k8s/", "paths: testdata/ci/sample/hazard", 1)
	if strings.Count(include, sha)+strings.Count(include, "version: "+version)+strings.Count(include, "testdata/ci/sample/hazard") != 3 {
		t.Fatalf("README include changed shape:\n%s", include)
	}
	if extra != "" {
		include = strings.TrimRight(include, "\n") + "\n    " + extra + "\n"
	}
	return include
}

// checkReports checks the job's three artifacts.
func checkReports(t *testing.T, src string) {
	t.Helper()
	_, count := lintSample(t, "hazard")
	checkCodeQuality(t, src, filepath.Join(src, "gl-code-quality-report.json"), count)
	for _, f := range []string{"pvlint-junit.xml", "pvlint.sarif"} {
		if info, err := os.Stat(filepath.Join(src, f)); err != nil || info.Size() == 0 {
			t.Errorf("artifact %s: %v", f, err)
		}
	}
}

// checkCodeQuality decodes a Code Quality report and checks every field GitLab
// requires: a description, a check name, a fingerprint unique in the report, one of
// GitLab's five severities, and a location whose path is a file of the project,
// relative to it, with a begin line.
func checkCodeQuality(t *testing.T, project, report string, want int) {
	t.Helper()
	var issues []map[string]any
	if err := json.Unmarshal([]byte(mustReadFile(t, report)), &issues); err != nil {
		t.Fatalf("%s: %v", report, err)
	}
	if len(issues) != want {
		t.Errorf("%d issues, want %d", len(issues), want)
	}
	severities := map[string]bool{"info": true, "minor": true, "major": true, "critical": true, "blocker": true}
	seen := map[string]bool{}
	for i, is := range issues {
		str := func(v any) string { s, _ := v.(string); return s }
		loc, _ := is["location"].(map[string]any)
		lines, _ := loc["lines"].(map[string]any)
		begin, _ := lines["begin"].(float64)
		path := str(loc["path"])
		fp := str(is["fingerprint"])
		switch {
		case str(is["description"]) == "", str(is["check_name"]) == "", fp == "", seen[fp]:
			t.Errorf("issue %d: description, check_name or a unique fingerprint missing: %v", i, is)
		case !severities[str(is["severity"])]:
			t.Errorf("issue %d: severity %q", i, is["severity"])
		case path == "" || filepath.IsAbs(path) || strings.HasPrefix(path, "./") || begin < 1 || begin != float64(int(begin)):
			t.Errorf("issue %d: location %v", i, loc)
		}
		if _, err := os.Stat(filepath.Join(project, path)); err != nil {
			t.Errorf("issue %d: path %q is not a file of the project: %v", i, path, err)
		}
		seen[fp] = true
	}
}

// moduleProxy writes a GOPROXY directory serving this source as module@version, and
// returns it.
func moduleProxy(t *testing.T, src, version, dir string) string {
	t.Helper()
	at := filepath.Join(dir, filepath.FromSlash(module), "@v")
	if err := os.MkdirAll(at, 0o755); err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(at, "list"), version+"\n")
	writeFile(t, filepath.Join(at, version+".info"), `{"Version":"`+version+`","Time":"`+time.Now().UTC().Format(time.RFC3339)+`"}`)
	writeFile(t, filepath.Join(at, version+".mod"), mustReadFile(t, filepath.Join(src, "go.mod")))
	f, err := os.Create(filepath.Join(at, version+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	// The zip a module proxy serves, by the go command's own rules (modzip): nested
	// modules (.ci/reviewdog) and VCS directories are left out.
	err = modzip.CreateFromDir(f, modv.Version{Path: module, Version: version}, src)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// forgetModule removes the test's module version from the module cache, where `go
// install` put it (read-only, as Go leaves module files).
func forgetModule(t *testing.T, modcache, version string) {
	t.Helper()
	paths, _ := filepath.Glob(filepath.Join(modcache, "cache", "download", filepath.FromSlash(module), "@v", version+".*"))
	paths = append(paths, filepath.Join(modcache, filepath.FromSlash(module)+"@"+version))
	for _, p := range paths {
		_ = filepath.WalkDir(p, func(q string, d os.DirEntry, err error) error {
			if err == nil && d.IsDir() {
				_ = os.Chmod(q, 0o755)
			}
			return nil
		})
		if err := os.RemoveAll(p); err != nil {
			t.Errorf("forget %s: %v", p, err)
		}
	}
	// The cached version list: drop the test's version, and the file and its empty
	// directories when nothing else is left.
	at := filepath.Join(modcache, "cache", "download", filepath.FromSlash(module), "@v")
	data, err := os.ReadFile(filepath.Join(at, "list"))
	if err != nil {
		return
	}
	var keep []string
	for v := range strings.FieldsSeq(string(data)) {
		if v != version {
			keep = append(keep, v)
		}
	}
	if len(keep) > 0 {
		writeFile(t, filepath.Join(at, "list"), strings.Join(keep, "\n")+"\n")
		return
	}
	_ = os.Remove(filepath.Join(at, "list"))
	for _, d := range []string{at, filepath.Dir(at), filepath.Dir(filepath.Dir(at)), filepath.Join(modcache, "github.com", "pvlint")} {
		_ = os.Remove(d) // only if empty
	}
}
