package output

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/rules/lint"
)

// suppressedSample is the sample with its first finding (the error) accepted by a
// suppression.
func suppressedSample() *Report {
	rep := sample()
	rep.Findings[0].Suppression = &lint.Suppression{Kind: lint.InSource, Justification: "single replica by design"}
	return rep
}

// TestSuppressedFindings: reports that cannot mark a finding as accepted leave it out
// and count it; JUnit skips its case with the reason; SARIF keeps it after every
// unsuppressed finding when results must be cut.
func TestSuppressedFindings(t *testing.T) {
	write := func(f func(*bytes.Buffer, *Report) error) string {
		var b bytes.Buffer
		if err := f(&b, suppressedSample()); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	gh := write(func(b *bytes.Buffer, r *Report) error { return WriteGitHub(b, r) })
	if strings.Contains(gh, "::error") || !strings.HasSuffix(gh, "pvlint: 2 findings: 1 warning, 1 note (1 suppressed, not shown)\n") {
		t.Errorf("github:\n%s", gh)
	}
	md := write(func(b *bytes.Buffer, r *Report) error { return WriteMarkdown(b, r) })
	if strings.Contains(md, "| error |") || !strings.HasPrefix(md, "### pvlint: 2 findings: 1 warning, 1 note (1 suppressed, not shown)\n") {
		t.Errorf("markdown:\n%s", md)
	}
	var cq []map[string]any
	if err := json.Unmarshal([]byte(write(func(b *bytes.Buffer, r *Report) error { return WriteCodeQuality(b, r) })), &cq); err != nil || len(cq) != 2 || cq[0]["severity"] == "critical" {
		t.Errorf("codequality: %v, %v", err, cq)
	}
	var doc junitSuites
	if err := xml.Unmarshal([]byte(write(func(b *bytes.Buffer, r *Report) error { return WriteJUnit(b, r) })), &doc); err != nil {
		t.Fatal(err)
	}
	c := doc.Suites[1].Cases[0]
	if c.Skipped == nil || c.Skipped.Message != "suppressed: single replica by design" || c.Failure != nil || doc.Suites[1].Skipped != 1 || doc.Failures != 1 {
		t.Errorf("junit: case %+v, suite %+v", c, doc.Suites[1])
	}
	kept, dropped := mostSevere(suppressedSample().Findings, 2)
	if dropped != 1 || kept[0].Suppression != nil || kept[1].Suppression != nil {
		t.Errorf("mostSevere kept %+v", kept)
	}
}
