package manifest

import (
	"bytes"
	"fmt"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Document is one YAML document of a file as a node tree, whatever its shape.
type Document struct {
	Index int         // 0-based document index within the file
	Node  *graph.Node // the document's top-level value, with exact ranges
}

// Documents parses every non-empty document of a file into node trees with the same
// ranges, limits and error positions as Parse, but without requiring Kubernetes
// objects: other YAML formats that pvlint lints (Prometheus rules files) build their
// resources from these trees. A broken document is a diagnostic at its line; the
// others are still returned.
func Documents(file string, data []byte, opts Options) ([]Document, []graph.Diagnostic) {
	opts.Limits = opts.Limits.orDefault()
	if !utf8.Valid(data) {
		line, col := firstInvalidUTF8(data)
		return nil, []graph.Diagnostic{{Range: graph.Range{File: file, Start: graph.NewPos(line, col, 0)}, Message: "file is not valid UTF-8 text", Variant: opts.Variant}}
	}
	data = lineBreaks(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	lines := graph.NewLines(data)
	docs := splitDocuments(data)
	if len(docs) > opts.Limits.MaxDocs {
		return nil, []graph.Diagnostic{{Range: graph.Range{File: file, Start: graph.Pos{Line: 1, Column: 1}}, Message: fmt.Sprintf("file has %d documents, more than the limit of %d", len(docs), opts.Limits.MaxDocs), Variant: opts.Variant}}
	}
	var out []Document
	var diags []graph.Diagnostic
	for i, d := range docs {
		if d.directive {
			diags = append(diags, directiveDiagnostic(file, data, lines, d, opts.Variant))
			continue
		}
		top, err := yamlDocument(data, d)
		if err != nil {
			diags = append(diags, *yamlError(file, data, lines, d, err, opts.Variant))
			continue
		}
		if top == nil {
			continue
		}
		c := converter{file: file, src: data, lines: lines, lineOff: d.line - 1, colOff: d.col, last: lastPos{d.line, d.col + 1, d.start}, seed: lastPos{d.line, d.col + 1, d.start}, limits: opts.Limits, json: d.json}
		n, err := c.convert(top, 0)
		if err != nil {
			diags = append(diags, c.failure(d, err, opts.Variant))
			continue
		}
		diags = append(diags, c.diagnostics(opts.Variant)...)
		out = append(out, Document{Index: i, Node: n})
	}
	return out, diags
}
