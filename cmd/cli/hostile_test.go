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
	"runtime"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/cmd/output"
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
	{"chart/Chart.yaml", 5, `dependency "remote" is not in charts/ (pvlint never downloads charts`},
	{"deep.yaml", 1, "nests deeper than 1000 levels"},
	{"escape.yaml", 1, "symlink points outside the linted directory"},
	{"huge.yaml", 1, "file is 104857600 bytes, larger than the 33554432-byte limit"},
	{"invalid-utf8.yaml", 6, "not valid UTF-8"},
	{"kustomize/kustomization.yaml", 5, `remote resources entry "github.com/evil/repo//base?ref=main" is not fetched`},
	{"kustomize/kustomization.yaml", 6, `remote resources entry "https://example.com/evil.yaml" is not fetched`},
	{"kustomize/kustomization.yaml", 7, `resources entry "../../canary.txt" is outside the linted directory`},
	{"loop-a.yaml", 1, "symlink loop"},
	{"loop-b.yaml", 1, "symlink loop"},
	{"tabs.yaml", 5, "invalid YAML"},
	{"terraform/loop/main.tf", 3, "already being evaluated: a cycle"},
	{"terraform/main.tf", 30, `"/etc/passwd" is outside the linted directory`},
	{"terraform/main.tf", 31, `"../../canary.txt" is outside the linted directory`},
	{"terraform/main.tf", 34, `"/etc/hostname" is outside the linted directory`},
	{"terraform/main.tf", 41, "count is 100000000, more than the limit of 1000"},
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
		if d.IsDir() && rel == "eval" {
			return filepath.SkipDir // evaluation bombs: hostile_eval_test.go runs them in workers
		}
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
	bin := filepath.Join(t.TempDir(), "pvlint")
	build := exec.Command(goTool(), "build", "-o", bin, "./cmd/pvlint")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
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

// goTool is the go command of the toolchain running the tests.
func goTool() string {
	if p := filepath.Join(runtime.GOROOT(), "bin", "go"); fileExists(p) {
		return p
	}
	return "go"
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
