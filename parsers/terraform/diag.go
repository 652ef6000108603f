package terraform

import (
	"fmt"
	"os"

	"github.com/hashicorp/hcl/v2"
	"github.com/pvlint/pvlint/parsers/graph"
)

// hclDiags records the errors of an HCL operation at their subject ranges.
func (m *module) hclDiags(sf *srcFile, diags hcl.Diagnostics) {
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		m.diags = append(m.diags, toDiag(m.fileOf(sf, d.Subject), d))
	}
}

func (m *module) fileOf(sf *srcFile, r *hcl.Range) *srcFile {
	if r != nil && sf != nil && r.Filename != sf.name {
		if f := m.files[r.Filename]; f != nil {
			return f
		}
	}
	return sf
}

func (m *module) diag(sf *srcFile, r hcl.Range, format string, args ...any) {
	m.diags = append(m.diags, graph.Diagnostic{Range: convRange(sf, r), Message: fmt.Sprintf(format, args...)})
}

func (m *module) diagAt(name, format string, args ...any) {
	m.diags = append(m.diags, graph.Diagnostic{
		Range:   graph.Range{File: name, Start: graph.Pos{Line: 1, Column: 1}},
		Message: fmt.Sprintf(format, args...),
	})
}

// toDiag turns an HCL diagnostic into a graph one at its subject.
func toDiag(sf *srcFile, d *hcl.Diagnostic) graph.Diagnostic {
	msg := lowerFirst(d.Summary)
	if d.Detail != "" {
		msg += ": " + d.Detail
	}
	var r graph.Range
	if d.Subject != nil {
		r = convRange(sf, *d.Subject)
	}
	if !r.IsValid() && sf != nil {
		r = graph.Range{File: sf.name, Start: graph.Pos{Line: 1, Column: 1}}
	}
	return graph.Diagnostic{Range: r, Message: msg}
}

// convRange converts an HCL range, recomputing columns as characters from the file's
// bytes (HCL counts grapheme clusters).
func convRange(sf *srcFile, r hcl.Range) graph.Range {
	if sf == nil || sf.lines == nil || r.Filename != sf.name {
		return graph.Range{File: r.Filename,
			Start: graph.NewPos(r.Start.Line, r.Start.Column, r.Start.Byte),
			End:   graph.NewPos(r.End.Line, r.End.Column, r.End.Byte)}
	}
	return sf.lines.rng(r.Start.Byte, r.End.Byte)
}

func lowerFirst(s string) string {
	if len(s) > 1 && s[0] >= 'A' && s[0] <= 'Z' && !(s[1] >= 'A' && s[1] <= 'Z') {
		return string(s[0]+'a'-'A') + s[1:]
	}
	return s
}

func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}
