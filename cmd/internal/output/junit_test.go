package output

import (
	"bytes"
	"encoding/xml"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestJUnitCounts decodes the XML as a dashboard would: counts per suite and in total
// match the cases, a clean rule has a passing case, a parse error is an error, and a
// rule failure the run survived is an error of the "pvlint" suite.
func TestJUnitCounts(t *testing.T) {
	clean := &lint.Rule{ID: "PVL992", Name: "clean-rule", Severity: lint.Warning, Summary: "never fires here"}
	parse := &lint.Rule{ID: "PVL000", Name: "parse-error", Severity: lint.Error}
	rep := sample()
	rep.Rules = append(rep.Rules, clean, parse)
	rep.Findings = append(rep.Findings, lint.Finding{Rule: parse, Severity: lint.Error, Message: "bad \x01 YAML",
		Range: graph.Range{File: "x.yaml", Start: graph.Pos{Line: 3, Column: 1}}})
	rep.InternalErrors = []string{"internal error in rule PVL997 boom: boom\ngoroutine 1 [running]:"}
	var b bytes.Buffer
	if err := WriteJUnit(&b, rep); err != nil {
		t.Fatal(err)
	}
	var doc junitSuites
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("not XML: %v\n%s", err, b.String())
	}
	type suite struct {
		Name                    string
		Tests, Failures, Errors int
	}
	var got []suite
	for _, s := range doc.Suites {
		got = append(got, suite{s.Name, s.Tests, s.Failures, s.Errors})
	}
	want := []suite{
		{"PVL990 test-parse", 1, 1, 0},
		{"PVL991 test-claim", 2, 1, 0}, // the note passes
		{"PVL992 clean-rule", 1, 0, 0},
		{"PVL000 parse-error", 1, 0, 1},
		{"pvlint", 1, 0, 1},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("suites (-want +got):\n%s", d)
	}
	if doc.Tests != 6 || doc.Failures != 2 || doc.Errors != 2 {
		t.Errorf("totals: %d tests, %d failures, %d errors", doc.Tests, doc.Failures, doc.Errors)
	}
	if c := doc.Suites[2].Cases[0]; c.Name != "no findings: never fires here" || c.Failure != nil {
		t.Errorf("clean rule case = %+v", c)
	}
	if e := doc.Suites[3].Cases[0].Error; e == nil || e.Message != "bad   YAML" || e.Type != "error" {
		t.Errorf("parse error case = %+v", doc.Suites[3].Cases[0])
	}
	if e := doc.Suites[4].Cases[0].Error; e == nil || e.Message != "internal error in rule PVL997 boom: boom" {
		t.Errorf("internal error case = %+v", doc.Suites[4].Cases[0])
	}
}
