package alerts

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/rules/docs"
)

// runbookHeading is the section every runbook_url points at (RunbookAnchor is its
// GitHub anchor).
const runbookHeading = "## Alert and runbook\n"

// TestRunbookSections checks that every alert's runbook exists and shows the alert as
// printed: the explain page of its rule has an "Alert and runbook" section with the
// alert's name, expression, duration and severity. Until the page exists, the section
// waits in runbooks/<ID>.md; once the page has it, that file must go.
func TestRunbookSections(t *testing.T) {
	if "#"+strings.ReplaceAll(strings.ToLower(strings.TrimSpace(strings.TrimPrefix(runbookHeading, "## "))), " ", "-") != RunbookAnchor {
		t.Fatalf("heading %q does not have the anchor %q", runbookHeading, RunbookAnchor)
	}
	for _, r := range Rules(Options{}) {
		fragment := filepath.Join("runbooks", r.RuleID+".md")
		data, err := os.ReadFile(fragment)
		hasFragment := err == nil
		page := docs.Page(r.RuleID)
		var section string
		switch {
		case page != "" && hasFragment:
			t.Errorf("%s: rules/docs/%s.md exists: paste %s into it and delete %s", r.Alert, r.RuleID, fragment, fragment)
			continue
		case page != "":
			_, section, _ = strings.Cut(page, runbookHeading)
			if section == "" {
				t.Errorf("%s: rules/docs/%s.md lacks the %q section its runbook_url points at (print the alert with `pvlint alerts`)", r.Alert, r.RuleID, strings.TrimSpace(runbookHeading))
				continue
			}
		case hasFragment:
			section = strings.TrimPrefix(string(data), runbookHeading)
			if len(section) == len(data) {
				t.Errorf("%s: %s does not start with %q", r.Alert, fragment, runbookHeading)
			}
		default:
			t.Errorf("%s: no runbook: neither rules/docs/%s.md nor %s", r.Alert, r.RuleID, fragment)
			continue
		}
		if i := strings.Index(section, "\n## "); i >= 0 {
			section = section[:i]
		}
		var severity string
		for _, kv := range r.Labels {
			if kv[0] == "severity" {
				severity = kv[1]
			}
		}
		for _, want := range []string{
			"- alert: " + r.Alert + "\n",
			"  expr: |\n" + indent(r.Expr, 4) + "\n",
			"  for: " + r.For + "\n",
			"    severity: " + severity + "\n",
		} {
			if !strings.Contains(section, want) {
				t.Errorf("%s: the runbook section of %s does not show the alert as printed; want:\n%s", r.Alert, r.RuleID, want)
			}
		}
	}
}

func indent(s string, n int) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = strings.Repeat(" ", n) + l
		}
	}
	return strings.Join(lines, "\n")
}
