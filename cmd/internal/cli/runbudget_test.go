package cli

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
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
