package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// exploreCases are golden runs of --explore-values, kept in testdata/cli/explore/.
// The time budget is wall-clock: a minute keeps a loaded machine from ending
// exploration before the renders budget does, which the goldens record.
var exploreCases = []cliCase{
	// Every fixture chart: what each one's switches reach, and the summary.
	{name: "text", args: []string{"--explore-values", "--limit", "explore-time=1m", "testdata/explore"}},
	// The defaults alone: nothing.
	{name: "off", args: []string{"testdata/explore"}},
	{name: "json", args: []string{"--explore-values", "--limit", "explore-time=1m", "-f", "json", "testdata/explore/replicas"}},
	{name: "sarif", args: []string{"--explore-values", "--limit", "explore-time=1m", "-f", "sarif", "testdata/explore/strategy"}},
	// A renders budget of 2: the pair is never rendered, so nothing is reachable.
	{name: "limit", args: []string{"--explore-values", "--limit", "explore-renders=2", "--limit", "explore-time=1m", "testdata/explore/replicas", "testdata/explore/budget"}},
	// explore: in the configuration, with levels per rule.
	{name: "config", args: []string{"--config", "testdata/cli/explore/levels.pvlint.yaml", "--limit", "explore-time=1m", "testdata/explore"}},
	// --set with the line a finding gives reproduces it without exploring.
	{name: "reproduce", args: []string{"--set", "replicaCount=2,persistence.enabled=true", "testdata/explore/replicas"}},
	{name: "bad-limit", args: []string{"--explore-values", "--limit", "explore-time=0s", "testdata/explore"}},
}

func TestExploreGolden(t *testing.T) {
	t.Chdir(repoRoot)
	for _, tc := range exploreCases {
		t.Run(tc.name, func(t *testing.T) {
			code, stdout, stderr := runCase(tc)
			stdout = withoutCatalogue(t, stdout)
			got := formatGolden(tc, code, stdout, stderr)
			path := filepath.Join("testdata", "cli", "explore", tc.name+".golden")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (go test ./cmd/internal/cli -run TestExploreGolden -update): %v", err)
			}
			if d := cmp.Diff(string(want), got); d != "" {
				t.Errorf("golden %s differs (-want +got):\n%s", path, d)
			}
		})
	}
}

// reachableRe takes the --set line out of a finding's message.
var reachableRe = regexp.MustCompile("reachable with `--set ([^`]+)`$")

type exploreFinding struct {
	RuleID   string `json:"ruleId"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Location struct {
		File      string `json:"file"`
		StartLine int    `json:"startLine"`
	} `json:"location"`
	Related []struct {
		Location struct {
			File      string `json:"file"`
			StartLine int    `json:"startLine"`
		} `json:"location"`
	} `json:"related"`
}

func exploreRun(t *testing.T, args ...string) []exploreFinding {
	t.Helper()
	code, stdout, stderr := runCase(cliCase{args: append([]string{"-f", "json"}, args...)})
	if code == ExitError {
		t.Fatalf("pvlint %s: %s", strings.Join(args, " "), stderr)
	}
	var out struct {
		Findings []exploreFinding `json:"findings"`
	}
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out.Findings
}

// TestExploreReproduces: every finding exploring reports names a --set line that,
// given to a plain run (pvlint's own render, as helm template would be given it),
// reports the same rule at the template position the finding relates.
func TestExploreReproduces(t *testing.T) {
	t.Chdir(repoRoot)
	charts, err := filepath.Glob("testdata/explore/*")
	if err != nil {
		t.Fatal(err)
	}
	reached := 0
	for _, chart := range charts {
		for _, f := range exploreRun(t, "--explore-values", "--limit", "explore-time=1m", chart) {
			m := reachableRe.FindStringSubmatch(f.Message)
			if m == nil {
				continue
			}
			reached++
			if f.Severity != "note" || !strings.HasSuffix(f.Location.File, "/values.yaml") || len(f.Related) == 0 {
				t.Errorf("%s: %+v", chart, f)
				continue
			}
			at := f.Related[0].Location
			found := false
			for _, g := range exploreRun(t, "--set", m[1], chart) {
				if g.RuleID == f.RuleID && g.Location.File == at.File && g.Location.StartLine == at.StartLine {
					found = true
				}
			}
			if !found {
				t.Errorf("%s: --set %s does not reproduce %s at %s:%d", chart, m[1], f.RuleID, at.File, at.StartLine)
			}
			for _, g := range exploreRun(t, chart) {
				if g.RuleID == f.RuleID && g.Location.File == at.File && g.Location.StartLine == at.StartLine {
					t.Errorf("%s: the defaults already have %s at %s:%d", chart, f.RuleID, at.File, at.StartLine)
				}
			}
		}
	}
	if reached != 3 {
		t.Errorf("%d reachable findings in the fixtures, want 3 (replicas, autoscaling, strategy; none for guarded, schema, budget)", reached)
	}
}
