// Package manifest reads Kubernetes YAML and JSON manifests into graph resources,
// keeping the source range of every node. Documents that are valid YAML but not
// Kubernetes objects (CI workflows, values files, compose files) are skipped silently.
package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/pvlint/pvlint/parsers/graph"
	yaml "go.yaml.in/yaml/v3"
)

// Limits bound the work one input can cause; hostile pull requests must not hang or
// exhaust the linter. A zero field takes its value from DefaultLimits.
type Limits struct {
	MaxNodes int // nodes per document after alias expansion
	MaxDepth int // nesting depth
	MaxDocs  int // documents per file
	// MaxBytes bounds the bytes of a document's scalars (keys and values) after alias
	// expansion: one large scalar aliased thousands of times is a handful of nodes
	// but gigabytes of text for whatever reads the document (policies' input, output
	// formats). yaml.v3 bounds aliases by a ratio of nodes only.
	MaxBytes int
}

// DefaultLimits are generous for real manifests and small for attacks. MaxBytes is
// twice the default file-size limit: a document without aliases never reaches it.
var DefaultLimits = Limits{MaxNodes: 1_000_000, MaxDepth: 1000, MaxDocs: 100_000, MaxBytes: 64 << 20}

// orDefault fills the zero fields from DefaultLimits, so that setting one limit
// keeps the others.
func (l Limits) orDefault() Limits {
	if l.MaxNodes <= 0 {
		l.MaxNodes = DefaultLimits.MaxNodes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxDocs <= 0 {
		l.MaxDocs = DefaultLimits.MaxDocs
	}
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	return l
}

// Options control a parse.
type Options struct {
	Format  graph.Format // origin format for the resources (FormatYAML when empty)
	Variant string
	Limits  Limits
	// SkipConfigData leaves the block scalars under data, binaryData and stringData of
	// ConfigMaps and Secrets unread: those values become Unknown nodes (with their
	// ranges) instead of strings. Embedded configuration files are often most of a
	// repository's YAML and no built-in rule reads them; custom policies can, so the
	// caller sets this only when none is loaded. The local-path-provisioner's
	// ConfigMap (graph.LocalPathConfigName), which rules do read, is always kept.
	SkipConfigData bool
}

// Parse reads every document of one file. Each document is parsed on its own, so a
// broken document is a diagnostic at its line and the others are still read.
//
// The resources keep references into data (scalar text shares its memory instead of
// copying the file once more, which was a sixth of the heap of a large run): the
// caller must not modify data after the call.
func Parse(file string, data []byte, opts Options) ([]*graph.Resource, []graph.Diagnostic) {
	if opts.Format == "" {
		opts.Format = graph.FormatYAML
	}
	opts.Limits = opts.Limits.orDefault()
	if !utf8.Valid(data) {
		line, col := firstInvalidUTF8(data)
		return nil, []graph.Diagnostic{{Range: graph.Range{File: file, Start: graph.NewPos(line, col, 0)}, Message: "file is not valid UTF-8 text", Variant: opts.Variant}}
	}
	data = lineBreaks(bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")))
	var out []*graph.Resource
	var diags []graph.Diagnostic
	lines := graph.NewLines(data)
	docs := splitDocuments(data)
	if len(docs) > opts.Limits.MaxDocs {
		return nil, []graph.Diagnostic{{Range: graph.Range{File: file, Start: graph.Pos{Line: 1, Column: 1}}, Message: fmt.Sprintf("file has %d documents, more than the limit of %d", len(docs), opts.Limits.MaxDocs), Variant: opts.Variant}}
	}
	f := &fileState{file: file, data: data, text: unsafe.String(unsafe.SliceData(data), len(data)), lines: lines, mem: slabs.Get().(*slab)}
	defer slabs.Put(f.mem)
	for i, d := range docs {
		if d.directive {
			diags = append(diags, directiveDiagnostic(file, data, lines, d, opts.Variant))
			continue
		}
		rs, ds := parseDoc(f, d, i, opts)
		diags = append(diags, ds...)
		out = append(out, rs...)
	}
	return out, diags
}

// directiveDiagnostic is the PVL000 of a %YAML or %TAG directive. kubectl (and
// kustomize) split a stream at "---" lines before reading each document, so a
// directive is a document of its own, which they reject ("did not find expected
// <document start>"); pvlint reports it where kubectl fails and reads the documents
// after it as kubectl would (docs/yaml.md).
func directiveDiagnostic(file string, data []byte, lines graph.Lines, d document, variant string) graph.Diagnostic {
	r := lines.Range(file, data, d.line)
	name := "%"
	if f := bytes.Fields(data[r.Start.Byte:r.End.Byte]); len(f) > 0 {
		name = string(f[0])
	}
	return graph.Diagnostic{
		Range:   r,
		Message: fmt.Sprintf("YAML directive %s is not supported: kubectl splits the stream at \"---\" and cannot read a directive; remove it", name),
		Variant: variant,
	}
}

// document is one YAML document of a file: its bytes and where they start.
type document struct {
	start, end int // byte offsets in the file
	line       int // 1-based line of start
	col        int // characters before start on its line (only a JSON stream's values start within a line)
	json       bool
	// directive marks a %YAML or %TAG directive (line is its line): a PVL000, not a
	// document.
	directive bool
}

// splitDocuments cuts a stream into documents as kubectl does
// (k8s.io/apimachinery's YAMLOrJSONDecoder): a stream whose first character is "{"
// is a sequence of JSON values when it is one (jsonDocuments); anything else is YAML,
// cut at "---" and "..." marker lines. Markers inside block scalars cannot start at
// column 0, so a line scan is exact for valid YAML.
func splitDocuments(data []byte) []document {
	if docs := jsonDocuments(data); docs != nil {
		return docs
	}
	var docs []document
	cur := document{start: 0, line: 1}
	line := 1
	for off := 0; off < len(data); {
		nl := bytes.IndexByte(data[off:], '\n')
		end := len(data)
		if nl >= 0 {
			end = off + nl + 1
		}
		l := data[off:end]
		if isMarker(l, "---") || isMarker(l, "...") {
			cur.end = off
			docs = append(docs, cur)
			cur = document{start: off, line: line}
			if isMarker(l, "...") {
				cur = document{start: end, line: line + 1}
			}
		}
		off = end
		line++
	}
	cur.end = len(data)
	docs = append(docs, cur)
	// Drop empty leading/trailing chunks (no content other than comments/space); a
	// chunk whose content is only directives is the directive's diagnostic.
	keep := docs[:0] // in place: each kept document is at or before its index
	for _, d := range docs {
		content, directive := hasContent(data[d.start:d.end])
		switch {
		case content:
			keep = append(keep, d)
		case directive >= 0:
			keep = append(keep, document{start: d.start, end: d.end, line: d.line + directive, directive: true})
		}
	}
	return keep
}

func isMarker(l []byte, m string) bool {
	if !bytes.HasPrefix(l, []byte(m)) {
		return false
	}
	rest := l[len(m):]
	return len(rest) == 0 || rest[0] == ' ' || rest[0] == '\t' || rest[0] == '\n' || rest[0] == '\r'
}

// hasContent reports whether a chunk holds anything but blank lines, comments,
// markers and directives; directive is the index of its first line that starts with
// "%" (-1 for none). Markers and directives count only at the start of a line: an
// indented "---" is text.
func hasContent(b []byte) (content bool, directive int) {
	directive = -1
	for i := 0; len(b) > 0; i++ {
		l := b
		if j := bytes.IndexByte(b, '\n'); j >= 0 {
			l, b = b[:j], b[j+1:]
		} else {
			b = nil
		}
		t := bytes.Trim(l, " \t\r") // YAML's white space, not Unicode's
		switch {
		case len(t) == 0 || t[0] == '#':
		case l[0] == '%':
			if directive < 0 {
				directive = i
			}
		case isMarker(l, "---"):
			if rest := bytes.Trim(l[3:], " \t\r"); len(rest) > 0 && rest[0] != '#' {
				return true, directive
			}
		case isMarker(l, "..."):
		default:
			return true, directive
		}
	}
	return false, directive
}

// jsonDocuments reads a stream the way kubectl does when its first non-space
// character is "{": as a sequence of JSON values, so that objects written one after
// the other ({...}{...}) are each a document (a value that is not an object is a
// document that is not a Kubernetes object, as for kubectl). It returns nil (read the
// stream as YAML) when the stream is not a sequence of JSON values; kubectl would
// reject it, and the YAML reading reports the error or reads what YAML allows.
func jsonDocuments(data []byte) []document {
	first := 0
	for first < len(data) && (data[first] == ' ' || data[first] == '\t' || data[first] == '\n' || data[first] == '\r') {
		first++
	}
	if first == len(data) || data[first] != '{' {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var docs []document
	var lines graph.Lines
	for {
		var v json.RawMessage
		if err := dec.Decode(&v); err == io.EOF {
			break
		} else if err != nil || len(v) == 0 {
			return nil
		}
		end := int(dec.InputOffset())
		start := end - len(v)
		if lines == nil {
			lines = graph.NewLines(data)
		}
		line := lines.Line(start)
		docs = append(docs, document{start: start, end: end, line: line, col: utf8.RuneCount(data[lines[line-1]:start]), json: true})
	}
	return docs
}

var errLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// fileState is what the documents of one file share.
type fileState struct {
	file  string
	data  []byte
	text  string      // data as a string sharing its memory; the fast path's scalars are substrings of it
	lines graph.Lines // where each line starts
	mem   *slab       // where the fast path's nodes live
	conv  converter   // the converter of the document being read, one allocation per file
}

// parseDoc reads one document: with the fast path when it can (fast.go), otherwise
// with yaml.v3 and the converter. Besides an error that stops the document, a
// document read has the diagnostics of problems that do not (duplicate keys).
func parseDoc(f *fileState, d document, index int, opts Options) ([]*graph.Resource, []graph.Diagnostic) {
	file, data, lines := f.file, f.data, f.lines
	c := &f.conv
	*c = converter{file: file, src: data, lines: lines, lineOff: d.line - 1, colOff: d.col, last: lastPos{d.line, d.col + 1, d.start}, seed: lastPos{d.line, d.col + 1, d.start}, limits: opts.Limits, json: d.json}
	origin := graph.Origin{Format: opts.Format, File: file, Doc: index, Variant: opts.Variant}
	skip := opts.SkipConfigData && configDocument(data[d.start:d.end])
	if root, ok := fastDocument(c, f.text, f.mem, d, skip); ok {
		if root == nil || !isObject(root) {
			return nil, nil
		}
		return Objects(root, origin), nil
	}
	doc, err := yamlDocument(data, d)
	if err != nil {
		return nil, []graph.Diagnostic{*yamlError(file, data, lines, d, err, opts.Variant)}
	}
	if doc == nil || doc.Kind != yaml.MappingNode || !looksLikeObject(doc) {
		return nil, nil
	}
	obj, err := c.convert(doc, 0)
	if err != nil {
		return nil, []graph.Diagnostic{c.failure(d, err, opts.Variant)}
	}
	return Objects(obj, origin), c.diagnostics(opts.Variant)
}

// yamlDocument parses document d with yaml.v3 and returns its top-level node (nil
// for an empty document). (A JSON value that starts within a line has its first
// line's columns shifted by the converter: colOff.) In JSON a "\/" escape is "/"
// (kubectl reads a JSON stream with encoding/json), which YAML rejects, so each is
// read as "\\" here and the converter takes those strings' values from the source
// (converter.jsonString).
func yamlDocument(data []byte, d document) (*yaml.Node, error) {
	chunk := data[d.start:d.end]
	if d.json && bytes.Contains(chunk, []byte(`\/`)) {
		chunk = bytes.Clone(chunk)
		jsonSlashes(chunk)
	}
	var root yaml.Node
	if err := yaml.Unmarshal(chunk, &root); err != nil {
		return nil, err
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil, nil
		}
		doc = doc.Content[0]
	}
	return doc, nil
}

// jsonSlashes rewrites each "\/" escape in the strings of JSON text b to "\\", in
// place.
func jsonSlashes(b []byte) {
	in := false
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '"':
			in = !in
		case in && b[i] == '\\' && i+1 < len(b):
			if b[i+1] == '/' {
				b[i+1] = '\\'
			}
			i++
		}
	}
}

// failure is the diagnostic of an error that stopped the conversion of document d.
func (c *converter) failure(d document, err error, variant string) graph.Diagnostic {
	start := graph.NewPos(d.line, 1, 0)
	if e, ok := err.(*docError); ok {
		start = e.pos
	}
	return graph.Diagnostic{Range: graph.Range{File: c.file, Start: start}, Message: err.Error(), Variant: variant}
}

// diagnostics are the converter's diagnostics with the variant set.
func (c *converter) diagnostics(variant string) []graph.Diagnostic {
	for i := range c.diags {
		c.diags[i].Variant = variant
	}
	return c.diags
}

// looksLikeObject reports whether a mapping has string apiVersion and kind keys.
func looksLikeObject(m *yaml.Node) bool {
	var api, kind bool
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if v.Kind != yaml.ScalarNode || v.Value == "" {
			continue
		}
		switch k.Value {
		case "apiVersion":
			api = true
		case "kind":
			kind = true
		}
	}
	return api && kind
}

// isObject is looksLikeObject for a document the fast path read.
func isObject(m *graph.Node) bool {
	var api, kind bool
	for _, f := range m.Fields() {
		if v := f.Value; v.Kind == graph.Map || v.Kind == graph.List || v.Scalar == "" {
			continue
		}
		switch f.Key {
		case "apiVersion":
			api = true
		case "kind":
			kind = true
		}
	}
	return api && kind
}

// Objects turns one decoded object into resources: itself, or the items of a List.
// Other parsers (Helm, Kustomize, Terraform's kubernetes_manifest) reuse it.
func Objects(obj *graph.Node, origin graph.Origin) []*graph.Resource {
	kind := obj.Get("kind").Str()
	api := obj.Get("apiVersion").Str()
	if kind == "" || api == "" {
		return nil
	}
	if strings.HasSuffix(kind, "List") && obj.Get("items").Is(graph.List) {
		var out []*graph.Resource
		for _, it := range obj.Get("items").List() {
			if it.Is(graph.Map) {
				out = append(out, Objects(it, origin)...)
			}
		}
		return out
	}
	return []*graph.Resource{{
		APIVersion: api,
		Kind:       kind,
		Namespace:  obj.Get("metadata", "namespace").Str(),
		Name:       name(obj),
		Origin:     origin,
		Range:      obj.Range,
		Object:     obj,
	}}
}

func name(obj *graph.Node) string {
	if n := obj.Get("metadata", "name").Str(); n != "" {
		return n
	}
	return obj.Get("metadata", "generateName").Str()
}

func yamlError(file string, data []byte, lines graph.Lines, d document, err error, variant string) *graph.Diagnostic {
	msg := err.Error()
	line := 1
	if m := errLine.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	abs := d.line + line - 1
	col := firstNonSpace(data, lines, abs)
	return &graph.Diagnostic{
		Range:   graph.Range{File: file, Start: graph.NewPos(abs, col, 0)},
		Message: "invalid YAML: " + msg,
		Variant: variant,
	}
}

// firstNonSpace returns the 1-based column of the first non-blank character of line.
func firstNonSpace(data []byte, idx []int, line int) int {
	if line < 1 || line > len(idx) {
		return 1
	}
	start := idx[line-1]
	end := len(data)
	if line < len(idx) {
		end = idx[line]
	}
	for i, c := range data[start:end] {
		if c != ' ' && c != '\t' {
			return utf8.RuneCount(data[start:start+i]) + 1
		}
	}
	return 1
}

func firstInvalidUTF8(data []byte) (line, col int) {
	line, col = 1, 1
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return line, col
		}
		if r == '\n' {
			line++
			col = 1
		} else {
			col++
		}
		i += size
	}
	return line, col
}

// lineBreaks turns each carriage return that is not followed by a line feed into a
// line feed. YAML counts a lone "\r" as a line break, as the YAML library does, while
// line numbers here count "\n": without this, positions in a file with old Mac line
// endings disagree with the library's. The byte length is unchanged, so every
// offset and column still points into the original content. Data without a lone
// "\r" is returned as is.
func lineBreaks(data []byte) []byte {
	var out []byte
	for i, c := range data {
		if c != '\r' || i+1 < len(data) && data[i+1] == '\n' {
			continue
		}
		if out == nil {
			out = bytes.Clone(data)
		}
		out[i] = '\n'
	}
	if out == nil {
		return data
	}
	return out
}
