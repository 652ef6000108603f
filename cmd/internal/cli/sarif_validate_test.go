package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/cmd/internal/output"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

// corpusDir holds real public inputs on the development machines; the test uses it
// when present and never copies from it.
const corpusDir = "/work/shared/corpus/files"

// multitool returns the SARIF validator that `make tools` installs, or "" when it is
// not installed. The npm package's own launcher (npx sarif-multitool) runs the binary
// through a shell, which splits the "Gh;Sarif" arguments at the semicolon, so the test
// runs the self-contained binary directly.
func multitool() string {
	platform := map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}[runtime.GOOS]
	exe := "Sarif.Multitool"
	if runtime.GOOS == "windows" {
		exe += ".exe"
	}
	bin := filepath.Join(repoRoot, ".ci", "node_modules", "@microsoft", "sarif-multitool-"+platform, exe)
	if _, err := os.Stat(bin); err != nil {
		return ""
	}
	return bin
}

// TestSARIFValidator checks pvlint's SARIF with Microsoft's validator, with the
// GitHub code-scanning rules and the SARIF best-practice rules at warning level: the
// demo, every fixture tree under testdata, a hand-built report exercising every
// location shape and a failed rule, and the shared corpus when this machine has it. The validator exits 0 whatever it finds, so
// the test reads its own SARIF log and fails on any result.
func TestSARIFValidator(t *testing.T) {
	bin := multitool()
	if bin == "" {
		missingTool(t, "Microsoft's SARIF validator (npm @microsoft/sarif-multitool)")
	}
	t.Chdir(repoRoot)
	dir := t.TempDir()
	var inputs []string
	write := func(name string, data []byte) {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		inputs = append(inputs, p)
	}
	runs := map[string][]string{
		"demo.sarif":   {"-f", "sarif", "testdata/demo"},
		"broken.sarif": {"-f", "sarif", "testdata/cli/inputs/broken"},
		"empty.sarif":  {"-f", "sarif", "testdata/cli/inputs/empty"},
		// Suppressed results (inSource and external) and PVL900 at a configuration file.
		"suppressed.sarif":      {"-f", "sarif", "--config", "testdata/suppress/cli/.pvlint.yaml", "testdata/suppress/cli"},
		"suppressed-yaml.sarif": {"-f", "sarif", "testdata/suppress/yaml"},
		// Custom policies: rules described from METADATA, IDs that are not PVLnnn.
		"policies.sarif": {"-f", "sarif", "--policy", "testdata/policies/labels", "--policy", "testdata/policies/backup",
			"--policy", "testdata/policies/conftest-v0", "testdata/policies/inputs"},
		// Gatekeeper constraints: rule IDs Kind/name, PVL000 at templates, every level.
		"gatekeeper.sarif": {"-f", "sarif", "--gatekeeper", "--policy", "testdata/gatekeeper/policies", "testdata/gatekeeper/inputs"},
		// Findings whose chains go through a platform profile or a cluster snapshot.
		"cluster.sarif": {"-f", "sarif", "--cluster", "gke", "testdata/cluster/gke", "testdata/cluster/gke-recreate"},
		"context.sarif": {"-f", "sarif", "--context", "testdata/cluster/snapshot", "--context", "testdata/cluster/snapshot-json",
			"testdata/cluster/existing-claim", "testdata/cluster/hpa"},
		// Findings only explored values reach, at values.yaml with the template related.
		"explore.sarif": {"-f", "sarif", "--explore-values", "testdata/explore"},
		// GitOps releases rendered from the chart cache: findings at the releases'
		// values, templates of the cache (outside the linted directory) related.
		"gitops.sarif": {"-f", "sarif", "--config", "testdata/cli/inputs/gitops/.pvlint.yaml", "--charts", "testdata/cli/inputs/gitops-cache", "testdata/cli/inputs/gitops"},
		// Directories built by Flux Kustomizations and Argo CD settings: findings at an
		// inline patch of the GitOps object, build outputs as related locations.
		"gitops-builds.sarif": {"-f", "sarif", "--config", "testdata/cli/inputs/gitops-builds/.pvlint.yaml", "testdata/cli/inputs/gitops-builds"},
		// Fixes, the unsafe ones included (the fixture tree's own run has the safe ones).
		"fixes-unsafe.sarif": {"-f", "sarif", "--unsafe-fixes", "testdata/fix"},
	}
	if _, err := os.Stat(corpusDir); err == nil {
		runs["corpus.sarif"] = []string{"-f", "sarif", corpusDir}
	}
	for _, d := range fixtureDirs(t) {
		runs["fixture-"+strings.ReplaceAll(d, "/", "-")+".sarif"] = []string{"-f", "sarif", d}
	}
	for name, args := range runs {
		code, stdout, stderr := runCase(cliCase{args: args})
		if code == ExitError {
			t.Fatalf("pvlint %s: exit %d: %s", strings.Join(args, " "), code, stderr)
		}
		write(name, []byte(stdout))
	}
	var buf bytes.Buffer
	if err := output.WriteSARIF(&buf, handBuilt()); err != nil {
		t.Fatal(err)
	}
	write("hand-built.sarif", buf.Bytes())

	t.Logf("validating %d SARIF logs", len(inputs))
	log := filepath.Join(dir, "v.sarif")
	args := append([]string{"validate", "--rule-kind", "Gh;Sarif", "--level", "Error;Warning", "--output", log}, inputs...)
	cmd := exec.Command(bin, args...)
	// Without ICU the .NET runtime aborts; invariant mode needs none and changes nothing
	// the validator checks.
	cmd.Env = append(os.Environ(), "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("validator: %v\n%s", err, out)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatalf("validator wrote no log: %v\n%s", err, out)
	}
	var v struct {
		Runs []struct {
			Results []json.RawMessage `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(data, &v); err != nil || len(v.Runs) == 0 {
		t.Fatalf("validator log unreadable (%v):\n%s", err, data)
	}
	for _, r := range v.Runs {
		if len(r.Results) > 0 {
			t.Errorf("validator reported %d problems:\n%s", len(r.Results), out)
		}
	}
}

// fixtureDirs lists the fixture trees under testdata (testdata/rules, testdata/helm...)
// that hold input files (YAML, JSON or Terraform), relative to the repository root.
// Each is linted as a whole, so every fixture file reaches a validated SARIF log; one
// log per leaf directory would lint chart templates and kustomize bases out of
// context, and the validator needs seconds per log.
func fixtureDirs(t *testing.T) []string {
	seen := map[string]bool{}
	var dirs []string
	err := filepath.WalkDir("testdata", func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (p == filepath.Join("testdata", "gen", "out") || p == filepath.Join("testdata", "bombs")) {
			// testdata/bombs exhaust the memory of whatever evaluates them: only binaries
			// under a memory limit read them, each evaluation in a worker process
			// (hostile_eval_test.go), never a test in-process.
			return filepath.SkipDir
		}
		switch filepath.Ext(p) {
		case ".yaml", ".yml", ".json", ".tf":
			parts := strings.SplitN(filepath.ToSlash(p), "/", 3)
			if dir := parts[0] + "/" + parts[1]; len(parts) == 3 && !seen[dir] {
				seen[dir] = true
				dirs = append(dirs, dir)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 3 {
		t.Fatalf("only %d fixture directories found: %v", len(dirs), dirs)
	}
	return dirs
}

// handBuilt is a report with the shapes the CLI fixtures may not produce yet: related
// locations, a variant, a file outside the working directory, a range without a line
// and one without an end.
func handBuilt() *output.Report {
	web := &graph.Resource{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web"}
	claim := graph.Range{File: "testdata/demo/web.yaml", Start: graph.Pos{Line: 1, Column: 1}, End: graph.Pos{Line: 11, Column: 20}}
	rule := &lint.Rule{ID: "PVL990", Name: "test-rule", Severity: lint.Warning, Summary: "a rule for the validator test",
		Description: "Exercises every SARIF location shape.", Remediation: "None needed.", Doc: "# PVL990\n\nA test page.", Tags: []string{"test"}}
	return &output.Report{
		Tool:  output.Tool{Name: "pvlint", Version: "(devel)", InformationURI: Home},
		Rules: append(rules.All(), rule),
		Findings: []lint.Finding{
			{Rule: rule, Severity: lint.Error, Message: "Deployment web (replicas 3) mounts PVC web-uploads (ReadWriteOnce)", Resource: web,
				Range:   graph.Range{File: "testdata/demo/web.yaml", Start: graph.Pos{Line: 21, Column: 3}, End: graph.Pos{Line: 21, Column: 14}},
				Related: []lint.Related{{Range: claim, Message: "PVC web-uploads"}, {Range: graph.Range{File: "testdata/demo/storage.yaml", Start: graph.Pos{Line: 2, Column: 1}}, Message: "StorageClass gp3"}},
				Variant: "ci/prod-values.yaml"},
			{Rule: rules.ParseError, Severity: lint.Error, Message: "cannot read: permission denied", Range: graph.Range{File: "/outside/the/checkout.yaml"}},
			{Rule: rule, Severity: lint.Note, Message: "no end position", Range: graph.Range{File: "<stdin>", Start: graph.Pos{Line: 4, Column: 7}}},
		},
		Dir:            repoRoot,
		InternalErrors: []string{"internal error in rule PVL997 boom: boom"},
	}
}

// TestIsTerminal: only character devices get colour; buffers and files never do.
func TestIsTerminal(t *testing.T) {
	if isTerminal(io.Discard) {
		t.Error("io.Discard is not a terminal")
	}
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Error("a regular file is not a terminal")
	}
}

// missingTool stops a test whose tool is not installed: a skip under -short, which
// skips integration tests on purpose, and a failure otherwise, so that a passing
// `go test ./...` never hides a check that did not run.
func missingTool(t *testing.T, what string) {
	t.Helper()
	if testing.Short() {
		t.Skipf("%s is not installed; skipped with -short (`make tools` installs it)", what)
	}
	t.Fatalf("%s is not installed: run `make tools`, or `go test -short` to skip the tests that need it", what)
}
