package alerts

import (
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	yaml "go.yaml.in/yaml/v3"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata/alerts")

const testdata = "../../../testdata/alerts"

func render(t *testing.T, f Format, o Options) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := Render(&b, f, o); err != nil {
		t.Fatalf("Render(%s): %v", f, err)
	}
	return b.Bytes()
}

// TestGolden pins the printed rule set: a change to an expression or an annotation
// must be deliberate (go test ./rules/alerts -update) and reviewed with the promtool
// tests that exercise it.
func TestGolden(t *testing.T) {
	cases := []struct {
		file   string
		format Format
		opts   Options
	}{
		{"rules.golden.yaml", FormatRules, Options{}},
		{"prometheusrule.golden.yaml", FormatPrometheusRule, Options{}},
		{"prometheusrule-options.golden.yaml", FormatPrometheusRule, Options{
			Namespace: "observability", Name: "storage-alerts",
			Labels:    map[string]string{"release": "kube-prometheus-stack", "app.kubernetes.io/part-of": "pvlint"},
			AttachFor: "90s", ContainerCreatingFor: "10m", PendingFor: "1h",
			RunbookBaseURL: "https://runbooks.example.com/pvlint/",
		}},
	}
	for _, c := range cases {
		t.Run(c.file, func(t *testing.T) {
			got := render(t, c.format, c.opts)
			path := filepath.Join(testdata, c.file)
			if *update {
				if err := os.WriteFile(path, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run with -update to create it): %v", err)
			}
			if d := cmp.Diff(string(want), string(got)); d != "" {
				t.Errorf("output differs from %s (-want +got):\n%s", path, d)
			}
		})
	}
}

// TestPrometheusRuleWrapsRulesFile checks that the PrometheusRule's spec is exactly
// the plain rules file, so promtool's verdict on one holds for the other.
func TestPrometheusRuleWrapsRulesFile(t *testing.T) {
	var pr struct {
		APIVersion string         `yaml:"apiVersion"`
		Kind       string         `yaml:"kind"`
		Metadata   map[string]any `yaml:"metadata"`
		Spec       map[string]any `yaml:"spec"`
	}
	if err := yaml.Unmarshal(render(t, FormatPrometheusRule, Options{}), &pr); err != nil {
		t.Fatal(err)
	}
	var plain map[string]any
	if err := yaml.Unmarshal(render(t, FormatRules, Options{}), &plain); err != nil {
		t.Fatal(err)
	}
	if pr.APIVersion != "monitoring.coreos.com/v1" || pr.Kind != "PrometheusRule" {
		t.Errorf("got %s %s, want monitoring.coreos.com/v1 PrometheusRule", pr.APIVersion, pr.Kind)
	}
	if d := cmp.Diff(plain, pr.Spec); d != "" {
		t.Errorf("PrometheusRule spec differs from the rules file (-rules +spec):\n%s", d)
	}
	if d := cmp.Diff(map[string]any{"name": "pvlint-storage", "namespace": "monitoring"}, pr.Metadata); d != "" {
		t.Errorf("metadata (-want +got):\n%s", d)
	}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		opts Options
		err  string // substring; "" = valid
	}{
		{Options{}, ""},
		{Options{Namespace: "Monitoring"}, `invalid namespace "Monitoring"`},
		{Options{Name: "bad_name"}, `invalid name "bad_name"`},
		{Options{Labels: map[string]string{"release": "kube-prometheus-stack", "example.com/team": "storage"}}, ""},
		{Options{Labels: map[string]string{"bad key": "x"}}, `invalid label key "bad key"`},
		{Options{Labels: map[string]string{"Bad.Prefix/x": "y"}}, `invalid label key "Bad.Prefix/x"`},
		{Options{Labels: map[string]string{"team": "a b"}}, `invalid value "a b" for label "team"`},
		{Options{AttachFor: "2 minutes"}, `invalid attach duration "2 minutes"`},
		{Options{PendingFor: "0s"}, `invalid pending duration "0s": must be longer than zero`},
		{Options{ContainerCreatingFor: "1h30m"}, ""},
		{Options{RunbookBaseURL: "docs/"}, `invalid runbook base URL "docs/"`},
	}
	for _, c := range cases {
		err := c.opts.Validate()
		switch {
		case c.err == "" && err != nil:
			t.Errorf("Validate(%+v) = %v, want nil", c.opts, err)
		case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
			t.Errorf("Validate(%+v) = %v, want an error containing %q", c.opts, err, c.err)
		}
	}
	if err := Render(&bytes.Buffer{}, FormatRules, Options{Namespace: "X"}); err == nil {
		t.Error("Render accepted an invalid namespace")
	}
	if _, err := ParseFormat("json"); err == nil {
		t.Error(`ParseFormat("json") accepted an unknown format`)
	}
}

// TestEveryAlertLinksItsRunbook checks what on-call relies on: severity, a summary and
// a runbook URL that names the pvlint rule whose explain page is the runbook.
func TestEveryAlertLinksItsRunbook(t *testing.T) {
	for _, r := range Rules(Options{}) {
		got := map[string]string{}
		for _, kv := range append(append([][2]string{}, r.Labels...), r.Annotations...) {
			got[kv[0]] = kv[1]
		}
		if got["severity"] == "" || got["summary"] == "" || got["description"] == "" {
			t.Errorf("%s: missing severity, summary or description: %v", r.Alert, got)
		}
		want := Defaults.RunbookBaseURL + r.RuleID + ".md#alert-and-runbook"
		if got["runbook_url"] != want {
			t.Errorf("%s: runbook_url %q, want %q", r.Alert, got["runbook_url"], want)
		}
	}
}

// promtool returns the promtool binary; without it the test fails, or skips under
// -short (missingTool).
func promtool(t *testing.T) string {
	t.Helper()
	p, err := exec.LookPath("promtool")
	if err != nil {
		missingTool(t, "promtool (Debian's prometheus package)")
	}
	return p
}

// TestPromtoolCheck runs the real Prometheus rule checker over the plain rules file
// on standard input, as a user would with `pvlint alerts --format rules | promtool
// check rules /dev/stdin`, and over the PrometheusRule's spec.
func TestPromtoolCheck(t *testing.T) {
	bin := promtool(t)
	cmd := exec.Command(bin, "check", "rules", "/dev/stdin")
	cmd.Stdin = bytes.NewReader(render(t, FormatRules, Options{}))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "SUCCESS: 3 rules found") {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
	// Options change durations and URLs only; the custom set must stay valid too.
	cmd = exec.Command(bin, "check", "rules", "/dev/stdin")
	cmd.Stdin = bytes.NewReader(render(t, FormatRules, Options{AttachFor: "90s", PendingFor: "1h", RunbookBaseURL: "https://x.example/r/"}))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("promtool check rules (custom options): %v\n%s", err, out)
	}
}

// TestPromtoolUnitTests feeds synthetic kube-state-metrics series to the rules with
// `promtool test rules`: firing and quiet cases of every alert, a node that recovers,
// a node that disappears, and two attachments on one node.
func TestPromtoolUnitTests(t *testing.T) {
	bin := promtool(t)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "rules.yaml"), render(t, FormatRules, Options{}), 0o644); err != nil {
		t.Fatal(err)
	}
	tests, err := filepath.Glob(filepath.Join(testdata, "*_test.yaml"))
	if err != nil || len(tests) < 3 {
		t.Fatalf("want the promtool test files under %s, found %v (%v)", testdata, tests, err)
	}
	args := []string{"test", "rules"}
	for _, src := range tests {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(dir, filepath.Base(src))
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, dst)
	}
	out, err := exec.Command(bin, args...).CombinedOutput()
	if err != nil {
		t.Fatalf("promtool test rules: %v\n%s", err, out)
	}
	if n := strings.Count(string(out), "SUCCESS"); n != len(tests) {
		t.Fatalf("promtool reported %d successes for %d files:\n%s", n, len(tests), out)
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
