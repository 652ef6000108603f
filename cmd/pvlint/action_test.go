package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/pvlint/pvlint/cmd/internal/cli"
)

// setupGoRef is the setup-go release action.yml pins; act is pointed at a stand-in.
const setupGoRef = "actions/setup-go@4dc6199c7b1a012772edbd06daecab0f50c9053c"

// cacheRef is the actions/cache release action.yml pins; act is pointed at a stand-in
// except in TestActionBuildCacheUnderAct.
const cacheRef = "actions/cache@27d5ce7f107fe9357f9df03efb73ab90386fccae"

// standIns are act's arguments that point the actions action.yml names at the
// stand-ins of src, which fail if they run.
func standIns(src string, refs ...string) []string {
	dirs := map[string]string{setupGoRef: "setup-go-standin", cacheRef: "cache-standin"}
	var args []string
	for _, ref := range refs {
		args = append(args, "--local-repository", ref+"="+filepath.Join(src, "testdata", "ci", "github", dirs[ref]))
	}
	return args
}

// TestActionMetadata validates action.yml against the action schema, checks that no
// input is spliced into a script (every one goes through env:), and runs shellcheck
// on the scripts.
func TestActionMetadata(t *testing.T) {
	validator := tool(t, "action-validator")
	mustRun(t, repoRoot, nil, validator, "action.yml")

	data, err := os.ReadFile(filepath.Join(repoRoot, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var action struct {
		Runs struct {
			Using string
			Steps []struct {
				Name, Run, Uses string
			}
		}
	}
	if err := yaml.Unmarshal(data, &action); err != nil {
		t.Fatal(err)
	}
	if action.Runs.Using != "composite" {
		t.Fatalf("runs.using = %q", action.Runs.Using)
	}
	shellcheck := tool(t, "shellcheck")
	scripts := 0
	for _, s := range action.Runs.Steps {
		if _, ref, _ := strings.Cut(s.Uses, "@"); s.Uses != "" && !sha.MatchString(ref) {
			t.Errorf("step %q: uses %q is not pinned by commit SHA", s.Name, s.Uses)
		}
		if s.Run == "" {
			continue
		}
		scripts++
		if strings.Contains(s.Run, "${{") {
			t.Errorf("step %q splices an expression into its script; pass it through env:", s.Name)
		}
		cmdEnv := []string{"SCRIPT=" + s.Run, "SHELLCHECK=" + shellcheck}
		if r := run(t, repoRoot, cmdEnv, "sh", "-c", `printf '%s' "$SCRIPT" | "$SHELLCHECK" -s bash -`); r.code != 0 {
			t.Errorf("shellcheck of step %q:\n%s", s.Name, r.output)
		}
	}
	if scripts < 2 {
		t.Errorf("only %d run steps found", scripts)
	}
}

var sha = regexp.MustCompile(`^[0-9a-f]{40}$`)

// TestActionWorkflows runs actionlint (with shellcheck) on the test workflows and on the
// README's workflow.
func TestActionWorkflows(t *testing.T) {
	actionlint := tool(t, "actionlint")
	shellcheck := tool(t, "shellcheck")
	dir := t.TempDir()
	copySource(t, dir)
	writeFile(t, filepath.Join(dir, ".github", "workflows", "readme.yml"), readmeBlock(t, "github-workflow"))
	writeFile(t, filepath.Join(dir, ".github", "workflows", "action-test.yml"), mustReadFile(t, filepath.Join(dir, "testdata", "ci", "github", "workflow.yml")))
	writeFile(t, filepath.Join(dir, ".github", "workflows", "action-cache-test.yml"), mustReadFile(t, filepath.Join(dir, "testdata", "ci", "github", "cache-workflow.yml")))
	gitRepo(t, dir)
	if r := run(t, dir, nil, actionlint, "-shellcheck", shellcheck, "-color=false"); r.code != 0 {
		t.Errorf("actionlint:\n%s", r.output)
	}
}

// TestActionUnderAct runs testdata/ci/github/workflow.yml with act in host mode: the
// action, used at a ref that is not a release (a local path, as a branch or commit
// would be), builds pvlint from the copied source, fails on the hazard sample with a
// SARIF report, the count and a job summary with the storage graph of its findings,
// and passes on the clean sample with a JUnit report written where asked.
func TestActionUnderAct(t *testing.T) {
	act := tool(t, "act")
	tmp := t.TempDir()
	src, out := filepath.Join(tmp, "src"), filepath.Join(tmp, "out")
	copySource(t, src)
	gitRepo(t, src)
	if err := os.Mkdir(out, 0o755); err != nil {
		t.Fatal(err)
	}
	env := []string{
		// act keeps its work directories under the cache directory; Go keeps its own.
		"XDG_CACHE_HOME=" + filepath.Join(tmp, "cache"),
		"GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE"),
	}
	args := append([]string{"push",
		"-W", filepath.Join(src, "testdata", "ci", "github", "workflow.yml"),
		"-P", "ubuntu-latest=-self-hosted", "--action-offline-mode",
		"--env", "PVLINT_SRC=" + src, "--env", "PVLINT_OUT=" + out},
		standIns(src, setupGoRef, cacheRef)...)
	r := run(t, src, env, act, args...)
	if r.code != 0 || !strings.Contains(r.output, "Job succeeded") {
		t.Fatalf("act: exit %d\n%s", r.code, r.output)
	}

	// What pvlint itself reports on the samples is what the action must show.
	hazardMD, hazardCount := lintSample(t, "hazard")
	cleanMD, _ := lintSample(t, "clean")
	for _, want := range []string{"Summary - " + strings.TrimSuffix(hazardMD, "\n"), "Summary - " + strings.TrimSuffix(cleanMD, "\n")} {
		if !strings.Contains(r.output, want) {
			t.Errorf("act output lacks the job summary %q:\n%s", want, r.output)
		}
	}
	// The hazard's summary goes on with the picture of the graph's parts with findings,
	// as pvlint graph --findings-only draws it; the clean sample's has none.
	picture := findingsGraph(t, "hazard")
	if !strings.Contains(picture, "PVL002") {
		t.Fatalf("the hazard sample's picture marks no PVL002:\n%s", picture)
	}
	wantGraph := "Summary - " + hazardMD + "\n#### Storage graph of the findings\n\n```mermaid\n" + picture + "```"
	if !strings.Contains(r.output, wantGraph) {
		t.Errorf("act output lacks the job summary with the storage graph %q:\n%s", wantGraph, r.output)
	}
	// The clean sample's summary (act echoes a composite step's summary once for the
	// inner step and once for the step using the action) has no picture.
	for _, part := range strings.Split(r.output, "Summary - "+strings.TrimSuffix(cleanMD, "\n"))[1:] {
		if end := strings.Index(part, "⭐ Run"); end >= 0 {
			part = part[:end]
		}
		if strings.Contains(part, "```mermaid") {
			t.Errorf("the clean sample's summary has a Mermaid picture:\n%s", part)
		}
	}
	if clean := findingsGraph(t, "clean"); clean != "" {
		t.Errorf("the clean sample's findings-only picture is not empty:\n%s", clean)
	}
	// A run past the 5,000 results code scanning stores says so in its summary.
	m := regexp.MustCompile(`pvlint reported (\d+) results; GitHub code scanning stores only 5000 of a run\. The SARIF report lists errors first: the (\d+) least severe results will not appear in code scanning\. The JSON report has every finding\.`).FindStringSubmatch(r.output)
	if m == nil {
		t.Errorf("act output lacks the warning about code scanning's 5000 results:\n%s", lastLines(r.output, 40))
	} else if total, _ := strconv.Atoi(m[1]); total <= 5000 || m[2] != strconv.Itoa(total-5000) {
		t.Errorf("warning about code scanning's limit: %q", m[0])
	}
	outputs := mustReadFile(t, filepath.Join(out, "outputs.txt"))
	wantOutputs := "hazard findings=" + strconv.Itoa(hazardCount) + " outcome=failure\nclean findings=0 outcome=success\n"
	if outputs != wantOutputs {
		t.Errorf("outputs:\n%s\nwant:\n%s", outputs, wantOutputs)
	}
	var sarif struct {
		Runs []struct {
			Results []struct {
				RuleID              string            `json:"ruleId"`
				PartialFingerprints map[string]string `json:"partialFingerprints"`
			}
			Invocations []struct{ ExecutionSuccessful bool }
		}
	}
	if err := json.Unmarshal([]byte(mustReadFile(t, filepath.Join(out, "hazard.sarif"))), &sarif); err != nil {
		t.Fatal(err)
	}
	if len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != hazardCount || !sarif.Runs[0].Invocations[0].ExecutionSuccessful {
		t.Errorf("hazard SARIF: %+v", sarif)
	}
	var junit struct {
		Tests    int `xml:"tests,attr"`
		Failures int `xml:"failures,attr"`
	}
	if err := xml.Unmarshal([]byte(mustReadFile(t, filepath.Join(out, "clean.xml"))), &junit); err != nil || junit.Tests == 0 || junit.Failures != 0 {
		t.Errorf("clean JUnit report: %v, %+v", err, junit)
	}
}

// lintSample runs pvlint in-process on a sample repository and returns its Markdown
// report and the number of findings.
func lintSample(t *testing.T, name string) (markdown string, findings int) {
	t.Helper()
	t.Chdir(repoRoot)
	var md, js, errb bytes.Buffer
	path := "testdata/ci/sample/" + name
	if code := cli.Main([]string{"-f", "markdown", path}, strings.NewReader(""), &md, &errb); code == cli.ExitError {
		t.Fatalf("pvlint %s: %s", path, errb.String())
	}
	if code := cli.Main([]string{"-f", "json", path}, strings.NewReader(""), &js, &errb); code == cli.ExitError {
		t.Fatalf("pvlint %s: %s", path, errb.String())
	}
	var doc struct{ Summary struct{ Total int } }
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	return md.String(), doc.Summary.Total
}

// findingsGraph is `pvlint graph --findings-only` of a sample repository, run
// in-process: what the action's job summary must show.
func findingsGraph(t *testing.T, name string) string {
	t.Helper()
	t.Chdir(repoRoot)
	var out, errb bytes.Buffer
	path := "testdata/ci/sample/" + name
	if code := cli.Main([]string{"graph", "--findings-only", path}, strings.NewReader(""), &out, &errb); code != cli.ExitOK {
		t.Fatalf("pvlint graph %s: exit %d: %s", path, code, errb.String())
	}
	return out.String()
}

func goEnv(t *testing.T, name string) string {
	t.Helper()
	return strings.TrimSpace(mustRun(t, repoRoot, nil, "go", "env", name))
}

func mustReadFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestActionReleaseUnderAct runs testdata/ci/github/release-workflow.yml with act: the
// action at a release tag (v0.1.0) and at a major tag (v0, resolved through the API)
// downloads the GoReleaser snapshot's linux/amd64 archive from a loopback server,
// checks it against checksums.txt and runs it, with no Go set up and nothing built.
// Getting pvlint must take seconds where building it took minutes.
func TestActionReleaseUnderAct(t *testing.T) {
	act := tool(t, "act")
	rel := snapshot(t)
	srv := serveRelease(t, rel)
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	copySource(t, src)
	gitRepo(t, src)
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(tmp, "cache")}
	args := append([]string{"push",
		"-W", filepath.Join(src, "testdata", "ci", "github", "release-workflow.yml"),
		"-P", "ubuntu-latest=-self-hosted", "--action-offline-mode",
		"--local-repository", "pvlint/pvlint@" + releaseTag + "=" + src,
		"--local-repository", "pvlint/pvlint@v0=" + src,
		"--env", "PVLINT_SRC=" + src, "--env", "PVLINT_WANT_VERSION=" + rel.version,
		"--env", "PVLINT_RELEASE_URL=" + srv.URL + "/pvlint/pvlint/releases/download",
		"--env", "PVLINT_API_URL=" + srv.URL},
		// act resolves every action a composite action names, the skipped ones too.
		standIns(src, setupGoRef, cacheRef)...)
	r := run(t, src, env, act, args...)
	if r.code != 0 || !strings.Contains(r.output, "Job succeeded") {
		t.Fatalf("act: exit %d\n%s", r.code, r.output)
	}
	archive := "/pvlint/pvlint/releases/download/" + releaseTag + "/pvlint_linux_amd64.tar.gz"
	if n := srv.count(archive); n != 2 {
		t.Errorf("the archive was downloaded %d times, want 2 (once per ref)", n)
	}
	if n := srv.count("/repos/pvlint/pvlint/git/matching-refs/tags/v0."); n != 1 {
		t.Errorf("the major tag was resolved %d times, want 1", n)
	}
	for _, step := range []string{"Set up Go", "Restore pvlint's build cache", "Build pvlint"} {
		if strings.Contains(r.output, "Main "+step) {
			t.Errorf("the release refs ran the step %q:\n%s", step, r.output)
		}
	}
	// act reports each step's time: "✅  Success - Main Download pvlint [1.23s]".
	durations := regexp.MustCompile(`Success - Main Download pvlint \[([0-9.]+)(ms|s)\]`).FindAllStringSubmatch(r.output, -1)
	if len(durations) != 2 {
		t.Fatalf("want two timed Download pvlint steps in act's output:\n%s", r.output)
	}
	for _, d := range durations {
		secs, _ := strconv.ParseFloat(d[1], 64)
		if d[2] == "ms" {
			secs /= 1000
		}
		if secs >= 15 {
			t.Errorf("getting pvlint took %.1fs, want under 15s", secs)
		}
		t.Logf("Download pvlint: %s%s", d[1], d[2])
	}
}

// TestActionBuildCacheUnderAct runs testdata/ci/github/cache-workflow.yml twice under
// act, with act's cache server and actions/cache itself: the action, building pvlint
// from source, finds no cache in the first run, builds with empty Go caches and saves
// them under a key of the action's go.sum; the second run restores them and builds
// with the module proxy off (GOPROXY=off), which only the restored module cache allows,
// and faster. (setup-go's own cache never worked here: it hashes its
// cache-dependency-path with @actions/glob, which skips files outside the workspace,
// and the action's go.sum is outside it.) actions/cache comes from PVLINT_ACTIONS_CACHE,
// a copy of actions/cache at the commit action.yml pins.
//
// The test needs that local copy: without it act would clone actions/cache from
// github.com, which CI machines without internet cannot reach, so it is skipped
// unless PVLINT_ACTIONS_CACHE is set (it also takes some ten minutes: two builds).
func TestActionBuildCacheUnderAct(t *testing.T) {
	act := tool(t, "act")
	if os.Getenv("PVLINT_ACTIONS_CACHE") == "" {
		t.Skip("needs PVLINT_ACTIONS_CACHE, a local copy of actions/cache at the commit action.yml pins (act cannot fetch it offline)")
	}
	tmp := t.TempDir()
	src := filepath.Join(tmp, "src")
	copySource(t, src)
	gitRepo(t, src)
	args := append([]string{"push",
		"-W", filepath.Join(src, "testdata", "ci", "github", "cache-workflow.yml"),
		"-P", "ubuntu-latest=-self-hosted", "--action-offline-mode",
		"--cache-server-path", filepath.Join(tmp, "cache-server"),
		"--env", "PVLINT_SRC=" + src},
		standIns(src, setupGoRef)...)
	args = append(args, "--local-repository", cacheRef+"="+os.Getenv("PVLINT_ACTIONS_CACHE"))
	sum := sha256.Sum256([]byte(mustReadFile(t, filepath.Join(repoRoot, "go.sum"))))
	key := regexp.MustCompile(`pvlint-go-Linux-X64-go[0-9.]+-` + hex.EncodeToString(sum[:])[:32])
	// The first run's modules come from the host's module cache, served as a proxy:
	// the build's own module cache starts empty.
	env := []string{"XDG_CACHE_HOME=" + filepath.Join(tmp, "cache"),
		"GOPROXY=file://" + filepath.ToSlash(filepath.Join(goEnv(t, "GOMODCACHE"), "cache", "download"))}
	first := run(t, src, env, act, args...)
	if first.code != 0 || !strings.Contains(first.output, "Job succeeded") {
		t.Fatalf("act, first run: exit %d\n%s", first.code, first.output)
	}
	saved := regexp.MustCompile(`Cache saved with key: (\S+)`).FindStringSubmatch(first.output)
	if !strings.Contains(first.output, "Cache not found for input keys: ") || saved == nil || !key.MatchString(saved[1]) {
		t.Fatalf("the first run did not miss, then save the build cache under %s:\n%s", key, lastLines(first.output, 60))
	}
	// A fresh runner: the caches are on disk only if actions/cache restores them.
	if err := os.RemoveAll(filepath.Join(tmp, "cache", "pvlint-action")); err != nil {
		t.Fatal(err)
	}
	env[1] = "GOPROXY=off"
	second := run(t, src, env, act, args...)
	if second.code != 0 || !strings.Contains(second.output, "Job succeeded") {
		t.Fatalf("act, second run (GOPROXY=off): exit %d\n%s", second.code, lastLines(second.output, 60))
	}
	// act's cache server answers with the key in lower case; GitHub's keeps it.
	if !strings.Contains(strings.ToLower(second.output), "cache restored from key: "+strings.ToLower(saved[1])) {
		t.Errorf("the second run did not restore the build cache %s:\n%s", saved[1], lastLines(second.output, 60))
	}
	build := func(out string) float64 {
		m := regexp.MustCompile(`Success - Main Build pvlint \[([0-9.]+)(ms|s|m[0-9.]+s)\]`).FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no timed Build pvlint step in act's output:\n%s", lastLines(out, 40))
		}
		d, err := time.ParseDuration(m[1] + m[2])
		if err != nil {
			t.Fatal(err)
		}
		return d.Seconds()
	}
	cold, warm := build(first.output), build(second.output)
	t.Logf("Build pvlint: %.1fs with empty caches, %.1fs with the restored ones", cold, warm)
	if warm >= cold/2 {
		t.Errorf("the build with the restored caches took %.1fs, the one without %.1fs: want at most half", warm, cold)
	}
}

// lastLines is the end of a long output, for a failure message.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
