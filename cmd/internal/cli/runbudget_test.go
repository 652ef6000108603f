package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"
)

// loopPolicy is a custom policy that never finishes on any resource: only a budget
// stops it.
const loopPolicy = `package acme.loop

import rego.v1

deny contains "unreachable" if {
	some i in numbers.range(1, 100000)
	some j in numbers.range(1, 100000)
	i == j + 100000
}
`

// TestRunBudget is issue 27's "no limit on the whole run": six Helm charts are six
// worlds, and a policy that spins to its 2 s --policy-timeout in each would hold the
// run 12 s and more (24 worlds × 5 s with the defaults). Under --limit run-time=3s
// the run stops linting at 3 s: at most two worlds can reach the policy at all (each
// costs it 2 s), every world after is one PVL000 saying the run's budget was spent,
// what ran is reported (the plain manifest's PVL000-free findings), and the exit code
// is ExitIncomplete. The assertion is on what was left unlinted, not on a duration.
func TestRunBudget(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"policy/loop.rego": loopPolicy,
		"plain.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: plain\n",
	}
	const charts = 6
	for i := range charts {
		files[fmt.Sprintf("charts/c%d/Chart.yaml", i)] = fmt.Sprintf("apiVersion: v2\nname: c%d\nversion: 0.1.0\n", i)
		files[fmt.Sprintf("charts/c%d/templates/cm.yaml", i)] = fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\n", i)
	}
	writeFiles(t, dir, files)
	code, stdout, stderr := habitRun{}.run(t, dir, "--format", "json", "--policy", "policy", "--policy-timeout", "2s",
		"--limit", "run-time=3s", ".")
	if code != ExitIncomplete {
		t.Fatalf("exit code %d, want %d (incomplete); stderr:\n%s", code, ExitIncomplete, stderr)
	}
	if !strings.Contains(stderr, "time budget of 3s (--limit run-time) was spent") || !strings.Contains(stderr, "the report is incomplete") {
		t.Errorf("stderr does not say the run is incomplete:\n%s", stderr)
	}
	var rep struct {
		Findings []evalFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &rep); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, stdout)
	}
	unlinted, timedOut := 0, 0
	for _, f := range rep.Findings {
		switch {
		case f.RuleID != "PVL000":
		case strings.Contains(f.Message, "the rules did not run on the variant"):
			unlinted++
			if !strings.HasPrefix(f.Location.File, "charts/c") {
				t.Errorf("unlinted world reported at %s, want its chart's template", f.Location.File)
			}
		case strings.Contains(f.Message, "time budget"):
			timedOut++
		}
	}
	if unlinted < charts-2 {
		t.Errorf("%d worlds reported unlinted, want at least %d (the run's 3 s allow at most two 2 s policy runs): %+v", unlinted, charts-2, rep.Findings)
	}
	if unlinted+timedOut < charts {
		t.Errorf("%d unlinted and %d stopped policy runs for %d worlds: every world must be accounted for: %+v", unlinted, timedOut, charts, rep.Findings)
	}
}

// TestGraphRunBudget is issue 27's run budget for pvlint graph, which had none: the
// same six charts and spinning policy as TestRunBudget would hold the graph command
// 12 s and more. Under --limit run-time=3s it stops linting at 3 s, says on standard
// error that the graph is incomplete, exits with ExitIncomplete, and still draws
// every world's graph (each chart's Pod and claim), linted or not.
func TestGraphRunBudget(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"policy/loop.rego": loopPolicy}
	const charts = 6
	for i := range charts {
		files[fmt.Sprintf("charts/c%d/Chart.yaml", i)] = fmt.Sprintf("apiVersion: v2\nname: c%d\nversion: 0.1.0\n", i)
		files[fmt.Sprintf("charts/c%d/templates/pvc.yaml", i)] = fmt.Sprintf("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data%d\nspec:\n  accessModes: [ReadWriteOnce]\n", i)
		files[fmt.Sprintf("charts/c%d/templates/pod.yaml", i)] = fmt.Sprintf("apiVersion: v1\nkind: Pod\nmetadata:\n  name: app%d\nspec:\n  volumes:\n  - name: d\n    persistentVolumeClaim: {claimName: data%d}\n", i, i)
	}
	writeFiles(t, dir, files)
	code, stdout, stderr := habitRun{}.run(t, dir, "graph", "--policy", "policy", "--policy-timeout", "2s", "--limit", "run-time=3s", ".")
	if code != ExitIncomplete {
		t.Fatalf("exit code %d, want %d (incomplete); stderr:\n%s", code, ExitIncomplete, stderr)
	}
	if !strings.Contains(stderr, "time budget of 3s (--limit run-time) was spent") || !strings.Contains(stderr, "the graph is incomplete") {
		t.Errorf("stderr does not say the graph is incomplete:\n%s", stderr)
	}
	for i := range charts {
		if !strings.Contains(stdout, fmt.Sprintf("data%d", i)) {
			t.Errorf("the graph does not draw chart c%d's claim data%d:\n%s", i, i, stdout)
		}
	}
}

// TestRunBackstop: work the budget cannot cut where it runs (here a parse held
// past the budget, as an in-process kustomize build could be) is stopped by the
// backstop a grace after the budget, exit code ExitIncomplete, with a line saying
// why. Main's Exit is os.Exit; here it records the code and lets the run end.
func TestRunBackstop(t *testing.T) {
	defer func(g func(time.Duration) time.Duration) { backstopGrace = g }(backstopGrace)
	backstopGrace = func(time.Duration) time.Duration { return 100 * time.Millisecond }
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"a.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"})
	t.Chdir(dir)
	exited, stopped := make(chan int, 1), make(chan struct{})
	var stdout, stderr bytes.Buffer
	e := &Env{Stdin: strings.NewReader(""), Stdout: &stdout, Stderr: &stderr, Getenv: func(string) string { return "" },
		IsTerminal: func(io.Writer) bool { return false },
		Exit: func(code int) {
			exited <- code
			close(stopped)
		},
		BeforeParse: func(int64) func() {
			select {
			case <-stopped:
			case <-time.After(time.Minute):
			}
			return nil
		}}
	e.Run([]string{"--limit", "run-time=1s", "."})
	select {
	case code := <-exited:
		if code != ExitIncomplete {
			t.Errorf("Exit(%d), want %d", code, ExitIncomplete)
		}
	default:
		t.Fatal("the backstop did not stop a run held past its budget")
	}
	if !strings.Contains(stderr.String(), "did not stop within 100ms after it: stopped without a report") {
		t.Errorf("stderr %q does not say why the run stopped", stderr.String())
	}
}
