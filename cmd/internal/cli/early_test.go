package cli

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/cmd/internal/early"
)

// TestEarlyReadsTheCommandLine keeps package early's copy of the command line's shape
// equal to the command's: its subcommands, and which flags take no value. A new
// subcommand or switch that early did not know would make it take a subcommand for a
// path or a path for a flag's value.
func TestEarlyReadsTheCommandLine(t *testing.T) {
	cmds := slices.Sorted(maps.Keys(subcommands()))
	if !slices.Equal(slices.Sorted(slices.Values(early.Commands)), cmds) {
		t.Errorf("early.Commands = %q, the command's subcommands are %q", early.Commands, cmds)
	}
	var switches []string
	for _, s := range flagSpecs {
		if s.Arg == "" {
			switches = append(switches, s.Name)
			if s.Short != "" {
				switches = append(switches, s.Short)
			}
		}
	}
	slices.Sort(switches)
	if !slices.Equal(slices.Sorted(slices.Values(early.Switches)), switches) {
		t.Errorf("early.Switches = %q, the lint run's switches are %q", early.Switches, switches)
	}
}

// TestEarlyPaths checks that early reads the paths of a lint run as parseFlags does,
// and declines what it cannot foresee.
func TestEarlyPaths(t *testing.T) {
	for _, args := range [][]string{
		{},
		{"."},
		{"-f", "sarif", "-o", "out.sarif", "charts"},
		{"--format=sarif", "--quiet", "a", "b"},
		{"--no-color", "--cluster", "eks", "infra", "--", "-odd", "x"},
		{"-q", "--fail-on", "never"},
	} {
		paths, ok := early.LintPaths(args)
		if !ok {
			t.Errorf("LintPaths(%q) declined a lint run", args)
			continue
		}
		c, err := parseFlags(args)
		if err != nil {
			t.Fatalf("parseFlags(%q): %v", args, err)
		}
		want := c.Paths
		if len(want) == 0 {
			want = []string{"."}
		}
		if !slices.Equal(paths, want) {
			t.Errorf("LintPaths(%q) = %q, the command lints %q", args, paths, want)
		}
	}
	for _, args := range [][]string{
		{"rules"},
		{"fix", "."},
		{"--limit", "eval-memory=2GiB", "."},
		{"--stdin-filename", "a.yaml"},
		{"-"},
		{"--help"},
		{"-h"},
		{"--version"},
		{"-f"},
	} {
		if paths, ok := early.LintPaths(args); ok {
			t.Errorf("LintPaths(%q) = %q, want declined", args, paths)
		}
	}
}

// TestEarlyWorkerBinary builds pvlint and counts, under strace, the worker processes
// a run starts: the worker begun while pvlint initialises is the run's one worker (the
// pool adopts it, no second starts), and nothing starts one for plain YAML, for a
// subcommand, or twice when --limit leaves the start to the run.
func TestEarlyWorkerBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pvlint (skipped under -short)")
	}
	strace := requireTool(t, "strace")
	bin := buildPvlint(t, true)
	// The premise: package early's init runs before the dependencies whose
	// initialisation is most of a start-up (Go initialises packages in the order of
	// their import paths, each after its imports).
	cmd := exec.Command(bin, "--version")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pvlint --version: %v\n%s", err, out)
	}
	order := map[string]int{}
	for i, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i + 1
		}
	}
	auto := order["github.com/pvlint/pvlint/cmd/internal/early/auto"]
	if auto == 0 {
		t.Fatalf("pvlint does not initialise package early/auto; init trace:\n%s", out)
	}
	for _, heavy := range []string{"github.com/santhosh-tekuri/jsonschema/v6", "k8s.io/client-go/kubernetes/scheme", "helm.sh/helm/v3/pkg/engine"} {
		if n := order[heavy]; n != 0 && n < auto {
			t.Errorf("%s initialises before package early/auto", heavy)
		}
	}
	claim := "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: data\nspec:\n  accessModes: [ReadWriteOnce]\n  resources:\n    requests:\n      storage: 1Gi\n"
	// One chart, so one worker call: with two, the pool may start a second worker when
	// the first is still busy after its grow delay (wall-clock), which a loaded machine
	// decides, not the early start this test is about.
	charts := t.TempDir()
	writeFiles(t, charts, map[string]string{
		"app/Chart.yaml":         "apiVersion: v2\nname: app\nversion: 0.1.0\n",
		"app/templates/pvc.yaml": claim,
		"plain/deployment.yaml":  claim,
	})
	plain := t.TempDir()
	writeFiles(t, plain, map[string]string{"a/pvc.yaml": claim})
	for _, tc := range []struct {
		name    string
		root    string
		args    []string
		workers int
	}{
		{"charts", charts, []string{"-f", "json", "--fail-on", "never", "."}, 1},
		{"charts-no-paths", charts, []string{"--quiet", "--fail-on", "never"}, 1},
		{"limit", charts, []string{"--limit", "eval-memory=512MiB", "--fail-on", "never", "."}, 1},
		{"plain", plain, []string{"--fail-on", "never", "."}, 0},
		{"subcommand", charts, []string{"rules"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			trace := filepath.Join(t.TempDir(), "trace")
			cmd := exec.Command(strace, append([]string{"-f", "-qq", "-e", "signal=none", "-e", "trace=execve", "-o", trace, "--", bin}, tc.args...)...)
			cmd.Dir = tc.root
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("pvlint %q: %v\n%s", tc.args, err, out)
			}
			data, err := os.ReadFile(trace)
			if err != nil {
				t.Fatal(err)
			}
			workers := 0
			for line := range strings.SplitSeq(string(data), "\n") {
				if strings.Contains(line, `execve("/proc/self/exe"`) && !strings.Contains(line, "= -1") {
					workers++
				}
			}
			if workers != tc.workers {
				t.Errorf("pvlint %q started %d workers, want %d; trace:\n%s", tc.args, workers, tc.workers, data)
			}
		})
	}
}
