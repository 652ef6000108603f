package cli

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

// report is the part of the JSON output these tests read.
type report struct {
	Findings []struct {
		RuleID   string `json:"ruleId"`
		Resource *struct {
			Kind, Name string
		} `json:"resource"`
	} `json:"findings"`
	Suppressed []json.RawMessage `json:"suppressed"`
	Summary    struct {
		Total, Suppressed, Baselined, StaleBaseline int
	} `json:"summary"`
}

// lintJSON runs pvlint with -f json in the current directory.
func lintJSON(t *testing.T, args ...string) (int, report, string) {
	t.Helper()
	code, stdout, stderr := runCase(cliCase{args: append([]string{"-f", "json"}, args...)})
	var r report
	if code != ExitError {
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("pvlint %v: %v\n%s", args, err, stdout)
		}
	}
	return code, r, stderr
}

func (r report) rules() []string {
	var out []string
	for _, f := range r.Findings {
		s := f.RuleID
		if f.Resource != nil {
			s += " " + f.Resource.Kind + "/" + f.Resource.Name
		}
		out = append(out, s)
	}
	return out
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBaseline writes a baseline on a repository, then edits the file the way a team
// would — lines inserted above the findings (and a volume in front of the claim), the
// file re-indented with keys and documents reordered, a new hazard, a fix — and
// checks that only the new hazard is reported and that fixed entries are counted.
func TestBaseline(t *testing.T) {
	fixtures := filepath.Join(repoRoot, "testdata", "baseline")
	dir := t.TempDir()
	t.Chdir(dir)
	app := filepath.Join("deploy", "app.yaml")
	copyFile(t, filepath.Join(fixtures, "repo", "app.yaml"), app)
	code, r, stderr := lintJSON(t, "--write-baseline", "baseline.json", "deploy")
	if code != ExitOK || len(r.Findings) != 0 || r.Summary.Baselined == 0 || !strings.HasPrefix(stderr, "pvlint: wrote ") {
		t.Fatalf("write: exit %d, %+v, %s", code, r, stderr)
	}
	written := r.Summary.Baselined
	if _, r, _ := lintJSON(t, "--config", "none", "deploy"); len(r.Findings) != written {
		t.Fatalf("without the baseline: %d findings, baseline has %d", len(r.Findings), written)
	}
	tests := []struct {
		version string
		code    int
		want    []string // findings left
		stale   int
	}{
		{version: "moved", code: ExitOK},
		{version: "reindented", code: ExitOK},
		{version: "new-hazard", code: ExitFindings, want: []string{"PVL003 Deployment/reports", "PVL002 Deployment/reports"}},
		{version: "fixed", code: ExitOK, stale: 1}, // worker's replicas: 2 → 1
	}
	for _, tc := range tests {
		t.Run(tc.version, func(t *testing.T) {
			copyFile(t, filepath.Join(fixtures, tc.version, "app.yaml"), app)
			code, r, stderr := lintJSON(t, "--baseline", "baseline.json", "deploy")
			if code != tc.code || stderr != "" {
				t.Errorf("exit %d, want %d; stderr %q", code, tc.code, stderr)
			}
			if d := cmp.Diff(tc.want, r.rules()); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
			if r.Summary.StaleBaseline != tc.stale || r.Summary.Baselined != written-tc.stale {
				t.Errorf("baselined %d, stale %d; want %d, %d", r.Summary.Baselined, r.Summary.StaleBaseline, written-tc.stale, tc.stale)
			}
		})
	}
	// The text summary says what the baseline hid.
	_, stdout, _ := runCase(cliCase{args: []string{"--baseline", "baseline.json", "deploy"}})
	if want := fmt.Sprintf("no findings; %d in baseline baseline.json, 1 entry no longer occurs\n", written-1); !strings.HasSuffix(stdout, want) {
		t.Errorf("text summary: %q", stdout)
	}
	if err := os.WriteFile("bad.json", []byte(`{"version": 7, "entries": []}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, stderr := lintJSON(t, "--baseline", "bad.json", "deploy"); code != ExitError || !strings.Contains(stderr, "baseline version 7 is not supported") {
		t.Errorf("bad baseline: exit %d, %s", code, stderr)
	}
}

// TestConfigDiscovery checks that a run in a subdirectory finds the repository's
// .pvlint.yaml, that --config none ignores it, and that a file above the repository
// root never applies.
func TestConfigDiscovery(t *testing.T) {
	root := t.TempDir()
	repo := filepath.Join(root, "repo")
	sub := filepath.Join(repo, "deploy")
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(repoRoot, "testdata", "suppress", "cli", "legacy", "app.yaml"), filepath.Join(sub, "app.yaml"))
	write := func(path, content string) {
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(sub, "storage.yaml"), `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
volumeBindingMode: WaitForFirstConsumer
reclaimPolicy: Retain
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: shop}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
`)
	write(filepath.Join(root, config.FileName), "failOn: error\n")
	t.Chdir(sub)
	if code, r, _ := lintJSON(t, "."); code != ExitFindings || len(r.Findings) != 1 {
		t.Fatalf("no configuration in the repository: exit %d, %v", code, r.rules())
	}
	write(filepath.Join(repo, config.FileName), "failOn: never\nignore:\n  - rule: PVL002\n    paths: [deploy/app.yaml]\n    reason: found from a subdirectory\n")
	code, r, _ := lintJSON(t, ".")
	if code != ExitOK || len(r.Findings) != 0 || r.Summary.Suppressed != 1 {
		t.Errorf("repository configuration: exit %d, %+v", code, r)
	}
	if code, r, _ := lintJSON(t, "--config", "none", "."); code != ExitFindings || len(r.Findings) != 1 || r.Summary.Suppressed != 0 {
		t.Errorf("--config none: exit %d, %+v", code, r)
	}
	// The configuration's paths apply when the command line names none.
	write(filepath.Join(repo, "other.yaml"), "failOn: warning\npaths: [deploy/storage.yaml]\n")
	if code, r, _ := lintJSON(t, "--config", "../other.yaml"); code != ExitOK || r.Summary.Total != 0 {
		t.Errorf("paths from the configuration: exit %d, %+v", code, r)
	}
	// Exclude globs are relative to the configuration file.
	write(filepath.Join(repo, "exclude.yaml"), "exclude: [deploy/app.yaml]\n")
	if code, r, _ := lintJSON(t, "--config", "../exclude.yaml", "."); code != ExitOK || r.Summary.Total != 0 {
		t.Errorf("exclude: exit %d, %+v", code, r)
	}
}

// TestConfigCommands checks `pvlint config init` and `pvlint config schema`.
func TestConfigCommands(t *testing.T) {
	t.Chdir(t.TempDir())
	code, _, stderr := runCase(cliCase{args: []string{"config", "init"}})
	if code != ExitOK || stderr != "pvlint: wrote .pvlint.yaml\n" {
		t.Fatalf("init: exit %d, %s", code, stderr)
	}
	data, err := os.ReadFile(config.FileName)
	if err != nil || string(data) != string(config.Starter) {
		t.Fatalf("init wrote %q, %v", data, err)
	}
	if _, err := config.Load(config.FileName, config.FileName); err != nil {
		t.Errorf("the starter file does not load: %v", err)
	}
	if code, _, stderr := runCase(cliCase{args: []string{"config", "init"}}); code != ExitError || stderr != "pvlint: .pvlint.yaml already exists; not overwritten\n" {
		t.Errorf("init over an existing file: exit %d, %s", code, stderr)
	}
	if code, stdout, _ := runCase(cliCase{args: []string{"config", "init", "-"}}); code != ExitOK || stdout != string(config.Starter) {
		t.Errorf("init -: exit %d", code)
	}
	if code, stdout, _ := runCase(cliCase{args: []string{"config", "schema"}}); code != ExitOK || stdout != string(config.Schema) {
		t.Errorf("schema: exit %d", code)
	}
	// The starter file's settings are its defaults: a run with it reports what a run
	// without it does.
	if code, _, _ := runCase(cliCase{args: []string{"."}}); code != ExitOK {
		t.Errorf("lint with the starter file: exit %d", code)
	}
}

// TestSARIFSchema validates pvlint's SARIF — suppressed results included — against
// the SARIF 2.1.0 JSON Schema that `make tools` installs with the Microsoft validator,
// whose own checks (TestSARIFValidator) do not include the schema: a suppression
// kind outside its enum passes them.
func TestSARIFSchema(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join(repoRoot, ".ci", "node_modules", "@microsoft", "sarif-multitool-*", "sarif-2.1.0.json"))
	if len(files) == 0 {
		missingTool(t, "the SARIF schema (npm @microsoft/sarif-multitool)")
	}
	f, err := os.Open(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	doc, err := jsonschema.UnmarshalJSON(f)
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("sarif-2.1.0.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("sarif-2.1.0.json")
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(repoRoot)
	for _, args := range [][]string{
		{"-f", "sarif", "--config", "testdata/suppress/cli/.pvlint.yaml", "testdata/suppress/cli"},
		{"-f", "sarif", "testdata/suppress/yaml"},
		{"-f", "sarif", "testdata/suppress/terraform"},
		{"-f", "sarif", "testdata/demo"},
	} {
		code, stdout, stderr := runCase(cliCase{args: args})
		if code == ExitError {
			t.Fatalf("pvlint %v: %s", args, stderr)
		}
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(stdout))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(inst); err != nil {
			t.Errorf("pvlint %v: SARIF does not match the schema: %v", args, err)
		}
		if !strings.Contains(stdout, `"suppressions"`) && args[len(args)-1] != "testdata/demo" {
			t.Errorf("pvlint %v: no suppressed result", args)
		}
	}
}

// TestConfigure checks precedence: a flag given on the command line wins over the
// file, the file wins over flag defaults, and --enable wins over `off`.
func TestConfigure(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	content := "kubeVersion: \"1.29\"\nnamespace: shop\nfailOn: note\nrules:\n  PVL002: off\n  PVL003: off\n  PVL001: error\n"
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := parseFlags([]string{"--config", file, "--namespace", "prod", "--enable", "PVL002,PVL001"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := (&Env{}).newPlan(c, dir)
	if err != nil {
		t.Fatal(err)
	}
	if c.KubeVersion != lint.NewestKnown || c.FailOn != lint.Warning {
		t.Errorf("the command line changed: kube %v, fail-on %v", c.KubeVersion, c.FailOn)
	}
	rs := p.resolved
	c = p.c
	if c.KubeVersion != (lint.Version{Major: 1, Minor: 29}) || c.Namespace != "prod" || c.FailOn != lint.Note {
		t.Errorf("settings: kube %v, namespace %q, fail-on %v", c.KubeVersion, c.Namespace, c.FailOn)
	}
	var disabled []string
	for _, r := range rules.All() {
		if p.opts.Disabled[r] {
			disabled = append(disabled, r.ID)
		}
	}
	if d := cmp.Diff([]string{"PVL003"}, disabled); d != "" {
		t.Errorf("disabled (-want +got):\n%s", d)
	}
	if rs.Severity[rules.Find("PVL001")] != lint.Error {
		t.Errorf("levels: %v", rs.Severity)
	}
}

// TestConfigHelm renders a chart with the configuration's per-chart settings, and
// checks that the command line's release name replaces the file's.
func TestConfigHelm(t *testing.T) {
	t.Chdir(repoRoot)
	chart := filepath.Join(repoRoot, "testdata", "suppress", "helm", "chart")
	file := filepath.Join(t.TempDir(), "helm.yaml")
	content := fmt.Sprintf("helm:\n  releaseName: top\n  charts:\n    %s:\n      releaseName: cfg\n      set: [replicaCount=5]\n", chart)
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	names := func(args ...string) []string {
		code, stdout, stderr := runCase(cliCase{args: append([]string{"-f", "json", "--config", file}, args...)})
		if code == ExitError {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		var doc struct {
			Suppressed []struct {
				Message, Variant string
			} `json:"suppressed"`
		}
		if err := json.Unmarshal([]byte(stdout), &doc); err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range doc.Suppressed {
			if strings.HasPrefix(f.Message, "Deployment") && strings.Contains(f.Message, "(replicas") {
				out = append(out, f.Variant+": "+f.Message[:strings.Index(f.Message, ")")+1])
			}
		}
		return out
	}
	if d := cmp.Diff([]string{"shop (--set): Deployment cfg-web (replicas 5)"}, names("testdata/suppress/helm")); d != "" {
		t.Errorf("chart settings (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"shop (--set): Deployment flag-web (replicas 5)"}, names("--release-name", "flag", "testdata/suppress/helm")); d != "" {
		t.Errorf("--release-name over the file (-want +got):\n%s", d)
	}
}

// TestPlanLeavesCommandLine: newPlan fills the configuration file's settings into a
// copy of the command line, so planning twice (as pvlint fix does once per round)
// gives the same plan, and the file's snapshots, drivers and rule options are not
// added to the command line again each time.
func TestPlanLeavesCommandLine(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c.yaml")
	content := "context: [snap.yaml]\nprovisioners:\n  csi.example.com: attachable\nruleOptions:\n  missing-rwop:\n    min-version: \"1.27\"\nrules:\n  PVL003: off\n"
	if err := os.WriteFile(file, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	now := filepath.Join(dir, "now.yaml")
	for _, snap := range []string{"snap.yaml", "now.yaml"} {
		if err := os.WriteFile(filepath.Join(dir, snap), []byte("apiVersion: v1\nkind: Namespace\nmetadata: {name: x}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c, err := parseFlags([]string{"--config", file, "--context", now})
	if err != nil {
		t.Fatal(err)
	}
	before := fmt.Sprint(c.Context, c.Provisioners, c.RuleOptions, c.Disable)
	var plans []string
	for range 2 {
		p, err := (&Env{}).newPlan(c, dir)
		if err != nil {
			t.Fatal(err)
		}
		var opts []string
		for r, values := range p.c.RuleOptions {
			opts = append(opts, fmt.Sprintf("%s %v", r.ID, values))
		}
		plans = append(plans, fmt.Sprint(p.c.Context, len(p.c.Provisioners), opts, p.opts.Disabled[rules.Find("PVL003")]))
	}
	if after := fmt.Sprint(c.Context, c.Provisioners, c.RuleOptions, c.Disable); after != before {
		t.Errorf("the command line changed from %s to %s", before, after)
	}
	want := "[" + filepath.Join(dir, "snap.yaml") + " " + now + "] 1 [PVL005 map[min-version:1.27]] true"
	for i, got := range plans {
		if got != want {
			t.Errorf("plan %d: %s, want %s", i+1, got, want)
		}
	}
}
