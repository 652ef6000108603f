package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func runArgs(args ...string) (code int, stdout, stderr string) {
	return runCase(cliCase{args: args})
}

// TestAlertsOutput checks that the flags reach the rule set: the default run and a
// run with every flag print exactly rules/alerts' golden files for the same options.
func TestAlertsOutput(t *testing.T) {
	cases := []struct {
		golden string
		args   []string
	}{
		{"prometheusrule.golden.yaml", []string{"alerts"}},
		{"rules.golden.yaml", []string{"alerts", "--format", "rules"}},
		{"prometheusrule-options.golden.yaml", []string{"alerts",
			"--namespace", "observability", "--name=storage-alerts",
			"--label", "release=kube-prometheus-stack", "--label", "app.kubernetes.io/part-of=pvlint",
			"--attach-for", "90s", "--container-creating-for", "10m", "--pending-for=1h",
			"--runbook-base-url", "https://runbooks.example.com/pvlint/", "--format", "prometheusrule"}},
	}
	for _, c := range cases {
		want, err := os.ReadFile(filepath.Join(repoRoot, "testdata", "alerts", c.golden))
		if err != nil {
			t.Fatal(err)
		}
		code, stdout, stderr := runArgs(c.args...)
		if code != ExitOK || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", c.args, code, stderr)
		}
		if d := cmp.Diff(string(want), stdout); d != "" {
			t.Errorf("%v differs from %s (-want +got):\n%s", c.args, c.golden, d)
		}
	}
}

func TestAlertsErrors(t *testing.T) {
	cases := []struct {
		args   []string
		stderr string
	}{
		{[]string{"alerts", "extra"}, `pvlint: alerts takes no arguments, got "extra" (see ` + "`pvlint alerts --help`)\n"},
		{[]string{"alerts", "--colour", "x"}, "pvlint: unknown flag --colour for alerts (see `pvlint alerts --help`)\n"},
		{[]string{"alerts", "--attach-for"}, "pvlint: flag --attach-for needs a value (DURATION)\n"},
		{[]string{"alerts", "--attach-for", "soon"}, "pvlint: invalid attach duration \"soon\": want a Prometheus duration such as 2m or 1h30m\n"},
		{[]string{"alerts", "--format", "json"}, "pvlint: --format: unknown alerts format \"json\" (want prometheusrule or rules)\n"},
		{[]string{"alerts", "--label", "release"}, "pvlint: --label: invalid label \"release\" (want KEY=VALUE, e.g. release=kube-prometheus-stack)\n"},
		{[]string{"alerts", "--label", "team=a b"}, "pvlint: invalid value \"a b\" for label \"team\": want letters, digits, '-', '_' and '.' (at most 63)\n"},
		{[]string{"alerts", "--namespace", "Monitoring"}, "pvlint: invalid namespace \"Monitoring\": want a DNS-1123 label (lower-case letters, digits and '-')\n"},
		{[]string{"alerts", "--name="}, "pvlint: --name: empty value\n"},
		{[]string{"alerts", "--label", "release=x", "--format", "rules", "--namespace", "m"},
			"pvlint: --label, --namespace set PrometheusRule metadata, which a plain rules file has not (drop them or use --format prometheusrule)\n"},
		{[]string{"alerts", "--runbook-base-url", "runbooks/"}, "pvlint: invalid runbook base URL \"runbooks/\": want an absolute http(s) URL\n"},
	}
	for _, c := range cases {
		code, stdout, stderr := runArgs(c.args...)
		if code != ExitError || stdout != "" {
			t.Errorf("%v: exit %d, stdout %q; want exit %d and no output", c.args, code, stdout, ExitError)
		}
		if stderr != c.stderr {
			t.Errorf("%v: stderr\n%q\nwant\n%q", c.args, stderr, c.stderr)
		}
	}
}

func TestAlertsHelp(t *testing.T) {
	code, stdout, _ := runArgs("alerts", "--help")
	if code != ExitOK {
		t.Fatalf("exit %d", code)
	}
	for _, f := range alertsFlags {
		if !strings.Contains(stdout, "--"+f.Name+" "+f.Arg) {
			t.Errorf("help lacks --%s:\n%s", f.Name, stdout)
		}
	}
	if !strings.Contains(stdout, "(default 2m)") || !strings.Contains(stdout, "promtool check rules /dev/stdin") {
		t.Errorf("help lacks the defaults or the promtool example:\n%s", stdout)
	}
}

// TestAlertsPromtool pipes the command's output into the real promtool, as the README
// shows: `pvlint alerts --format rules | promtool check rules /dev/stdin`.
func TestAlertsPromtool(t *testing.T) {
	bin, err := exec.LookPath("promtool")
	if err != nil {
		missingTool(t, "promtool (Debian's prometheus package)")
	}
	code, stdout, stderr := runArgs("alerts", "--format", "rules", "--attach-for", "3m")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	cmd := exec.Command(bin, "check", "rules", "/dev/stdin")
	cmd.Stdin = bytes.NewReader([]byte(stdout))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "SUCCESS: 3 rules found") {
		t.Fatalf("promtool check rules: %v\n%s", err, out)
	}
}
