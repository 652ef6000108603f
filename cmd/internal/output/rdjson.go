package output

import (
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// The Reviewdog Diagnostic Format, rdjson: one DiagnosticResult, whose diagnostics
// reviewdog (-f=rdjson) turns into pull-request comments on the lines a diff
// touches. Only the fields of reviewdog's published schema are written (an older
// reviewdog rejects fields it does not know), so the related locations go into the
// message.
type (
	rdResult struct {
		Source      rdSource       `json:"source"`
		Severity    string         `json:"severity,omitempty"`
		Diagnostics []rdDiagnostic `json:"diagnostics"`
	}
	rdSource struct {
		Name string `json:"name"`
		URL  string `json:"url,omitempty"`
	}
	rdDiagnostic struct {
		Message  string     `json:"message"`
		Location rdLocation `json:"location"`
		Severity string     `json:"severity"`
		Source   *rdSource  `json:"source,omitempty"`
		Code     *rdCode    `json:"code,omitempty"`
	}
	rdCode struct {
		Value string `json:"value"`
		URL   string `json:"url,omitempty"`
	}
	rdLocation struct {
		Path  string   `json:"path"`
		Range *rdRange `json:"range,omitempty"`
	}
	rdRange struct {
		Start rdPosition  `json:"start"`
		End   *rdPosition `json:"end,omitempty"`
	}
	rdPosition struct {
		Line   int `json:"line"`
		Column int `json:"column,omitempty"`
	}
)

// WriteRDJSON writes the findings in reviewdog's rdjson format. Paths are relative
// to the working directory. Columns are converted to UTF-8 byte counts, as the format
// wants, where the source is at hand; the end of a range is exclusive there as it is
// in pvlint. Suppressed findings are left out: the format cannot mark them.
func WriteRDJSON(w io.Writer, rep *Report) error {
	findings, _ := active(rep.Findings)
	res := rdResult{Source: rdSource{Name: rep.Tool.Name, URL: rep.Tool.InformationURI}, Diagnostics: []rdDiagnostic{}}
	for _, f := range findings {
		d := rdDiagnostic{
			Message:  messageWithChain(f, rep.Dir),
			Location: rdLocation{Path: relativePath(f.Range.File, rep.Dir)},
			Severity: rdSeverity(severity(f)),
			Code:     &rdCode{Value: ruleID(f)},
		}
		if f.Range.Start.Line > 0 {
			src := rep.Sources[f.Range.File]
			r := &rdRange{Start: rdPosition{Line: int(f.Range.Start.Line), Column: byteColumn(src, f.Range.Start)}}
			if end := f.Range.End; end.Line >= f.Range.Start.Line && end.Line > 0 {
				r.End = &rdPosition{Line: int(end.Line), Column: byteColumn(src, end)}
			}
			d.Location.Range = r
		}
		res.Diagnostics = append(res.Diagnostics, d)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(res)
}

func rdSeverity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "ERROR"
	case lint.Warning:
		return "WARNING"
	}
	return "INFO"
}

// byteColumn is p's 1-based column in UTF-8 bytes. pvlint counts columns in code
// points; the position's byte offset gives the byte column when it agrees with the
// source (the line before it holds Column-1 characters). Otherwise, or without the
// source, the code-point column is kept: the same for ASCII lines.
func byteColumn(src []byte, p graph.Pos) int {
	col := int(p.Column)
	off := int(p.Byte)
	if col < 1 || off < 0 || off > len(src) {
		return col
	}
	start := off
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	if utf8.RuneCount(src[start:off]) != col-1 {
		return col
	}
	return off - start + 1
}
