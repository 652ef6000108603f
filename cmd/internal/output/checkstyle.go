package output

import (
	"encoding/xml"
	"io"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// The Checkstyle XML report, which reviewdog (-f=checkstyle), Jenkins' Warnings Next
// Generation plugin and many CI dashboards read: one <file> per file in the order
// the findings come, one <error> per finding with line, column, severity
// (error, warning, info), message and source (pvlint.<rule ID>).
type (
	csReport struct {
		XMLName xml.Name `xml:"checkstyle"`
		Version string   `xml:"version,attr"`
		Files   []csFile `xml:"file"`
	}
	csFile struct {
		Name   string    `xml:"name,attr"`
		Errors []csError `xml:"error"`
	}
	csError struct {
		Line     int    `xml:"line,attr"`
		Column   int    `xml:"column,attr,omitempty"`
		Severity string `xml:"severity,attr"`
		Message  string `xml:"message,attr"`
		Source   string `xml:"source,attr"`
	}
)

// WriteCheckstyle writes a Checkstyle report. Paths are relative to the working
// directory, as reviewdog matches them against the diff. Checkstyle has no related
// locations or accepted findings: the chain is appended to the message, one
// location a line, and suppressed findings are left out.
func WriteCheckstyle(w io.Writer, rep *Report) error {
	findings, _ := active(rep.Findings)
	doc := csReport{Version: "4.3", Files: []csFile{}}
	index := map[string]int{}
	for _, f := range findings {
		name := relativePath(f.Range.File, rep.Dir)
		i, ok := index[name]
		if !ok {
			i = len(doc.Files)
			index[name] = i
			doc.Files = append(doc.Files, csFile{Name: name})
		}
		doc.Files[i].Errors = append(doc.Files[i].Errors, csError{
			Line:     max(int(f.Range.Start.Line), 1),
			Column:   int(f.Range.Start.Column),
			Severity: csSeverity(severity(f)),
			Message:  messageWithChain(f, rep.Dir),
			Source:   "pvlint." + ruleID(f),
		})
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

func csSeverity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "info"
}

// messageWithChain is the finding's message with its rule, variant and related
// locations, for formats that have a message and nothing else to put them in.
func messageWithChain(f lint.Finding, dir string) string {
	var b strings.Builder
	b.WriteString(clean(f.Message))
	b.WriteString(" [" + ruleID(f) + " " + ruleName(f))
	if f.Variant != "" {
		b.WriteString(", variant " + clean(f.Variant))
	}
	b.WriteString("]")
	for _, rel := range f.Related {
		loc := "<unknown>"
		if rel.Range.IsValid() {
			r := rel.Range
			r.File = relativePath(r.File, dir)
			loc = clean(r.String())
		}
		b.WriteString("\n  " + loc + ": " + clean(rel.Message))
	}
	return b.String()
}
