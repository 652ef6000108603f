package output

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// The JUnit XML report, in the common dialect that Jenkins, GitLab (artifacts:reports:
// junit), Azure DevOps and CircleCI read.
type (
	junitSuites struct {
		XMLName  xml.Name     `xml:"testsuites"`
		Name     string       `xml:"name,attr"`
		Tests    int          `xml:"tests,attr"`
		Failures int          `xml:"failures,attr"`
		Errors   int          `xml:"errors,attr"`
		Time     string       `xml:"time,attr"`
		Suites   []junitSuite `xml:"testsuite"`
	}
	junitSuite struct {
		Name     string      `xml:"name,attr"`
		Tests    int         `xml:"tests,attr"`
		Failures int         `xml:"failures,attr"`
		Errors   int         `xml:"errors,attr"`
		Skipped  int         `xml:"skipped,attr"`
		Time     string      `xml:"time,attr"`
		Cases    []junitCase `xml:"testcase"`
	}
	junitCase struct {
		Name      string        `xml:"name,attr"`
		ClassName string        `xml:"classname,attr"`
		File      string        `xml:"file,attr,omitempty"`
		Line      int           `xml:"line,attr,omitempty"`
		Time      string        `xml:"time,attr"`
		Failure   *junitProblem `xml:"failure"`
		Error     *junitProblem `xml:"error"`
		Skipped   *junitSkipped `xml:"skipped"`
		SystemOut *junitOutput  `xml:"system-out"`
	}
	junitSkipped struct {
		Message string `xml:"message,attr"`
	}
	junitOutput struct {
		Body string `xml:",cdata"`
	}
	junitProblem struct {
		Message string `xml:"message,attr"`
		Type    string `xml:"type,attr"`
		Body    string `xml:",cdata"`
	}
)

// WriteJUnit writes a JUnit XML report for CI test dashboards: one test suite per
// rule of the catalogue and one test case per finding. Errors and warnings fail their
// case, with the severity as the failure type and the location, chain and remediation
// as its text; a note is information, so its case passes with the same text as
// output. A rule with no finding has one passing case, so a dashboard shows the rules
// that were checked and stayed clean. A suppressed finding is a skipped case whose
// message is the suppression's reason. A parse error (PVL000) is a JUnit error rather
// than a failure: the input could not be linted at all. Rule failures the run survived
// are errors of a last suite named "pvlint".
func WriteJUnit(w io.Writer, rep *Report) error {
	doc := junitSuites{Name: rep.Tool.Name, Time: "0"}
	byRule := map[string][]lint.Finding{}
	var order []*lint.Rule
	known := map[string]bool{}
	for _, r := range rep.Rules {
		if !known[r.ID] {
			known[r.ID] = true
			order = append(order, r)
		}
	}
	for _, f := range rep.Findings {
		id := ruleID(f)
		if !known[id] {
			known[id] = true
			order = append(order, f.Rule) // nil for a finding without a rule
		}
		byRule[id] = append(byRule[id], f)
	}
	for _, r := range order {
		id, name := "PVL000", "parse-error"
		if r != nil {
			id, name = r.ID, r.Name
		}
		suite := junitSuite{Name: id + " " + name, Time: "0"}
		for _, f := range byRule[id] {
			suite.Cases = append(suite.Cases, junitFinding(f, rep.Dir))
		}
		if len(suite.Cases) == 0 {
			summary := ""
			if r != nil {
				summary = r.Summary
			}
			suite.Cases = []junitCase{{Name: "no findings: " + summary, ClassName: id, Time: "0"}}
		}
		doc.add(suite)
	}
	if len(rep.InternalErrors) > 0 {
		suite := junitSuite{Name: rep.Tool.Name, Time: "0"}
		for _, msg := range rep.InternalErrors {
			first, _, _ := strings.Cut(msg, "\n")
			suite.Cases = append(suite.Cases, junitCase{Name: clean(first), ClassName: rep.Tool.Name, Time: "0",
				Error: &junitProblem{Message: clean(first), Type: "internal-error", Body: xmlText(msg)}})
		}
		doc.add(suite)
	}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// add appends a suite, counting its cases into the suite and the document.
func (d *junitSuites) add(s junitSuite) {
	for _, c := range s.Cases {
		s.Tests++
		switch {
		case c.Failure != nil:
			s.Failures++
		case c.Error != nil:
			s.Errors++
		case c.Skipped != nil:
			s.Skipped++
		}
	}
	d.Tests += s.Tests
	d.Failures += s.Failures
	d.Errors += s.Errors
	d.Suites = append(d.Suites, s)
}

// junitFinding is one failed case. Its name starts with the location so that two
// findings of one rule never share a name, which dashboards would merge.
func junitFinding(f lint.Finding, dir string) junitCase {
	at := f.Range
	at.File = relativePath(at.File, dir)
	msg := f.Message
	if v := variantTag(f); v != "" {
		msg += " (" + v + ")"
	}
	var body strings.Builder
	body.WriteString(at.String() + ": " + severity(f).String() + ": " + msg + "\n")
	for _, rel := range f.Related {
		r := rel.Range
		r.File = relativePath(r.File, dir)
		body.WriteString("    " + r.String() + ": " + rel.Message + "\n")
	}
	if f.Rule != nil && f.Rule.Remediation != "" {
		body.WriteString("Remediation: " + f.Rule.Remediation + "\n")
	}
	c := junitCase{
		Name:      clean(at.String() + ": " + msg),
		ClassName: ruleID(f),
		File:      clean(at.File),
		Line:      int(at.Start.Line),
		Time:      "0",
	}
	p := &junitProblem{Message: clean(msg), Type: severity(f).String(), Body: xmlText(body.String())}
	switch {
	case f.Suppression != nil:
		c.Skipped = &junitSkipped{Message: clean("suppressed: " + f.Suppression.Justification)}
		c.SystemOut = &junitOutput{Body: p.Body}
	case ruleID(f) == "PVL000": // the catalogue's parse-error rule, a public ID
		c.Error = p
	case severity(f) == lint.Note:
		c.SystemOut = &junitOutput{Body: p.Body}
	default:
		c.Failure = p
	}
	return c
}

// xmlText drops what XML 1.0 cannot carry at all (most control characters, which
// encoding/xml would otherwise write as U+FFFD anyway) and keeps tabs and newlines.
func xmlText(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r < 0x20 && r != '\t' && r != '\n' && r != '\r' {
			return ' '
		}
		return r
	}, s)
}
