package output

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestCheckstyleShape decodes the report as a Checkstyle reader does: one file
// element per file, in order, with line, severity, message and source per finding;
// suppressed findings are not there; the chain is in the message.
func TestCheckstyleShape(t *testing.T) {
	rep := sample()
	rep.Findings[2].Range.File = "/work/repo/k8s/abs.yaml"
	rep.Findings = append(rep.Findings, lint.Finding{Rule: rep.Findings[0].Rule, Message: "accepted", Range: rep.Findings[0].Range,
		Suppression: &lint.Suppression{Kind: lint.InSource, Justification: "ok"}})
	var b bytes.Buffer
	if err := WriteCheckstyle(&b, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct {
			Name   string `xml:"name,attr"`
			Errors []struct {
				Line     int    `xml:"line,attr"`
				Column   int    `xml:"column,attr"`
				Severity string `xml:"severity,attr"`
				Message  string `xml:"message,attr"`
				Source   string `xml:"source,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	type row struct {
		File, Severity, Source string
		Line                   int
	}
	var got []row
	for _, f := range doc.Files {
		for _, e := range f.Errors {
			got = append(got, row{f.Name, e.Severity, e.Source, e.Line})
		}
	}
	want := []row{
		{"k8s/web.yaml", "error", "pvlint.PVL991", 6},
		{"<stdin>", "info", "pvlint.PVL991", 2},
		{"k8s/abs.yaml", "warning", "pvlint.PVL990", 1},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("errors (-want +got):\n%s", d)
	}
	if msg := doc.Files[0].Errors[0].Message; !strings.Contains(msg, "\n  k8s/pvc.yaml:1:1: PVC data") {
		t.Errorf("message lacks the chain: %q", msg)
	}
	// A clean run is a valid, empty report.
	b.Reset()
	var empty struct {
		Files []struct{} `xml:"file"`
	}
	if err := WriteCheckstyle(&b, &Report{}); err != nil || xml.Unmarshal(b.Bytes(), &empty) != nil || len(empty.Files) != 0 {
		t.Errorf("empty report: %v\n%s", err, b.String())
	}
}

// TestCheckstyleHostile: control characters and XML syntax from the inputs stay
// inside the attribute.
func TestCheckstyleHostile(t *testing.T) {
	rep := &Report{Findings: []lint.Finding{{Message: "a\x1b[31m\"/><x>&\x00", Range: graph.Range{File: "a\"<b>.yaml", Start: graph.Pos{Line: 1, Column: 1}}}}}
	var b bytes.Buffer
	if err := WriteCheckstyle(&b, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Files []struct {
			Name   string `xml:"name,attr"`
			Errors []struct {
				Message string `xml:"message,attr"`
			} `xml:"error"`
		} `xml:"file"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	if len(doc.Files) != 1 || doc.Files[0].Name != "a\"<b>.yaml" || strings.ContainsAny(doc.Files[0].Errors[0].Message, "\x1b\x00") {
		t.Errorf("decoded %+v", doc)
	}
}

// TestRDJSONShape: reviewdog's fields, severities in capitals, columns in UTF-8
// bytes where a line holds multi-byte characters, suppressed findings left out.
func TestRDJSONShape(t *testing.T) {
	src := []byte("# é\nname: \"données\" # ok\n")
	start := graph.Pos{Line: 2, Column: 16, Byte: int32(strings.Index(string(src), " # ok"))}
	rep := &Report{
		Tool:    Tool{Name: "pvlint", InformationURI: "https://example.com"},
		Sources: map[string][]byte{"a.yaml": src},
		Findings: []lint.Finding{
			{Rule: &lint.Rule{ID: "PVL001", Name: "x", Severity: lint.Warning}, Message: "m",
				Range: graph.Range{File: "a.yaml", Start: start, End: graph.Pos{Line: 2, Column: 17, Byte: start.Byte + 1}}},
			{Rule: &lint.Rule{ID: "PVL002", Name: "y", Severity: lint.Error}, Message: "accepted",
				Range: graph.Range{File: "a.yaml", Start: start}, Suppression: &lint.Suppression{Kind: lint.InSource, Justification: "ok"}},
		},
	}
	var b bytes.Buffer
	if err := WriteRDJSON(&b, rep); err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"source": map[string]any{"name": "pvlint", "url": "https://example.com"},
		"diagnostics": []any{map[string]any{
			"message":  "m [PVL001 x]",
			"severity": "WARNING",
			"code":     map[string]any{"value": "PVL001"},
			"location": map[string]any{"path": "a.yaml", "range": map[string]any{
				"start": map[string]any{"line": 2.0, "column": 17.0}, // "données" has one two-byte letter
				"end":   map[string]any{"line": 2.0, "column": 18.0},
			}},
		}},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rdjson (-want +got):\n%s", d)
	}
}

func TestByteColumn(t *testing.T) {
	src := []byte("ab\nxé€z\n")
	for _, tt := range []struct {
		p    graph.Pos
		want int
	}{
		{graph.Pos{Line: 1, Column: 2, Byte: 1}, 2},
		{graph.Pos{Line: 2, Column: 4, Byte: 9}, 7},  // z, after é (2 bytes) and € (3 bytes)
		{graph.Pos{Line: 2, Column: 4, Byte: 4}, 4},  // an offset that disagrees: kept
		{graph.Pos{Line: 2, Column: 4, Byte: 99}, 4}, // beyond the source: kept
	} {
		if got := byteColumn(src, tt.p); got != tt.want {
			t.Errorf("byteColumn(%+v) = %d, want %d", tt.p, got, tt.want)
		}
	}
	if got := byteColumn(nil, graph.Pos{Line: 3, Column: 5, Byte: 40}); got != 5 {
		t.Errorf("without source: %d", got)
	}
}
