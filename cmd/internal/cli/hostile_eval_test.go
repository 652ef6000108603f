package cli

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/worker"
)

// evalHostileDir holds untrusted code that runs out of memory, time or stack when
// evaluated (testdata/bombs): each must cost only its own input.
const evalHostileDir = "testdata/bombs"

// evalWant is the PVL000 each evaluation bomb must become, at its file: the message
// contains one of the texts (a runaway may hit the memory or the time budget first,
// depending on the machine).
var evalWant = []struct {
	file  string
	line  int
	texts []string
}{
	{"helm-archive/charts/b.tgz", 1, []string{"subchart archive inflates past the chart size limit"}},
	{"helm-grow/Chart.yaml", 1, []string{"rendering chart helm-grow exceeded the memory limit of 512 MiB (--limit eval-memory)", "rendering took longer than 5s"}},
	{"helm-repeat/Chart.yaml", 1, []string{"rendering chart helm-repeat exceeded the memory limit of 512 MiB (--limit eval-memory)"}},
	// Runaway tpl recursion ends on whichever limit it meets first: the stack cap, the
	// memory limit (a stack that cannot grow is a SIGSEGV), or the time limit.
	{"helm-tpl/Chart.yaml", 1, []string{"rendering chart helm-tpl exceeded the memory limit of 512 MiB", "rendering took longer than 5s", "rendering chart helm-tpl exceeded the time limit", "rendering chart helm-tpl nested too deeply", "rendering chart helm-tpl stopped: the evaluation's process died"}},
	// until and untilStep build their list more slowly than repeat builds its string:
	// on a loaded machine they reach the 5s render timer before the memory limit.
	// Either limit makes them one PVL000 at their chart, which is the promise; the
	// memory limit itself is held by helm-repeat here and by parsers/worker's tests.
	{"helm-until/Chart.yaml", 1, []string{"rendering chart helm-until exceeded the memory limit of 512 MiB", "rendering took longer than 5s"}},
	{"helm-untilstep/Chart.yaml", 1, []string{"rendering chart helm-untilstep exceeded the memory limit of 512 MiB", "rendering took longer than 5s"}},
	// Terraform values are bounded as they are built: the bomb's expression is
	// unknown, a PVL000 at it (the first local past 32 MiB, s23; the innermost for
	// element), and its module's other resources are read.
	{"tf-doubling/main.tf", 26, []string{"this expression builds more than 33554432 bytes of strings, past pvlint's bounds on Terraform evaluation"}},
	{"tf-for/main.tf", 3, []string{"this expression takes more than 262144 steps, past pvlint's bounds on Terraform evaluation"}},
	{"tf-parens/main.tf", 2, []string{"expressions nest deeper than 256 levels"}},
	{"tf-setproduct/main.tf", 4, []string{"setproduct would build 1000000000 combinations, more than the limit of 1000000"}},
}

// evalLimits keep the bombs quick: smaller budgets than the defaults, which the test
// of the defaults' fit (a 4 GiB address space) does not need.
var evalLimits = []string{"--limit", "eval-memory=512MiB", "--limit", "eval-time=20s", "--limit", "helm-render-time=5s"}

// evalHostileRoot copies the evaluation bombs into a fresh root and adds the two git
// should not hold: a Terraform file nested a million parentheses deep (2 MB), and a
// chart whose two subchart archives, 100 KB each, inflate to 96 MiB each.
func evalHostileRoot(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "root")
	src := filepath.Join(repoRoot, evalHostileDir)
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
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(err)
	const deep = 1_000_000
	must(os.MkdirAll(filepath.Join(root, "tf-parens"), 0o755))
	must(os.WriteFile(filepath.Join(root, "tf-parens", "main.tf"),
		[]byte("locals {\n  deep = "+strings.Repeat("(", deep)+"1"+strings.Repeat(")", deep)+"\n}\n"), 0o644))
	chart := filepath.Join(root, "helm-archive")
	must(os.MkdirAll(filepath.Join(chart, "charts"), 0o755))
	must(os.WriteFile(filepath.Join(chart, "Chart.yaml"), []byte("apiVersion: v2\nname: helm-archive\nversion: 0.1.0\n"), 0o644))
	for _, name := range []string{"a", "b"} {
		must(os.WriteFile(filepath.Join(chart, "charts", name+".tgz"), inflatingArchive(t, name), 0o644))
	}
	// An ordinary chart among the bombs, rendered in a worker call with one of them
	// (charts go to workers in batches, in the walk's order): its findings must be
	// reported as if it were alone.
	ok := filepath.Join(root, "helm-ok")
	must(os.MkdirAll(filepath.Join(ok, "templates"), 0o755))
	must(os.WriteFile(filepath.Join(ok, "Chart.yaml"), []byte("apiVersion: v2\nname: helm-ok\nversion: 0.1.0\n"), 0o644))
	sibling, err := os.ReadFile(filepath.Join(src, "sibling.yaml"))
	must(err)
	must(os.WriteFile(filepath.Join(ok, "templates", "app.yaml"), sibling, 0o644))
	return root
}

// inflatingArchive is a subchart archive of 24 files of 4 MiB of zeros (each under
// Helm's own 5 MiB file limit, 96 MiB in all, under its 100 MiB archive limit).
func inflatingArchive(t *testing.T, name string) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	add := func(path string, data []byte) {
		if err := tw.WriteHeader(&tar.Header{Name: name + "/" + path, Mode: 0o644, Size: int64(len(data)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		if _, err := tw.Write(data); err != nil {
			t.Fatal(err)
		}
	}
	add("Chart.yaml", []byte("apiVersion: v2\nname: "+name+"\nversion: 0.1.0\n"))
	zeros := make([]byte, 4<<20)
	for i := range 24 {
		add(fmt.Sprintf("files/zero-%02d.txt", i), zeros)
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type evalFinding struct {
	RuleID   string `json:"ruleId"`
	Message  string `json:"message"`
	Location struct {
		File      string `json:"file"`
		StartLine int    `json:"startLine"`
	} `json:"location"`
}

// checkEvalHostile asserts every bomb's PVL000 and the sibling's findings.
func checkEvalHostile(t *testing.T, report []byte) {
	t.Helper()
	var rep struct {
		Findings []evalFinding `json:"findings"`
	}
	if err := json.Unmarshal(report, &rep); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, report)
	}
	for _, w := range evalWant {
		found := false
		var seen []string
		for _, f := range rep.Findings {
			if f.RuleID != "PVL000" || f.Location.File != w.file {
				continue
			}
			seen = append(seen, fmt.Sprintf("%d: %s", f.Location.StartLine, f.Message))
			for _, text := range w.texts {
				found = found || f.Location.StartLine == w.line && strings.Contains(f.Message, text)
			}
		}
		if !found {
			t.Errorf("no PVL000 at %s:%d containing one of %q; its findings: %q", w.file, w.line, w.texts, seen)
		}
	}
	for _, file := range []string{"sibling.yaml", "helm-ok/templates/app.yaml"} {
		sibling := map[string]bool{}
		for _, f := range rep.Findings {
			if f.Location.File == file {
				sibling[f.RuleID] = true
			}
		}
		if !sibling["PVL002"] || !sibling["PVL003"] {
			t.Errorf("the findings of %s, a sibling of the bombs, are missing: %v", file, sibling)
		}
	}
}

// TestHostileEvalBinary lints the evaluation bombs and a sibling manifest with the
// built binary under a 4 GiB address-space limit (prlimit --as), as an attacker's pull
// request would be linted: every bomb is a PVL000 at its input, the sibling's findings
// are in the SARIF report, the exit code is 1 and nothing crashes.
func TestHostileEvalBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("runs evaluation bombs to their budgets")
	}
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		missingTool(t, "prlimit (util-linux)")
	}
	bin := buildPvlint(t, false)
	root := evalHostileRoot(t)
	sarif := filepath.Join(t.TempDir(), "report.sarif")
	args := append([]string{"--as=4294967296", bin, "--format", "json", "--format", "sarif=" + sarif}, evalLimits...)
	cmd := exec.Command(prlimit, append(args, ".")...)
	cmd.Dir = root
	// Two processors, as on a hosted runner: the seven charts go to workers in
	// batches of two, so that helm-ok shares a call with helm-repeat.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "GOMAXPROCS=2"}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("exit: %v, want exit code 1; stderr:\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	checkEvalHostile(t, stdout.Bytes())
	data, err := os.ReadFile(sarif)
	if err != nil {
		t.Fatal(err)
	}
	var log struct {
		Runs []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &log); err != nil || len(log.Runs) != 1 {
		t.Fatalf("SARIF report: %v", err)
	}
	inSarif := map[string]bool{}
	for _, r := range log.Runs[0].Results {
		for _, l := range r.Locations {
			inSarif[r.RuleID+" "+l.PhysicalLocation.ArtifactLocation.URI] = true
		}
	}
	for _, want := range []string{"PVL002 sibling.yaml", "PVL003 sibling.yaml", "PVL000 helm-repeat/Chart.yaml", "PVL000 tf-setproduct/main.tf"} {
		if !inSarif[want] {
			t.Errorf("SARIF report has no %s result", want)
		}
	}
}

// TestHostilePolicyMemory lints the sibling manifest with a custom policy that grows
// a string past any budget, with the built binary under a 4 GiB address-space limit:
// the policy's worker runs out of its memory and the policy is one PVL000 at its file
// (as one out of time is), the sibling's findings are still reported, and the run
// exits 1. The time budget is raised so that only the memory budget can stop the
// policy: on a loaded machine the default 5 s ran out first.
func TestHostilePolicyMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a policy to its memory budget")
	}
	hostileMemory(t, filepath.Join(repoRoot, evalHostileDir), []string{"--policy-timeout", "5m", "--policy", "policy", "sibling.yaml"}, "policy/grow.rego",
		"policy user.hostile.grow (policy/grow.rego) exceeded its memory budget of 512 MiB on Deployment/default/web")
}

// TestHostileGatekeeperMemory is TestHostilePolicyMemory for a Gatekeeper template:
// its constraint stops at the same budget, one PVL000 at the template.
func TestHostileGatekeeperMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a Gatekeeper template to its memory budget")
	}
	hostileMemory(t, filepath.Join(repoRoot, evalHostileDir), []string{"--policy-timeout", "5m", "--gatekeeper", "--policy", "gatekeeper", "sibling.yaml"}, "gatekeeper/grow.yaml",
		"policy HostileGrow/grow (gatekeeper/grow.yaml) exceeded its memory budget of 512 MiB on Deployment/default/web")
}

// TestHostilePolicyBuiltins lints a root whose committed .pvlint.yaml names a policy
// that asks one OPA builtin for gigabytes (testdata/rego-bombs: a four-billion-bit
// shift, json.marshal of an array that doubles 35 times, a template of three nested
// ranges), the built binary under a 4 GiB address-space limit. A builtin does not
// look at the policy's budgets while it runs: in pvlint's own process each of them
// killed or hung the run. In a worker, each is one PVL000 at the policy, whichever
// budget of its worker ends it (memory, CPU time), and the sibling's findings are
// reported.
func TestHostilePolicyBuiltins(t *testing.T) {
	if testing.Short() {
		t.Skip("runs policies to their budgets")
	}
	sibling, err := os.ReadFile(filepath.Join(repoRoot, evalHostileDir, "sibling.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, bomb := range []string{"lsh", "marshal", "render"} {
		t.Run(bomb, func(t *testing.T) {
			root := t.TempDir()
			for _, f := range []string{".pvlint.yaml", "policy.rego"} {
				b, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "rego-bombs", bomb, f))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(root, f), b, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if err := os.WriteFile(filepath.Join(root, "sibling.yaml"), sibling, 0o644); err != nil {
				t.Fatal(err)
			}
			hostileMemory(t, root, []string{"."}, "policy.rego",
				"policy user.hostile."+bomb+" (policy.rego) exceeded its memory budget of 512 MiB on ",
				"policy user.hostile."+bomb+" (policy.rego) exceeded its time budget of ")
		})
	}
}

// hostileMemory runs the built binary under a 4 GiB address-space limit in dir with
// args, and checks that the run exits 1 within two minutes with the sibling's
// findings and a PVL000 at file whose message holds one of wants.
func hostileMemory(t *testing.T, dir string, args []string, file string, wants ...string) {
	prlimit, err := exec.LookPath("prlimit")
	if err != nil {
		missingTool(t, "prlimit (util-linux)")
	}
	bin := buildPvlint(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, prlimit, append([]string{"--as=4294967296", bin, "--format", "json"}, args...)...)
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err = cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("still running after two minutes; stderr:\n%s", stderr.String())
	}
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitFindings {
		t.Fatalf("exit: %v, want exit code %d; stderr:\n%s", err, ExitFindings, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("stderr = %q, want nothing (the budget is a finding)", stderr.String())
	}
	var rep struct {
		Findings []evalFinding `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, stdout.String())
	}
	got := map[string]bool{}
	budget := false
	for _, f := range rep.Findings {
		got[f.RuleID+" "+f.Location.File] = true
		for _, want := range wants {
			budget = budget || f.RuleID == "PVL000" && f.Location.File == file && strings.Contains(f.Message, want)
		}
	}
	if !got["PVL002 sibling.yaml"] || !got["PVL003 sibling.yaml"] {
		t.Errorf("the sibling's findings are missing: %v", got)
	}
	if !budget {
		t.Errorf("no PVL000 at %s saying one of %q: %v", file, wants, rep.Findings)
	}
}

// TestIsolationStartsNothingForYAML checks that a run of plain manifests starts no
// worker: isolation costs nothing where there is nothing to evaluate.
func TestIsolationStartsNothingForYAML(t *testing.T) {
	before := worker.Started()
	code, out := runIsolated(t, true, "--format", "json", filepath.Join(repoRoot, evalHostileDir, "sibling.yaml"))
	if code != ExitFindings {
		t.Fatalf("exit %d:\n%s", code, out)
	}
	if n := worker.Started() - before; n != 0 {
		t.Errorf("%d worker processes started for a plain manifest", n)
	}
}

// TestIsolatedSameFindings lints the project's charts and Terraform fixtures in
// worker processes and in-process: the reports must be identical, so the process
// boundary carries everything (positions, origins, related locations, sources).
func TestIsolatedSameFindings(t *testing.T) {
	args := []string{"--format", "json", "--fail-on", "never", "testdata/rules", "testdata/terraform", "testdata/helm", "testdata/unknowns", "testdata/suppress"}
	before := worker.Started()
	_, isolated := runIsolated(t, true, args...)
	if worker.Started() == before {
		t.Fatal("no worker started: the comparison would be in-process twice")
	}
	_, inProcess := runIsolated(t, false, args...)
	if diff := cmp.Diff(inProcess, isolated); diff != "" {
		t.Errorf("isolated report differs (-in-process +isolated):\n%s", diff)
	}
}

// TestIsolatedPoliciesSameFindings runs custom policies (Rego v0 and v1, one reading
// data.inventory, one reading data.pvlint) and Gatekeeper templates (with a cluster
// snapshot in data.inventory) in worker processes and in-process: the reports must be
// identical, so the process boundary carries documents, inputs and results unchanged.
func TestIsolatedPoliciesSameFindings(t *testing.T) {
	for _, args := range [][]string{
		{"--policy", "testdata/policies/labels", "--policy", "testdata/policies/backup", "--policy", "testdata/policies/conftest-v0",
			"--policy", "testdata/policies/configdata",
			"testdata/policies/inputs/stateful", "testdata/policies/inputs/config", "testdata/policies/inputs/yaml", "testdata/policies/inputs/terraform"},
		{"--policy", "testdata/policies/conftest-v1", "--policy", "testdata/policies/claim-size",
			"testdata/policies/inputs/deployment.yaml", "testdata/policies/inputs/stateful"},
		{"--gatekeeper", "--policy", "testdata/gatekeeper/policies", "--context", "testdata/gatekeeper/context", "testdata/gatekeeper/inputs"},
	} {
		args = append([]string{"--format", "json", "--fail-on", "never"}, args...)
		before := worker.Started()
		_, isolated := runIsolated(t, true, args...)
		if worker.Started() == before {
			t.Fatalf("%v: no worker started: the comparison would be in-process twice", args)
		}
		_, inProcess := runIsolated(t, false, args...)
		if diff := cmp.Diff(inProcess, isolated); diff != "" {
			t.Errorf("%v: isolated report differs (-in-process +isolated):\n%s", args, diff)
		}
		if !strings.Contains(isolated, `"ruleId"`) {
			t.Errorf("%v: no findings: the comparison proves nothing", args)
		}
	}
}

// TestGraphPoliciesIsolated: pvlint graph runs the rules too, and a custom policy
// there is evaluated in a worker as in a lint run.
func TestGraphPoliciesIsolated(t *testing.T) {
	before := worker.Started()
	code, out := runIsolated(t, true, "graph", "--policy", "testdata/policies/backup", "testdata/policies/inputs/stateful")
	if code != ExitOK || !strings.Contains(out, "ACME002") {
		t.Errorf("exit %d, want 0 and the policy's findings drawn:\n%s", code, out)
	}
	if worker.Started() == before {
		t.Error("no worker started: the policy ran in pvlint's own process")
	}
}

// runIsolated runs the CLI in the repository root, with worker isolation on or off.
func runIsolated(t *testing.T, isolate bool, args ...string) (int, string) {
	t.Helper()
	t.Chdir(repoRoot)
	var out, errb bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" },
		IsTerminal: func(io.Writer) bool { return false }, Isolate: isolate}
	code := e.Run(args)
	if errb.Len() > 0 {
		t.Errorf("stderr: %s", errb.String())
	}
	return code, out.String()
}
