package cli

import (
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pvlint/pvlint/cmd/internal/output"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/terraform"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

func TestParseFlags(t *testing.T) {
	base := func() *Config {
		c, err := parseFlags(nil)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	def := base()
	if len(def.Targets) != 1 || def.Targets[0].Format.Name != "text" || def.Targets[0].File != "" || def.FailOn != lint.Warning || def.KubeVersion != lint.NewestKnown || def.Namespace != "default" || def.PolicyTimeout != 5*time.Second {
		t.Fatalf("defaults = %+v", def)
	}
	tests := []struct {
		args []string
		edit func(c *Config)
	}{
		{[]string{"a", "--format", "json", "b"}, func(c *Config) { c.Paths = []string{"a", "b"}; c.Targets = targets("json", "") }},
		{[]string{"-f=sarif", "-o", "out.sarif", "."}, func(c *Config) {
			c.Paths = []string{"."}
			c.Targets = targets("sarif", "out.sarif")
			c.Output = "out.sarif"
		}},
		{[]string{"-o", "out.sarif", "-f", "sarif"}, func(c *Config) { c.Targets = targets("sarif", "out.sarif"); c.Output = "out.sarif" }},
		{[]string{"-format", "json"}, func(c *Config) { c.Targets = targets("json", "") }},
		// Several reports in one run: one to standard output, the others to files.
		{[]string{"--format", "sarif=pvlint.sarif", "-f", "text", "-f=codequality=gl code quality.json"}, func(c *Config) {
			c.Targets = targets("sarif", "pvlint.sarif", "text", "", "codequality", "gl code quality.json")
		}},
		{[]string{"--format", "sarif", "--output", "pvlint.sarif", "--format", "junit=report.xml"}, func(c *Config) {
			c.Targets = targets("sarif", "pvlint.sarif", "junit", "report.xml")
			c.Output = "pvlint.sarif"
		}},
		// Only files: nothing on standard output.
		{[]string{"-f", "github=a", "-f", "markdown=b"}, func(c *Config) { c.Targets = targets("github", "a", "markdown", "b") }},
		{[]string{"-f", "text", "-f", "json=x"}, func(c *Config) { c.Targets = targets("text", "", "json", "x") }},
		{[]string{"--fail-on=never", "--kube-version", "v1.29.3", "--namespace", "prod"}, func(c *Config) {
			c.FailOn = lint.SeverityNone
			c.KubeVersion = lint.Version{Major: 1, Minor: 29}
			c.Namespace = "prod"
		}},
		{[]string{"--enable", "PVL000", "--enable=parse-error,", "--disable", " pvl000 "}, func(c *Config) {
			c.Enable = []string{"PVL000", "parse-error"}
			c.Disable = []string{"pvl000"}
		}},
		{[]string{"--policy", "a", "--policy=b.rego", "--policy-timeout", "250ms"}, func(c *Config) {
			c.Policies = []string{"a", "b.rego"}
			c.PolicyTimeout = 250 * time.Millisecond
		}},
		{[]string{"--no-color", "-", "--stdin-filename", "x.yaml"}, func(c *Config) { c.NoColor = true; c.Paths = []string{"-"}; c.StdinFilename = "x.yaml" }},
		{[]string{"--no-color=false"}, func(c *Config) {}},
		{[]string{"--provisioner-class", "a.example.com=file", "--provisioner-class=b.example.com = local "}, func(c *Config) {
			a, _ := graph.UserProvisioner("a.example.com", "file")
			b, _ := graph.UserProvisioner("b.example.com", "local")
			c.Provisioners = []graph.Provisioner{a, b}
		}},
		{[]string{"a", "--", "--format", "-f"}, func(c *Config) { c.Paths = []string{"a", "--format", "-f"} }},
		{[]string{"--rule-option", "missing-rwop.min-version=1.27", "--rule-option=PVL005.min-version=1.28"}, func(c *Config) {
			c.RuleOptions = map[*lint.Rule]map[string]string{rules.Find("PVL005"): {"min-version": "1.28"}}
		}},
		{[]string{"--var", "replicas=3", "--var-file=prod.tfvars", "--var", "tags={a = 1}"}, func(c *Config) {
			c.TerraformVars = []terraform.Var{{Name: "replicas", Value: "3"}, {File: "prod.tfvars"}, {Name: "tags", Value: "{a = 1}"}}
		}},
		{[]string{"--config", "none", "--no-inline-suppressions", "--baseline", "b.json", "--write-baseline=w.json"}, func(c *Config) {
			c.ConfigFile, c.NoInline, c.Baseline, c.WriteBaseline = "none", true, "b.json", "w.json"
		}},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			got, err := parseFlags(tt.args)
			if err != nil {
				t.Fatal(err)
			}
			want := base()
			tt.edit(want)
			if d := cmp.Diff(want, got, cmpopts.IgnoreFields(output.Format{}, "Write"), cmpopts.IgnoreFields(Config{}, "Explicit")); d != "" {
				t.Errorf("config (-want +got):\n%s", d)
			}
		})
	}
	for _, args := range [][]string{{"--var", "novalue"}, {"--var", "=x"}, {"--var-file="}} {
		if _, err := parseFlags(args); err == nil {
			t.Errorf("parseFlags(%q) accepted a malformed Terraform variable", args)
		}
	}
	// Explicit records the flags given, not the defaults, for the configuration file.
	got, err := parseFlags([]string{"-f", "json", "--fail-on=error", "x"})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(map[string]bool{"format": true, "fail-on": true}, got.Explicit); d != "" {
		t.Errorf("explicit flags (-want +got):\n%s", d)
	}
	for _, args := range [][]string{{"-h"}, {"x", "--help"}} {
		if _, err := parseFlags(args); !errors.Is(err, errHelp) {
			t.Errorf("parseFlags(%q) = %v, want errHelp", args, err)
		}
	}
	for _, v := range []string{"files.example.com", "=file", "files.example.com=", "files.example.com=nfs", "x=Attachable"} {
		if _, err := parseFlags([]string{"--provisioner-class", v}); err == nil || !strings.Contains(err.Error(), "--provisioner-class: ") {
			t.Errorf("--provisioner-class %q: error %v, want a --provisioner-class error", v, err)
		}
	}
}

// targets builds the expected reports from format name and file pairs.
func targets(nameFile ...string) []Target {
	var out []Target
	for i := 0; i+1 < len(nameFile); i += 2 {
		f, err := output.Lookup(nameFile[i])
		if err != nil {
			panic(err)
		}
		out = append(out, Target{Format: f, File: nameFile[i+1]})
	}
	return out
}

// TestParseTargetErrors: reports that would collide, and --output with nothing to
// write, are usage errors.
func TestParseTargetErrors(t *testing.T) {
	tests := []struct {
		args []string
		want string
	}{
		{[]string{"-f", "text", "-f", "json"}, "formats text and json both write to standard output; give all but one its own file, e.g. --format text=FILE"},
		{[]string{"--format", "sarif", "--output", "x.sarif", "--format", "text", "-f", "junit"}, "formats sarif, text and junit all write to standard output; give all but one its own file, e.g. --format sarif=FILE"},
		{[]string{"-f", "sarif=a.sarif", "-o", "b"}, "--output names no report: every --format has its own =FILE"},
		{[]string{"-f", "sarif=a", "-f", "json=a"}, `formats sarif and json both write to "a"`},
		{[]string{"-f", "sarif", "-o", "a", "-f", "json=a"}, `formats sarif and json both write to "a"`},
		{[]string{"-f", "sarif="}, `--format: empty file name in "sarif="`},
		{[]string{"-f", "xml=a"}, `--format: unknown format "xml" (want text, json, sarif, github, codequality, junit, markdown, checkstyle, rdjson, mermaid, dot)`},
	}
	for _, tt := range tests {
		_, err := parseFlags(tt.args)
		if err == nil || err.Error() != tt.want {
			t.Errorf("parseFlags(%q) error = %v, want %s", tt.args, err, tt.want)
		}
	}
}

// TestSeveralReports: one run writes each report where it was asked, and a report
// that cannot be written is an error that does not stop the others.
func TestSeveralReports(t *testing.T) {
	t.Chdir(repoRoot)
	dir := t.TempDir()
	sarifFile, cqFile := filepath.Join(dir, "pvlint.sarif"), filepath.Join(dir, "cq.json")
	code, stdout, stderr := runCase(cliCase{args: []string{"--format", "sarif=" + sarifFile, "-f", "text", "-f", "codequality=" + cqFile, "testdata/cli/inputs/broken"}})
	if code != ExitFindings || stderr != "" || !strings.HasSuffix(stdout, "2 findings: 2 errors\n") {
		t.Fatalf("exit %d, stderr %q, stdout:\n%s", code, stderr, stdout)
	}
	var sarifDoc struct{ Runs []struct{ Results []any } }
	var cq []map[string]any
	for file, v := range map[string]any{sarifFile: &sarifDoc, cqFile: &cq} {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, v); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
	}
	if len(sarifDoc.Runs) != 1 || len(sarifDoc.Runs[0].Results) != 2 || len(cq) != 2 {
		t.Errorf("reports: %+v, %v", sarifDoc, cq)
	}
	missing := filepath.Join(dir, "missing", "x.json")
	code, stdout, stderr = runCase(cliCase{args: []string{"-f", "json=" + missing, "-f", "junit=" + missing + ".xml", "-f", "github", "testdata/cli/inputs/broken"}})
	if code != ExitError || strings.Count(stderr, "pvlint: write report: open ") != 2 || !strings.Contains(stdout, "::error file=testdata/cli/inputs/broken/") {
		t.Errorf("exit %d, stderr %q, stdout %q", code, stderr, stdout)
	}
}

// TestFlagSpecs keeps the table consistent: unique names, defaults that parse, usage
// lines without a final period.
func TestFlagSpecs(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range flagSpecs {
		for _, n := range []string{s.Name, s.Short} {
			if n == "" {
				continue
			}
			if seen[n] || n == "h" || n == "help" {
				t.Errorf("flag name %q used twice", n)
			}
			seen[n] = true
		}
		if s.Set == nil || s.Usage == "" || strings.HasSuffix(s.Usage, ".") {
			t.Errorf("flag --%s: needs Set and a usage line without a final period", s.Name)
		}
		if s.Default != "" {
			if err := s.Set(&Config{}, s.Default); err != nil {
				t.Errorf("flag --%s: default %q does not parse: %v", s.Name, s.Default, err)
			}
		}
	}
}

func TestOutputFile(t *testing.T) {
	t.Chdir(repoRoot)
	out := filepath.Join(t.TempDir(), "report.json")
	code, stdout, stderr := runCase(cliCase{args: []string{"-o", out, "-f", "json", "testdata/cli/inputs/broken"}, terminal: true})
	if code != ExitFindings || stdout != "" || stderr != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
	data, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Summary struct{ Total int } }
	if err := json.Unmarshal(data, &doc); err != nil || doc.Summary.Total != 2 {
		t.Errorf("report file: %v, %d findings, want 2:\n%s", err, doc.Summary.Total, data)
	}
	// A text report written to a file is never coloured, even from a terminal.
	code, _, _ = runCase(cliCase{args: []string{"-o", out, "testdata/cli/inputs/broken"}, terminal: true})
	data, _ = os.ReadFile(out)
	if code != ExitFindings || strings.Contains(string(data), "\x1b[") {
		t.Errorf("exit %d, text file coloured:\n%s", code, data)
	}
}

func TestOutputFileUnwritable(t *testing.T) {
	t.Chdir(repoRoot)
	out := filepath.Join(t.TempDir(), "missing-dir", "report.json")
	code, stdout, stderr := runCase(cliCase{args: []string{"-o", out, "--quiet", "testdata/cli/inputs/empty"}})
	if code != ExitError || stdout != "" || !strings.HasPrefix(stderr, "pvlint: write report: open ") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("exit %d, stdout %q, stderr %q", code, stdout, stderr)
	}
}

// TestInternalError: a rule that panics is reported once on standard error with a
// request for a bug report, exit code 2, and the other findings are still written.
func TestInternalError(t *testing.T) {
	t.Chdir(repoRoot)
	boom := &lint.Rule{ID: "PVL997", Name: "boom", Severity: lint.Error, Summary: "panics",
		Check: func(p *lint.Pass) { panic("boom on " + p.Graph.Resources[0].Kind) }}
	var outb, errb strings.Builder
	e := &Env{Stdin: strings.NewReader(""), Stdout: &outb, Stderr: &errb, Getenv: func(string) string { return "" },
		IsTerminal: func(io.Writer) bool { return false }, Rules: append(rules.All(), boom)}
	code := e.Run([]string{"testdata/cli/inputs/broken"})
	if code != ExitError {
		t.Errorf("exit %d, want %d", code, ExitError)
	}
	if !strings.Contains(outb.String(), "2 findings: 2 errors") {
		t.Errorf("findings not written:\n%s", outb.String())
	}
	stderr := errb.String()
	if !strings.HasPrefix(stderr, "pvlint: internal error in rule PVL997 boom: boom on ConfigMap") ||
		strings.Count(stderr, "internal error") != 1 || !strings.Contains(stderr, "please report it at "+Home+"/issues") {
		t.Errorf("stderr:\n%s", stderr)
	}
}

func TestMerge(t *testing.T) {
	r1 := &lint.Rule{ID: "PVL001"}
	r2 := &lint.Rule{ID: "PVL002"}
	at := func(file string, line, col int32) graph.Range {
		return graph.Range{File: file, Start: graph.Pos{Line: line, Column: col}}
	}
	in := []lint.Finding{
		{Rule: r2, Range: at("b.yaml", 1, 1), Message: "m"},
		{Rule: r1, Range: at("a.yaml", 9, 1), Message: "m"},
		{Rule: r2, Range: at("a.yaml", 2, 5), Message: "m"},
		{Rule: r1, Range: at("a.yaml", 2, 5), Message: "m"},
		{Rule: r1, Range: at("a.yaml", 2, 3), Message: "m"},
		{Rule: r1, Range: at("a.yaml", 9, 1), Message: "m", Variant: "other world"}, // duplicate
		{Rule: r1, Range: at("a.yaml", 9, 1), Message: "n"},
	}
	type row struct {
		ID, File     string
		Line, Column int32
		Message      string
	}
	var got []row
	for _, f := range merge(in) {
		got = append(got, row{f.Rule.ID, f.Range.File, f.Range.Start.Line, f.Range.Start.Column, f.Message})
	}
	want := []row{
		{"PVL001", "a.yaml", 2, 3, "m"},
		{"PVL001", "a.yaml", 2, 5, "m"},
		{"PVL002", "a.yaml", 2, 5, "m"},
		{"PVL001", "a.yaml", 9, 1, "m"},
		{"PVL001", "a.yaml", 9, 1, "n"},
		{"PVL002", "b.yaml", 1, 1, "m"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("merge (-want +got):\n%s", d)
	}
}

func TestExitCode(t *testing.T) {
	fs := []lint.Finding{{Severity: lint.Note}, {Severity: lint.Warning}}
	tests := []struct {
		failOn lint.Severity
		want   int
	}{
		{lint.Error, ExitOK}, {lint.Warning, ExitFindings}, {lint.Note, ExitFindings}, {lint.SeverityNone, ExitOK},
	}
	for _, tt := range tests {
		if got := exitCode(fs, tt.failOn); got != tt.want {
			t.Errorf("exitCode(fail-on %v) = %d, want %d", tt.failOn, got, tt.want)
		}
	}
	if got := exitCode(nil, lint.Note); got != ExitOK {
		t.Errorf("no findings: exit %d", got)
	}
}

func TestVersion(t *testing.T) {
	if got := Version(); got != "v0.0.0-test" {
		t.Errorf("Version() = %q, want the link-time version", got)
	}
	code, stdout, _ := runCase(cliCase{args: []string{"version"}})
	if code != ExitOK || !strings.HasPrefix(stdout, "pvlint v0.0.0-test ") || !strings.Contains(stdout, " go1.") {
		t.Errorf("version: exit %d, %q", code, stdout)
	}
	saved := version
	version = ""
	defer func() { version = saved }()
	if got := Version(); got == "" {
		t.Error("Version() without ldflags is empty")
	}
}

// FuzzParseFlags: any command line parses or fails with an error, never a panic, and
// a successful parse yields a usable format.
func FuzzParseFlags(f *testing.F) {
	f.Add("-f\x00json\x00--enable=PVL000,\x00.")
	f.Add("--\x00-\x00--no-color=1")
	f.Add("--kube-version\x00v1.29.3\x00-o")
	f.Add("-f\x00sarif=x\x00-f=text\x00-o\x00y")
	f.Fuzz(func(t *testing.T, joined string) {
		c, err := parseFlags(strings.Split(joined, "\x00"))
		if err != nil {
			return
		}
		stdout := 0
		for _, tg := range c.Targets {
			if tg.Format.Write == nil {
				t.Fatalf("parse of %q succeeded without a format", joined)
			}
			if tg.File == "" {
				stdout++
			}
		}
		if len(c.Targets) == 0 || stdout > 1 {
			t.Fatalf("parse of %q: %d reports, %d on standard output", joined, len(c.Targets), stdout)
		}
	})
}

func TestExplain(t *testing.T) {
	r := &lint.Rule{ID: "PVL990", Name: "x", Severity: lint.Note, Summary: "s", Remediation: "fix", Description: "d"}
	want := "# PVL990 x\n\nID: PVL990\nName: x\nSeverity: note\nSummary: s\nRemediation: fix\n\nd\n"
	if got := explain(r); got != want {
		t.Errorf("explain without a page:\n%s\nwant:\n%s", got, want)
	}
	// A page's own title replaces the generated one instead of repeating it.
	r.Doc = "# PVL990 x: a title\n\nBody.\n"
	r.Tags = []string{"a", "b"}
	want = "# PVL990 x: a title\n\nID: PVL990\nName: x\nSeverity: note\nSummary: s\nRemediation: fix\nTags: a, b\n\nBody.\n"
	if got := explain(r); got != want {
		t.Errorf("explain with a page:\n%s\nwant:\n%s", got, want)
	}
}

// TestMergeNamesEveryVariant: a finding that holds in several variants is one finding
// naming them all, in world order, each once; a finding outside variants names none.
func TestMergeNamesEveryVariant(t *testing.T) {
	r := &lint.Rule{ID: "PVL003"}
	at := graph.Range{File: "chart/templates/deployment.yaml", Start: graph.Pos{Line: 8, Column: 3}}
	base := graph.Range{File: "storage.yaml", Start: graph.Pos{Line: 1, Column: 1}}
	in := []lint.Finding{
		{Rule: r, Range: at, Message: "m", Variant: "app"},
		{Rule: r, Range: at, Message: "m", Variant: "app (ci/ha-values.yaml)"},
		{Rule: r, Range: at, Message: "m", Variant: "app"},
		{Rule: r, Range: at, Message: "m", Variant: "app (ci/big-values.yaml)"},
		{Rule: r, Range: at, Message: "other", Variant: "app (ci/ha-values.yaml)"},
		{Rule: r, Range: base, Message: "m"},
		{Rule: r, Range: base, Message: "m"},
	}
	var got [][]string
	for _, f := range merge(in) {
		got = append(got, append([]string{f.Message}, f.Variants()...))
	}
	want := [][]string{
		{"m", "app", "app (ci/ha-values.yaml)", "app (ci/big-values.yaml)"},
		{"other", "app (ci/ha-values.yaml)"},
		{"m"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("merge (-want +got):\n%s", d)
	}
}
