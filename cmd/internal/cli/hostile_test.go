package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/cmd/internal/output"
)

// hostileDir holds the hostile inputs git can keep (testdata/hostile/README.md).
const hostileDir = "testdata/hostile"

// canaryText is written next to the linted root; no report may ever contain it.
const canaryText = "CANARY-0d5c6e1b-never-in-a-report"

// hostileWant is what each hostile input must produce: a PVL000 finding at the file
// (and line, when not 0) whose message contains the text.
var hostileWant = []struct {
	file string
	line int
	text string
}{
	{"alias-bomb.yaml", 1, "more than 1000000 nodes (YAML alias expansion limit)"},
	{"binary.yaml", 1, "not valid UTF-8"},
	{"chart-files/.helmignore", 1, "symlink points outside the linted directory"},
	{"chart-files/charts/sub", 1, "symlink points outside the linted directory"},
	{"chart-files/files/link.txt", 1, "symlink points outside the linted directory"},
	{"chart-files/values.yaml", 1, "symlink points outside the linted directory"},
	{"chart/Chart.yaml", 5, `dependency "remote" is not in charts/ (pvlint never downloads charts`},
	{"deep.yaml", 1, "nests deeper than 1000 levels"},
	{"gitops.yaml", 10, `Kustomization flux-system/escape: path "../../../../../../etc" leads outside the repository; not read`},
	{"gitops.yaml", 23, `HelmRelease flux-system/escape: chart path "/../../../../../../tmp" leads outside the repository; not rendered`},
	{"gitops.yaml", 37, `components entry "../../../../../../../etc" is outside the linted directory; this kustomization is not built`},
	{"escape.yaml", 1, "symlink points outside the linted directory"},
	{"huge.yaml", 1, "file is 104857600 bytes, larger than the 33554432-byte limit"},
	{"invalid-utf8.yaml", 6, "not valid UTF-8"},
	{"kustomize/kustomization.yaml", 5, `remote resources entry "github.com/evil/repo//base?ref=main" is not fetched`},
	{"kustomize/kustomization.yaml", 6, `remote resources entry "https://example.com/evil.yaml" is not fetched`},
	{"kustomize/kustomization.yaml", 7, `resources entry "../../canary.txt" is outside the linted directory`},
	{"kustomize/scp/kustomization.yaml", 4, `remote resources entry "deploy@127.0.0.1:org/repo" is not fetched`},
	{"kustomize/scp/kustomization.yaml", 6, `remote generators entry "ci@127.0.0.1:org/gen" is not fetched`},
	{"kustomize/case/kustomization.yaml", 4, `remote resources entry "git@github.com:evil/repo" is not fetched`},
	{"kustomize/download/kustomization.yaml", 1, `pvlint never downloads (https://example.com/patch.yaml)`},
	{"kustomize/helm-generator/kustomization.yaml", 1, "HelmChartInflationGenerator.builtin.[noGrp]/pull.[noNs] fails configuration: must specify --enable-helm"},
	{"kustomize/fifo/kustomization.yaml", 4, `resources entry "pipe.yaml" is not a regular file or directory`},
	{"kustomize/fifo-patch/kustomization.yaml", 5, `patches entry "patch.yaml" is not a regular file or directory`},
	{"kustomize/outside/kustomization.yaml", 4, `resources entry "linked-base" is outside the linted directory`},
	{"kustomize/outside/kustomization.yaml", 8, `configMapGenerator entry "../../../canary.txt" is outside the linted directory`},
	{"kustomize/outside/kustomization.yaml", 10, `configMapGenerator entry "/etc/hostname" is outside the linted directory`},
	{"kustomize/outside/kustomization.yaml", 12, `patches entry "/etc/passwd" is outside the linted directory`},
	{"kustomize/outside/kustomization.yaml", 14, `replacements entry "../../../canary.txt" is outside the linted directory`},
	{"kustomize/outside/kustomization.yaml", 16, `openapi entry "/etc/passwd" is outside the linted directory`},
	{"kustomize/outside/kustomization.yaml", 18, `crds entry "/etc/passwd" is outside the linted directory`},
	{"kustomize/outside/kustomization.yaml", 22, `secretGenerator entry "/etc/shadow" is outside the linted directory`},
	{"loop-a.yaml", 1, "symlink loop"},
	{"loop-b.yaml", 1, "symlink loop"},
	{"tabs.yaml", 5, "invalid YAML"},
	{"terraform/loop/main.tf", 3, "already being evaluated: a cycle"},
	{"terraform/main.tf", 41, "count is 100000000, more than the limit of 1000"},
	// Reads outside the root are declined, and never silently: a note at each
	// file() whose path is known without evaluating.
	{"terraform/main.tf", 30, `"../../../../../etc/passwd" leads outside the linted root: pvlint does not read it`},
	{"terraform/main.tf", 31, `"../../canary.txt" leads outside the linted root: pvlint does not read it`},
	{"terraform/main.tf", 34, `"../../../../../etc/hostname" leads outside the linted root: pvlint does not read it`},
}

// hostileRoot copies the hostile inputs into a fresh root and adds what git cannot
// keep: a 100 MB file (sparse: the limit must refuse it from its size), a symlink
// escaping the root, a symlink loop, and the canary file just outside the root.
func hostileRoot(t *testing.T) string {
	t.Helper()
	base := t.TempDir()
	root := filepath.Join(base, "root")
	src := filepath.Join(repoRoot, hostileDir)
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(root, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(root, rel), data, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(base, "canary.txt"), []byte(canaryText+"\n"), 0o644))
	must(os.Symlink("../canary.txt", filepath.Join(root, "escape.yaml")))
	must(os.Symlink("loop-b.yaml", filepath.Join(root, "loop-a.yaml")))
	must(os.Symlink("loop-a.yaml", filepath.Join(root, "loop-b.yaml")))
	huge, err := os.Create(filepath.Join(root, "huge.yaml"))
	must(err)
	must(huge.Truncate(100 << 20))
	must(huge.Close())
	// Named pipes: opening one for reading blocks until a writer comes, forever.
	must(syscall.Mkfifo(filepath.Join(root, "kustomize", "fifo", "pipe.yaml"), 0o644))
	must(syscall.Mkfifo(filepath.Join(root, "kustomize", "fifo-patch", "patch.yaml"), 0o644))
	// Local directories named like the scp-style remotes the kustomization lists (a
	// Go module may not hold ':' in a file name): their presence must not make
	// pvlint hand the reference to kustomize.
	for _, d := range []string{"deploy@127.0.0.1:org/repo", "ci@127.0.0.1:org/gen"} {
		dir := filepath.Join(root, "kustomize", "scp", d)
		must(os.MkdirAll(dir, 0o755))
		must(os.WriteFile(filepath.Join(dir, "kustomization.yaml"), []byte("resources: []\n"), 0o644))
	}
	// A kustomization outside the root, reached through a symbolic link inside it.
	outside := filepath.Join(base, "outside-base")
	must(os.MkdirAll(outside, 0o755))
	must(os.WriteFile(filepath.Join(outside, "kustomization.yaml"), []byte("# "+canaryText+"\nresources: [cm.yaml]\n"), 0o644))
	must(os.Symlink("../../../outside-base", filepath.Join(root, "kustomize", "outside", "linked-base")))
	// A chart whose values, ignore file, a file its templates read and a subchart
	// are symbolic links to outside the root.
	chart := filepath.Join(root, "chart-files")
	must(os.MkdirAll(filepath.Join(chart, "files"), 0o755))
	must(os.MkdirAll(filepath.Join(chart, "charts"), 0o755))
	must(os.Symlink("../../canary.txt", filepath.Join(chart, "values.yaml")))
	must(os.Symlink("../../canary.txt", filepath.Join(chart, ".helmignore")))
	must(os.Symlink("../../../canary.txt", filepath.Join(chart, "files", "link.txt")))
	must(os.Symlink("../../../outside-base", filepath.Join(chart, "charts", "sub")))
	return root
}

// proxyTrap listens on a local port that every proxy variable points at: a
// connection means some part of pvlint tried to reach the network.
func proxyTrap(t *testing.T) (url string, hits *atomic.Int64) {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hits = &atomic.Int64{}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			hits.Add(1)
			c.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return "http://" + ln.Addr().String(), hits
}

// proxyEnv are the variables Go's HTTP client and git read.
var proxyEnv = []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy"}

// hostileArgs asks for every report format: JSON on standard output, the others in
// files of out.
func hostileArgs(out string) []string {
	args := []string{"--format", "json", "--fail-on", "never"}
	for _, f := range output.Formats() {
		if f.Name != "json" {
			args = append(args, "--format", f.Name+"="+filepath.Join(out, "report."+f.Name))
		}
	}
	return append(args, ".")
}

// TestHostileInProcess lints the hostile root with the CLI in this process.
func TestHostileInProcess(t *testing.T) {
	root := hostileRoot(t)
	url, hits := proxyTrap(t)
	for _, v := range proxyEnv {
		t.Setenv(v, url)
	}
	t.Setenv("NO_PROXY", "")
	out := t.TempDir()
	before := snapshot(t, filepath.Dir(root))
	t.Chdir(root)
	var stdout, stderr bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: os.Getenv,
		IsTerminal: func(io.Writer) bool { return false }}
	code := e.Run(hostileArgs(out))
	if code != ExitOK || stderr.Len() > 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
	}
	checkHostile(t, stdout.Bytes(), out)
	if diff := cmp.Diff(before, snapshot(t, filepath.Dir(root))); diff != "" {
		t.Errorf("the lint changed files around the root (-before +after):\n%s", diff)
	}
	if n := hits.Load(); n > 0 {
		t.Errorf("%d connections to the proxy: pvlint tried to reach the network", n)
	}
}

// checkHostile asserts every expected PVL000, no other finding on a hostile input
// but the rules' on bom-crlf.yaml (which must be read correctly), and that neither
// the canary nor /etc/passwd appears in any report.
func checkHostile(t *testing.T, jsonReport []byte, out string) {
	t.Helper()
	found := make([]bool, len(hostileWant))
	for _, f := range decodeFindings(t, jsonReport) {
		matched := false
		for i, w := range hostileWant {
			if f.RuleID == "PVL000" && f.Location.File == w.file && (w.line == 0 || f.Location.StartLine == w.line) &&
				strings.Contains(f.Message, w.text) {
				found[i], matched = true, true
			}
		}
		if !matched && !(f.Location.File == "bom-crlf.yaml" && f.RuleID != "PVL000") {
			t.Errorf("unexpected finding %s %s:%d: %s", f.RuleID, f.Location.File, f.Location.StartLine, f.Message)
		}
		if f.Location.File == "bom-crlf.yaml" && f.RuleID == "PVL002" && f.Location.StartLine != 17 {
			t.Errorf("PVL002 on bom-crlf.yaml at line %d, want 17 (the replicas)", f.Location.StartLine)
		}
	}
	for i, w := range hostileWant {
		if !found[i] {
			t.Errorf("no PVL000 at %s:%d containing %q", w.file, w.line, w.text)
		}
	}
	reports := map[string][]byte{"json": jsonReport}
	entries, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(out, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		reports[e.Name()] = data
	}
	if len(reports) != len(output.Formats()) {
		t.Errorf("%d reports, want one per format (%d)", len(reports), len(output.Formats()))
	}
	secrets := []string{canaryText}
	if passwd, err := os.ReadFile("/etc/passwd"); err == nil {
		secrets = append(secrets, strings.SplitN(string(passwd), "\n", 2)[0])
	}
	for name, data := range reports {
		for _, s := range secrets {
			if s != "" && bytes.Contains(data, []byte(s)) {
				t.Errorf("report %s contains %q, read from outside the root", name, s)
			}
		}
	}
}

// jsonFinding is the part of a JSON report finding these tests read.
type jsonFinding struct {
	RuleID   string
	Message  string
	Location struct {
		File      string
		StartLine int
	}
}

func decodeFindings(t *testing.T, jsonReport []byte) []jsonFinding {
	t.Helper()
	var rep struct{ Findings []jsonFinding }
	if err := json.Unmarshal(jsonReport, &rep); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, jsonReport)
	}
	return rep.Findings
}

// snapshot lists every path under dir with its size and modification time.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		out[path] = fmt.Sprintf("%v %v %d", info.Mode(), info.ModTime(), info.Size())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// maxHostileRSS bounds the binary's peak memory on the hostile root: the limits
// must stop each input long before it costs this much.
const maxHostileRSS = 512 << 20

// TestHostileBinary builds pvlint and lints the hostile root as a separate process:
// with every proxy pointing at the trap, within bounded memory, and, where user and
// network namespaces are available, once more without any network interface, where
// the report must be the same.
func TestHostileBinary(t *testing.T) {
	bin := buildPvlint(t, false)
	root := hostileRoot(t)
	url, hits := proxyTrap(t)
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "NO_PROXY="}
	for _, v := range proxyEnv {
		env = append(env, v+"="+url)
	}
	run := func(t *testing.T, name string, args ...string) []byte {
		out := t.TempDir()
		cmd := exec.Command(name, append(args, hostileArgs(out)...)...)
		cmd.Dir, cmd.Env = root, env
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Fatalf("%v: %v, stderr:\n%s", cmd.Args, err, stderr.String())
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss*1024 > maxHostileRSS {
			t.Errorf("peak memory %d KiB, more than %d KiB", ru.Maxrss, maxHostileRSS>>10)
		}
		checkHostile(t, stdout.Bytes(), out)
		return stdout.Bytes()
	}
	plain := run(t, bin)
	if n := hits.Load(); n > 0 {
		t.Errorf("%d connections to the proxy: pvlint tried to reach the network", n)
	}
	t.Run("no-network", func(t *testing.T) {
		// -r maps the caller to root inside the namespace, so the files stay readable.
		if err := exec.Command("unshare", "-r", "-n", "true").Run(); err != nil {
			t.Skipf("no user and network namespaces here (unshare -r -n: %v)", err)
		}
		isolated := run(t, "unshare", "-r", "-n", bin)
		if diff := cmp.Diff(string(plain), string(isolated)); diff != "" {
			t.Errorf("report without network differs (-with +without):\n%s", diff)
		}
	})
}

// buildPvlint returns the path of the pvlint command built from this tree; static
// builds it without cgo, as releases are, so that under strace the binary opens no
// dynamic loader or C library. Each variant is built once per test binary (the tests
// that need one share it: a build takes most of a minute on a loaded 2-core machine),
// and not at all under -short, where the tests that need it skip.
func buildPvlint(t *testing.T, static bool) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the pvlint binary; skipped under -short")
	}
	b := &built[0]
	if static {
		b = &built[1]
	}
	b.once.Do(func() {
		builtMu.Lock()
		if builtDir == "" {
			builtDir, b.err = os.MkdirTemp("", "pvlint-test-bin-")
		}
		dir := builtDir
		builtMu.Unlock()
		if b.err != nil {
			return
		}
		name := "pvlint"
		if static {
			name = "pvlint-static"
		}
		// The static build is named pvlint too, in its own directory, for tests that
		// read argv[0].
		sub := filepath.Join(dir, name)
		if b.err = os.MkdirAll(sub, 0o755); b.err != nil {
			return
		}
		b.path = filepath.Join(sub, "pvlint")
		build := exec.Command(goTool(), "build", "-o", b.path, "./cmd/pvlint")
		build.Dir = repoRoot
		if static {
			build.Env = append(os.Environ(), "CGO_ENABLED=0")
		}
		if out, err := build.CombinedOutput(); err != nil {
			b.err = fmt.Errorf("go build: %v\n%s", err, out)
		}
	})
	if b.err != nil {
		t.Fatal(b.err)
	}
	return b.path
}

var (
	// built holds the dynamic ([0]) and static ([1]) builds of buildPvlint.
	built [2]struct {
		once sync.Once
		path string
		err  error
	}
	builtMu  sync.Mutex
	builtDir string // removed by TestMain
)

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if out, err := exec.Command("go", "env", "GOROOT").Output(); err == nil {
		if p := filepath.Join(strings.TrimSpace(string(out)), "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// stubbed are the programs an attacker would like pvlint to start: each is replaced by
// a recording stub on PATH in TestHostileNoExec.
var stubbed = []string{"git", "ssh", "sh", "bash", "helm", "kustomize", "terraform", "kubectl"}

// requireTool returns the path of a program the test needs; a missing one fails the
// test, or skips it under -short (missingTool).
func requireTool(t *testing.T, name string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		missingTool(t, name+" (the no-exec, no-outside-open, no-connect check)")
	}
	return p
}

// TestHostileNoExec builds pvlint and lints the whole hostile suite, then a
// checkout whose .pvlint.yaml names files outside it, as an attacker's pull request
// would be linted: with PATH holding only recording stubs of git, ssh, the shells,
// helm, kustomize, terraform and kubectl, and under strace. No stub may run; the only
// program executed is pvlint itself (by its path, or /proc/self/exe for a worker); no
// file outside the root is opened, except the few the Go runtime reads and the report
// files the command line names; nothing connects anywhere.
func TestHostileNoExec(t *testing.T) {
	strace := requireTool(t, "strace")
	bin := buildPvlint(t, true)
	stubs, marks := t.TempDir(), t.TempDir()
	for _, name := range stubbed {
		script := fmt.Sprintf("#!/bin/sh\necho \"$0 $*\" >> %s/%s\n", marks, name)
		if err := os.WriteFile(filepath.Join(stubs, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	lint := func(t *testing.T, root string, wantCode int, args ...string) (stdout, stderr []byte) {
		t.Helper()
		trace := filepath.Join(t.TempDir(), "trace")
		cmd := exec.Command(strace, append([]string{"-f", "-qq", "-y", "-e", "signal=none",
			"-e", "trace=execve,execveat,open,openat,openat2,creat,connect", "-o", trace, "--", bin}, args...)...)
		cmd.Dir = root
		cmd.Env = []string{"PATH=" + stubs, "HOME=" + t.TempDir()}
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("strace: %v", err)
		}
		if code != wantCode {
			t.Errorf("exit %d, want %d; stderr:\n%s", code, wantCode, errb.String())
		}
		data, err := os.ReadFile(trace)
		if err != nil {
			t.Fatal(err)
		}
		checkTrace(t, string(data), bin, root, args)
		return out.Bytes(), errb.Bytes()
	}

	t.Run("suite", func(t *testing.T) {
		root := hostileRoot(t)
		out := t.TempDir()
		stdout, stderr := lint(t, root, ExitOK, hostileArgs(out)...)
		if len(stderr) > 0 {
			t.Errorf("stderr:\n%s", stderr)
		}
		checkHostile(t, stdout, out)
	})
	t.Run("discovered-config", func(t *testing.T) {
		base := t.TempDir()
		root := filepath.Join(base, "checkout")
		outside := filepath.Join(base, "outside")
		for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(outside, "policies")} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		files := map[string]string{
			filepath.Join(outside, "policies", "p.rego"): "package outside\n# " + canaryText + "\n",
			filepath.Join(outside, "values.yaml"):        "replicas: 3 # " + canaryText + "\n",
			filepath.Join(root, "pvc.yaml"):              "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n",
		}
		for p, text := range files {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		for _, tt := range hostileConfigs(outside) {
			t.Run(tt.name, func(t *testing.T) {
				if err := os.WriteFile(filepath.Join(root, ".pvlint.yaml"), []byte(tt.text), 0o644); err != nil {
					t.Fatal(err)
				}
				if tt.link != "" {
					os.Remove(filepath.Join(root, "link"))
					if err := os.Symlink(tt.link, filepath.Join(root, "link")); err != nil {
						t.Fatal(err)
					}
				}
				stdout, stderr := lint(t, root, ExitError, "--format", "json", ".")
				if !strings.Contains(string(stderr), tt.want) {
					t.Errorf("stderr %q, want it to contain %q", stderr, tt.want)
				}
				if bytes.Contains(append(stdout, stderr...), []byte(canaryText)) {
					t.Errorf("output contains the canary, read from outside the checkout")
				}
			})
		}
	})
	t.Run("gatekeeper-link", func(t *testing.T) {
		// A discovered configuration turns Gatekeeper on; its policies directory
		// holds a template that is a link to outside the checkout, and the linted
		// tree a template that calls http.send: neither is read nor run.
		base := t.TempDir()
		root := filepath.Join(base, "checkout")
		outside := filepath.Join(base, "outside")
		for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, "policies"), outside} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		template := "apiVersion: templates.gatekeeper.sh/v1\nkind: ConstraintTemplate\nmetadata:\n  name: t # " + canaryText + "\n"
		files := map[string]string{
			filepath.Join(outside, "t.yaml"):    template,
			filepath.Join(root, ".pvlint.yaml"): "gatekeeper: true\npolicies: [policies]\n",
			filepath.Join(root, "policies", "own.yaml"): "apiVersion: templates.gatekeeper.sh/v1\nkind: ConstraintTemplate\nmetadata:\n  name: own\n" +
				"spec:\n  crd: {spec: {names: {kind: Own}}}\n  targets:\n    - target: admission.k8s.gatekeeper.sh\n      rego: |\n" +
				"        package own\n        violation[{\"msg\": m}] { r := http.send({\"method\": \"GET\", \"url\": \"http://127.0.0.1:9/\"}); m := \"x\" }\n" +
				"---\napiVersion: constraints.gatekeeper.sh/v1beta1\nkind: Own\nmetadata:\n  name: own\n",
		}
		for p, text := range files {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(filepath.Join(outside, "t.yaml"), filepath.Join(root, "policies", "t.yaml")); err != nil {
			t.Fatal(err)
		}
		stdout, stderr := lint(t, root, ExitError, "--format", "json", ".")
		if want := "policies/t.yaml is a link to outside the checkout; not read"; !strings.Contains(string(stderr), want) {
			t.Errorf("stderr %q, want it to contain %q", stderr, want)
		}
		if bytes.Contains(append(stdout, stderr...), []byte(canaryText)) {
			t.Errorf("output contains the canary, read from outside the checkout")
		}
		if err := os.Remove(filepath.Join(root, "policies", "t.yaml")); err != nil {
			t.Fatal(err)
		}
		stdout, _ = lint(t, root, ExitFindings, "--format", "json", ".")
		if want := "undefined function http.send"; !bytes.Contains(stdout, []byte(want)) {
			t.Errorf("report %s, want a PVL000 saying %q", stdout, want)
		}
	})
	// A committed configuration turns on a policy directory whose Rego would read a
	// canary outside the checkout through a JSON schema's $ref: json.match_schema in
	// a custom policy, json.verify_schema in a Gatekeeper template, and a METADATA
	// schema annotation (which OPA compiles only when type-checking annotations). The
	// builtins are refused at their call, the annotation is never compiled, and under
	// strace the canary is never opened (checkTrace) and nothing connects.
	t.Run("schema-ref", func(t *testing.T) {
		base := t.TempDir()
		root := filepath.Join(base, "checkout")
		outside := filepath.Join(base, "outside")
		for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, "policies"), filepath.Join(root, "gk"), outside} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		canary := filepath.Join(outside, "canary.json")
		ref := `{"$ref": "file://` + canary + `"}`
		files := map[string]string{
			canary:                                        `{"type": "string", "description": "` + canaryText + `"}`,
			filepath.Join(root, "pvc.yaml"):               "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n",
			filepath.Join(root, ".pvlint.yaml"):           "policies: [policies]\n",
			filepath.Join(root, "policies", "match.rego"): "package schemaref\n\ndeny contains sprintf(\"%v\", [r]) if {\n\tr := json.match_schema(input, " + ref + ")\n}\n",
			filepath.Join(root, "gk", "t.yaml"): "apiVersion: templates.gatekeeper.sh/v1\nkind: ConstraintTemplate\nmetadata:\n  name: verify\n" +
				"spec:\n  crd: {spec: {names: {kind: Verify}}}\n  targets:\n    - target: admission.k8s.gatekeeper.sh\n      rego: |\n" +
				"        package verify\n        violation[{\"msg\": m}] { r := json.verify_schema(" + ref + "); m := sprintf(\"%v\", [r]) }\n" +
				"---\napiVersion: constraints.gatekeeper.sh/v1beta1\nkind: Verify\nmetadata:\n  name: verify\n",
		}
		for p, text := range files {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		stdout, stderr := lint(t, root, ExitError, "--format", "json", ".")
		if want := "policies/match.rego:4:7: rego_type_error: undefined function json.match_schema (pvlint denies builtin json.match_schema"; !strings.Contains(string(stderr), want) {
			t.Errorf("stderr %q, want it to contain %q", stderr, want)
		}
		if bytes.Contains(append(stdout, stderr...), []byte(canaryText)) {
			t.Errorf("output contains the canary, read from outside the checkout")
		}
		annotated := "# METADATA\n# schemas:\n#   - input: " + ref + "\npackage schemaref\n\ndeny contains \"typed\" if input.kind == \"Nothing\"\n"
		if err := os.WriteFile(filepath.Join(root, "policies", "match.rego"), []byte(annotated), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr = lint(t, root, ExitOK, "--format", "json", ".")
		if bytes.Contains(append(stdout, stderr...), []byte(canaryText)) {
			t.Errorf("output contains the canary, read from outside the checkout")
		}
		if err := os.WriteFile(filepath.Join(root, ".pvlint.yaml"), []byte("gatekeeper: true\npolicies: [gk]\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		stdout, stderr = lint(t, root, ExitFindings, "--format", "json", ".")
		if want := "undefined function json.verify_schema (pvlint denies builtin json.verify_schema"; !bytes.Contains(stdout, []byte(want)) {
			t.Errorf("report %s, want a PVL000 saying %q", stdout, want)
		}
		if bytes.Contains(append(stdout, stderr...), []byte(canaryText)) {
			t.Errorf("output contains the canary, read from outside the checkout")
		}
	})
	// --new-from-rev in a checkout whose .git file names a repository outside it (one
	// holding a canary, and where the hazardous Deployment is already committed, so
	// that it would decide web's findings are old), and in one whose history holds a
	// pack delta naming itself as its base: both are refused as one PVL000, every
	// finding is new, nothing outside the checkout is opened and the run does not die.
	t.Run("new-from-rev", func(t *testing.T) {
		base := t.TempDir()
		outside := filepath.Join(base, "outside")
		repo, err := git.PlainInit(outside, false)
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, outside, map[string]string{"k8s/base.yaml": sharedClaim, "k8s/web.yaml": hazardousDeployment, "canary.yaml": "# " + canaryText + "\n"})
		commitAll(t, repo, "web, already")
		root := filepath.Join(base, "checkout")
		writeFiles(t, root, map[string]string{
			"k8s/base.yaml": sharedClaim, "k8s/web.yaml": hazardousDeployment,
			".git": "gitdir: " + filepath.Join(outside, ".git") + "\n",
		})
		check := func(stdout, stderr []byte, want string) {
			t.Helper()
			if !bytes.Contains(stdout, []byte(want)) || !bytes.Contains(stdout, []byte("every finding is reported as new")) || !bytes.Contains(stdout, []byte("Deployment web")) {
				t.Errorf("report %s (stderr %s), want a PVL000 saying %q and web's findings", stdout, stderr, want)
			}
			if bytes.Contains(append(stdout, stderr...), []byte(canaryText)) {
				t.Errorf("output contains the canary, read from outside the checkout")
			}
		}
		stdout, stderr := lint(t, root, ExitFindings, "--format", "json", "--new-from-rev", "HEAD", "k8s")
		check(stdout, stderr, "is outside the checkout")

		root = filepath.Join(base, "selfdelta")
		own, err := git.PlainInit(root, false)
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, root, map[string]string{"k8s/base.yaml": sharedClaim})
		commitAll(t, own, "base")
		writeFiles(t, root, map[string]string{"k8s/web.yaml": hazardousDeployment})
		loop := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
		writePack(t, filepath.Join(root, ".git"), []packObject{{hash: loop, refBase: loop}})
		writeFiles(t, root, map[string]string{".git/refs/heads/loop": loop.String() + "\n"})
		stdout, stderr = lint(t, root, ExitFindings, "--format", "json", "--new-from-rev", "loop", "k8s")
		check(stdout, stderr, "loops back to itself")
	})
	// A snapshot directory inside the checkout, named by its configuration, holding a
	// symbolic link out of it: the link is a finding, its target never opened.
	t.Run("context-symlink", func(t *testing.T) {
		base := t.TempDir()
		root := filepath.Join(base, "checkout")
		outside := filepath.Join(base, "outside")
		for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(root, "snap"), outside} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		files := map[string]string{
			filepath.Join(outside, "claims.yaml"): "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: canary # " + canaryText + "\n",
			filepath.Join(root, ".pvlint.yaml"):   "context: snap\n",
			filepath.Join(root, "pvc.yaml"):       "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n",
		}
		for p, text := range files {
			if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if err := os.Symlink(filepath.Join(outside, "claims.yaml"), filepath.Join(root, "snap", "claims.yaml")); err != nil {
			t.Fatal(err)
		}
		stdout, stderr := lint(t, root, ExitFindings, "--format", "json", ".")
		if !strings.Contains(string(stdout), "symlink points outside the context path snap") {
			t.Errorf("no finding for the symlink out of the snapshot: %s %s", stdout, stderr)
		}
		if bytes.Contains(append(stdout, stderr...), []byte(canaryText)) {
			t.Errorf("output contains the canary, read from outside the checkout")
		}
	})
	entries, err := os.ReadDir(marks)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, _ := os.ReadFile(filepath.Join(marks, e.Name()))
		t.Errorf("the %s stub ran: %s", e.Name(), data)
	}
}

// hostileConfig is a .pvlint.yaml a pull request could add; want is the start of
// the configuration error it must cause.
type hostileConfig struct{ name, text, link, want string }

// hostileConfigs are configuration files naming files outside their checkout in each
// key that names files, directly or through a symbolic link in the checkout.
func hostileConfigs(outside string) []hostileConfig {
	return []hostileConfig{
		{"policies", "policies: [" + outside + "/policies]\n", "",
			`.pvlint.yaml:1:12: policies entry "` + outside + `/policies" is outside the checkout`},
		{"values", "helm:\n  values: [../outside/values.yaml]\n", "",
			`.pvlint.yaml:2:12: values entry "../outside/values.yaml" is outside the checkout`},
		{"chart-values", "helm:\n  charts:\n    chart:\n      values: [/etc/passwd]\n", "",
			`.pvlint.yaml:4:16: values entry "/etc/passwd" is outside the checkout`},
		{"var-files", "terraform:\n  varFiles: [/etc/hostname]\n", "",
			`.pvlint.yaml:2:14: varFiles entry "/etc/hostname" is outside the checkout`},
		{"paths", "paths: [/etc]\n", "", `.pvlint.yaml:1:9: paths entry "/etc" is outside the checkout`},
		{"link", "policies: [link/policies]\n", outside,
			`.pvlint.yaml:1:12: policies entry "link/policies" is outside the checkout`},
		{"context", "context: [../outside/values.yaml]\n", "",
			`.pvlint.yaml:1:11: context entry "../outside/values.yaml" is outside the checkout`},
		{"context-link", "context: link\n", outside, `.pvlint.yaml:1:10: context entry "link" is outside the checkout`},
	}
}

// traceCall matches a system call line of `strace -f -y` output: the pid, the call
// and the first quoted argument after the call's opening parenthesis (for openat,
// the path; -y prints a descriptor argument as 3</its/path>).
var traceCall = regexp.MustCompile(`^\d+\s+(execve|execveat|open|openat|openat2|creat|connect)\((.*)$`)

// runtimeReads are the files outside the root the Go runtime and standard library
// read on their own: the huge-page settings and the cgroup CPU limit that sets
// GOMAXPROCS (runtime; the cgroup is found through /proc/self/cgroup and
// /proc/self/mountinfo), the time zone (time), the overcommit setting pvlint's heap
// limit reads, and the process's own /proc entries. A directory ends in "/".
var runtimeReads = []string{"/sys/kernel/mm/transparent_hugepage/", "/sys/fs/cgroup/", "/proc/self/",
	"/proc/thread-self/", "/proc/sys/vm/overcommit_memory", "/etc/localtime"}

// checkTrace fails the test for every execve of anything but bin (or /proc/self/exe),
// every connect, and every open of a path outside root that is neither bin, one of
// runtimeReads, nor a file the command line names.
func checkTrace(t *testing.T, trace, bin, root string, args []string) {
	t.Helper()
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		t.Fatal(err)
	}
	named := []string{}
	for _, a := range args {
		if _, f, ok := strings.Cut(a, "="); ok && filepath.IsAbs(f) {
			named = append(named, f)
		}
	}
	inside := func(p, dir string) bool {
		rel, err := filepath.Rel(dir, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	}
	allowed := func(p string) bool {
		if !filepath.IsAbs(p) || inside(p, root) || inside(p, realRoot) || p == bin {
			return true
		}
		if slices.Contains(named, p) {
			return true
		}
		for _, r := range runtimeReads {
			if p == r || strings.HasSuffix(r, "/") && strings.HasPrefix(p, r) {
				return true
			}
		}
		return false
	}
	calls := 0
	for line := range strings.SplitSeq(trace, "\n") {
		m := traceCall.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		calls++
		call, rest := m[1], m[2]
		switch call {
		case "connect":
			t.Errorf("pvlint connected: %s", line)
			continue
		case "execve", "execveat":
			if p := firstString(rest); p != bin && p != "/proc/self/exe" {
				t.Errorf("pvlint started another program: %s", line)
			}
			continue
		}
		p := firstString(rest)
		// A path relative to a descriptor: -y shows the descriptor's directory.
		if !filepath.IsAbs(p) && strings.HasPrefix(rest, strings.SplitN(rest, ",", 2)[0]) {
			if dir := descriptorPath(rest); dir != "" {
				p = filepath.Join(dir, p)
			}
		}
		if !allowed(p) {
			t.Errorf("pvlint opened a file outside the root: %s", line)
		}
	}
	if calls == 0 {
		t.Fatalf("the trace shows no system call at all; strace did not trace:\n%s", trace)
	}
}

// firstString returns the first double-quoted argument of a strace line.
func firstString(s string) string {
	_, after, ok := strings.Cut(s, `"`)
	if !ok {
		return ""
	}
	v, err := strconv.Unquote(`"` + after[:strings.Index(after+`"`, `"`)] + `"`)
	if err != nil {
		return after[:strings.Index(after+`"`, `"`)]
	}
	return v
}

// descriptorPath returns the path strace -y printed for the first argument when it
// is a descriptor (3</some/dir>), or "".
func descriptorPath(s string) string {
	first, _, _ := strings.Cut(s, ",")
	if i := strings.Index(first, "<"); i >= 0 && strings.HasSuffix(first, ">") {
		return first[i+1 : len(first)-1]
	}
	return ""
}

// TestHostileConfigInProcess runs the CLI in a checkout whose discovered .pvlint.yaml
// names files outside it: each is a configuration error at its entry, nothing is
// linted, and the canary outside never shows. Given with --config, the same file is
// trusted: the outside policy is compiled.
func TestHostileConfigInProcess(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "checkout")
	outside := filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(root, ".git"), filepath.Join(outside, "policies")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	policy := "# METADATA\n# title: An outside policy\n# custom:\n#   id: OUT001\n#   name: outside-policy\n" +
		"package outside\n\nimport rego.v1\n\n# " + canaryText + "\ndeny contains \"outside\" if false\n"
	if err := os.WriteFile(filepath.Join(outside, "policies", "p.rego"), []byte(policy), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Chdir(root)
	run := func(args ...string) (int, string) {
		var stdout, stderr bytes.Buffer
		e := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
			IsTerminal: func(io.Writer) bool { return false }}
		code := e.Run(args)
		out := stdout.String() + stderr.String()
		if strings.Contains(out, canaryText) {
			t.Errorf("output contains the canary, read from outside the checkout:\n%s", out)
		}
		return code, out
	}
	for _, tt := range hostileConfigs(outside) {
		t.Run(tt.name, func(t *testing.T) {
			if err := os.WriteFile(filepath.Join(root, ".pvlint.yaml"), []byte(tt.text), 0o644); err != nil {
				t.Fatal(err)
			}
			os.Remove(filepath.Join(root, "link"))
			if tt.link != "" {
				if err := os.Symlink(tt.link, filepath.Join(root, "link")); err != nil {
					t.Fatal(err)
				}
			}
			if code, out := run("--format", "json", "."); code != ExitError || !strings.Contains(out, tt.want) {
				t.Errorf("exit %d, output %q; want exit %d and %q", code, out, ExitError, tt.want)
			}
		})
	}
	t.Run("trusted with --config", func(t *testing.T) {
		text := "policies: [" + filepath.Join(outside, "policies") + "]\n"
		if err := os.WriteFile(filepath.Join(root, ".pvlint.yaml"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if code, out := run("rules", "--config", ".pvlint.yaml"); code != ExitOK || !strings.Contains(out, "OUT001") {
			t.Errorf("exit %d, output:\n%s\nwant the outside policy's rule listed", code, out)
		}
	})
}
