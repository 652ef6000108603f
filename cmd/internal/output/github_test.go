package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestGitHubEscaping: a hostile message or file name can neither end the command nor
// start another one; the runner decodes what is escaped back to the original text.
func TestGitHubEscaping(t *testing.T) {
	rule := &lint.Rule{ID: "PVL990", Name: "a,b:c", Severity: lint.Warning}
	rep := &Report{Rules: []*lint.Rule{rule}, Findings: []lint.Finding{{
		Rule: rule, Severity: lint.Warning, Message: "100% bad\r\n::error::injected",
		Range: graph.Range{File: "dir,x/a:b.yaml", Start: graph.Pos{Line: 2, Column: 4}, End: graph.Pos{Line: 4, Column: 1}},
	}}}
	var b bytes.Buffer
	if err := WriteGitHub(&b, rep); err != nil {
		t.Fatal(err)
	}
	want := "::warning file=dir%2Cx/a%3Ab.yaml,line=2,col=4,endLine=4,title=PVL990 a%2Cb%3Ac::100%25 bad  ::error::injected\n" +
		"pvlint: 1 finding: 1 warning\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
	if got := ghData("50%\r\nx"); got != "50%25%0D%0Ax" {
		t.Errorf("ghData = %q", got)
	}
	if got := ghProperty("a:b,c%\n"); got != "a%3Ab%2Cc%25%0A" {
		t.Errorf("ghProperty = %q", got)
	}
}

// TestGitHubSummary: past ten annotations of a level the summary line says how many
// GitHub shows; every finding is still printed.
func TestGitHubSummary(t *testing.T) {
	rule := &lint.Rule{ID: "PVL990", Name: "x", Severity: lint.Error}
	rep := &Report{Rules: []*lint.Rule{rule}}
	for i := range 12 {
		rep.Findings = append(rep.Findings, lint.Finding{Rule: rule, Severity: lint.Error, Message: fmt.Sprint("m", i),
			Range: graph.Range{File: "a.yaml", Start: graph.Pos{Line: int32(i + 1), Column: 1}}})
	}
	for i := range 3 {
		rep.Findings = append(rep.Findings, lint.Finding{Rule: rule, Severity: lint.Note, Message: fmt.Sprint("n", i),
			Range: graph.Range{File: "a.yaml", Start: graph.Pos{Line: int32(20 + i), Column: 1}}})
	}
	var b bytes.Buffer
	if err := WriteGitHub(&b, rep); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 16 || strings.Count(b.String(), "::error ") != 12 || strings.Count(b.String(), "::notice ") != 3 {
		t.Fatalf("output:\n%s", b.String())
	}
	want := "pvlint: 15 findings: 12 errors, 3 notes; GitHub shows only the first 10 of 12 errors as annotations: every finding is listed above, and all of them in the SARIF report"
	if lines[15] != want {
		t.Errorf("summary = %q\nwant      %q", lines[15], want)
	}
}
