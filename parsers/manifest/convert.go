package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
	yaml "go.yaml.in/yaml/v3"
)

// converter turns yaml.v3 nodes into graph nodes with exact ranges, expanding aliases
// within a node budget.
type converter struct {
	file    string
	src     []byte
	lines   graph.Lines // where each line of src starts
	lineOff int         // lines before the document in the file
	limits  Limits
	count   int
	colOff  int  // characters before the document on its first line (a JSON stream's values)
	json    bool // the document is a JSON value of a JSON stream (see yamlDocument)
	// diags are the problems that do not stop the document being read (duplicate
	// keys), with the document's variant left to the caller.
	diags []graph.Diagnostic
	bytes int            // scalar bytes so far, aliases expanded
	dupAt map[int32]bool // the byte offsets of the duplicate keys reported
	last  lastPos
	seed  lastPos // the document's start
}

// scalar counts a scalar's bytes against the document's budget; past it, the
// document stops with a PVL000 at the scalar (or the alias) that crossed it.
func (c *converter) scalar(value string, at graph.Pos) error {
	c.bytes += len(value)
	if c.bytes > c.limits.MaxBytes {
		return &docError{pos: at, expansion: true, msg: fmt.Sprintf("document expands to more than %d bytes of scalars (YAML alias expansion limit, --limit yaml-expanded-size)", c.limits.MaxBytes)}
	}
	return nil
}

func (c *converter) convert(y *yaml.Node, depth int) (*graph.Node, error) {
	c.count++
	if c.count > c.limits.MaxNodes {
		return nil, fmt.Errorf("document expands to more than %d nodes (YAML alias expansion limit)", c.limits.MaxNodes)
	}
	if depth > c.limits.MaxDepth {
		return nil, fmt.Errorf("document nests deeper than %d levels", c.limits.MaxDepth)
	}
	start := c.pos(y.Line, y.Column)
	switch y.Kind {
	case yaml.AliasNode:
		if y.Alias == nil {
			return &graph.Node{Kind: graph.Null, Range: c.rng(start, start)}, nil
		}
		n, err := c.convert(y.Alias, depth+1)
		if de, ok := err.(*docError); ok && de.expansion {
			// Past the expansion limit through an alias: the alias is where the
			// document grew.
			de.pos = start
		}
		if err != nil {
			return nil, err
		}
		// The alias's value lives at the anchor; report it at the alias.
		cp := *n
		cp.Range = c.rng(start, c.advance(start, len("*"+y.Value)))
		return &cp, nil
	case yaml.MappingNode:
		n := &graph.Node{Kind: graph.Map, Contents: &graph.Contents{Fields: make([]graph.Field, 0, len(y.Content)/2)}}
		m := mapBuilder{n: n}
		end := c.advance(start, 1)
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			val, err := c.convert(v, depth+1)
			if err != nil {
				return nil, err
			}
			if k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge" {
				if err := c.merge(&m, val, k); err != nil {
					return nil, err
				}
				end = val.Range.End
				continue
			}
			key, err := c.key(k)
			if err != nil {
				return nil, err
			}
			ks := c.pos(k.Line, k.Column)
			if err := c.scalar(k.Value, ks); err != nil {
				return nil, err
			}
			keyRange := c.rng(ks, c.scalarEnd(k.Style, k.Value, ks))
			if k.Kind == yaml.AliasNode {
				keyRange = c.rng(ks, c.advance(ks, len("*"+k.Value)))
			} else if c.json && k.Style&yaml.DoubleQuotedStyle != 0 {
				key = c.jsonString(keyRange, key)
			}
			if first := m.set(graph.Field{Key: key, KeyRange: keyRange, Value: val}, true); first != nil {
				c.duplicate(key, first, keyRange)
			}
			end = later(end, val.Range.End)
		}
		if y.Style&yaml.FlowStyle != 0 {
			end = c.closeFlow(end, '}')
		}
		n.Range = c.rng(start, end)
		return n, nil
	case yaml.SequenceNode:
		n := &graph.Node{Kind: graph.List, Contents: &graph.Contents{Items: make([]*graph.Node, 0, len(y.Content))}}
		end := c.advance(start, 1)
		for _, it := range y.Content {
			v, err := c.convert(it, depth+1)
			if err != nil {
				return nil, err
			}
			n.AddItems(v)
			end = later(end, v.Range.End)
		}
		if y.Style&yaml.FlowStyle != 0 {
			end = c.closeFlow(end, ']')
		}
		n.Range = c.rng(start, end)
		return n, nil
	case yaml.ScalarNode:
		if err := c.scalar(y.Value, start); err != nil {
			return nil, err
		}
		n := &graph.Node{Kind: scalarKind(y), Scalar: y.Value}
		n.Range = c.rng(start, c.scalarEnd(y.Style, y.Value, start))
		if c.json && y.Style&yaml.DoubleQuotedStyle != 0 {
			n.Scalar = c.jsonString(n.Range, n.Scalar)
		}
		return n, nil
	}
	return &graph.Node{Kind: graph.Null, Range: c.rng(start, start)}, nil
}

// A mapping holds one value per key, the one kubectl sends: sigs.k8s.io/yaml (yaml.v2
// rules) applies the entries of a mapping in order, each one overwriting what an
// earlier entry set, a "<<" merge key writing the keys of the merged mapping(s) at its
// place. So a key after a merge key overrides the merged value, and one before it is
// overridden by it; of a list of merged mappings, the earlier ones win. A key written
// twice by the mapping itself is a duplicate: kubectl's conversion keeps the last
// value, strict field validation rejects the object, so it is a PVL000 diagnostic at
// the second key and the last value is read (docs/yaml.md).

// mapBuilder collects the fields of one mapping, one per key.
type mapBuilder struct {
	n     *graph.Node
	index map[string]int // key → field, once the mapping is large
	// merged marks the fields a merge key wrote last; nil until the mapping has a
	// merge key, every field being the mapping's own before that.
	merged []bool
}

// set writes field f: a new key is appended, a present one takes f's key range and
// value in place. own marks a key written by the mapping itself; set returns the key
// range of the earlier own entry when f is an own key written twice.
func (m *mapBuilder) set(f graph.Field, own bool) *graph.Range {
	fs := m.n.Fields()
	i := -1
	if m.index != nil {
		if j, ok := m.index[f.Key]; ok {
			i = j
		}
	} else {
		for j := range fs {
			if fs[j].Key == f.Key {
				i = j
				break
			}
		}
	}
	if !own && m.merged == nil {
		m.merged = make([]bool, len(fs), len(fs)+8)
	}
	if i >= 0 {
		var dup *graph.Range
		if own && (m.merged == nil || !m.merged[i]) {
			r := fs[i].KeyRange
			dup = &r
		}
		fs[i] = f
		if m.merged != nil {
			m.merged[i] = !own
		}
		return dup
	}
	m.n.AddFields(f)
	if m.merged != nil {
		m.merged = append(m.merged, !own)
	}
	if m.index != nil {
		m.index[f.Key] = len(fs)
	} else if len(fs)+1 > 16 {
		m.index = make(map[string]int, 2*len(fs))
		for j, g := range m.n.Fields() {
			m.index[g.Key] = j
		}
	}
	return nil
}

// merge applies a "<<" merge key: the fields of the merged mapping, or of a list of
// mappings with the earlier ones winning. Anything else is an error, as it is for
// kubectl.
func (c *converter) merge(m *mapBuilder, src *graph.Node, k *yaml.Node) error {
	var maps []*graph.Node
	switch src.Kind {
	case graph.Map:
		maps = []*graph.Node{src}
	case graph.List:
		maps = src.Items()
	}
	for i := len(maps) - 1; i >= 0; i-- {
		if maps[i].Kind != graph.Map {
			return c.errorAt(k, "a merge key (<<) must merge a mapping or a list of mappings")
		}
		for _, f := range maps[i].Fields() {
			m.set(f, false)
		}
	}
	if len(maps) == 0 && src.Kind != graph.Map {
		return c.errorAt(k, "a merge key (<<) must merge a mapping or a list of mappings")
	}
	return nil
}

// key is the field name of mapping key k: a scalar's value, an alias's scalar value.
// A mapping or sequence as a key has no field name in Kubernetes' JSON: kubectl
// rejects it, and so does pvlint.
func (c *converter) key(key *yaml.Node) (string, error) {
	k := key
	for k.Kind == yaml.AliasNode && k.Alias != nil {
		k = k.Alias
	}
	if k.Kind != yaml.ScalarNode {
		return "", c.errorAt(key, "a mapping or sequence used as a mapping key (kubectl rejects it: a Kubernetes field name is a string)")
	}
	if k.Style&(yaml.DoubleQuotedStyle|yaml.SingleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		return k.Value, nil
	}
	// A plain key that YAML reads as a number, a boolean or null: kubectl's
	// conversion to JSON (sigs.k8s.io/yaml) names the field by the value's text.
	switch scalarKind(k) {
	case graph.Null:
		return "", c.errorAt(key, "a null mapping key (kubectl rejects it: a Kubernetes field name is a string)")
	case graph.Bool:
		if v, ok := graph.YAML11Bool(k.Value); ok {
			return strconv.FormatBool(v), nil
		}
	case graph.Int:
		if v, ok := graph.YAMLInt(k.Value); ok {
			return strconv.FormatInt(v, 10), nil
		}
		return "", c.errorAt(key, "an integer mapping key beyond 64 bits (kubectl rejects it)")
	case graph.Float:
		f, err := strconv.ParseFloat(strings.ReplaceAll(k.Value, "_", ""), 64)
		if err != nil {
			switch strings.ToLower(strings.TrimPrefix(k.Value, "+")) {
			case ".inf":
				return ".inf", nil
			case "-.inf":
				return "-.inf", nil
			}
			return ".nan", nil
		}
		return strconv.FormatFloat(f, 'g', -1, 32), nil
	}
	return k.Value, nil
}

// duplicate records a key written twice by the same mapping, once however many
// aliases repeat the mapping.
func (c *converter) duplicate(key string, first *graph.Range, second graph.Range) {
	if c.dupAt == nil {
		c.dupAt = map[int32]bool{}
	}
	if c.dupAt[second.Start.Byte] {
		return
	}
	c.dupAt[second.Start.Byte] = true
	c.diags = append(c.diags, graph.Diagnostic{
		Range:   second,
		Message: fmt.Sprintf("duplicate key %q (first at line %d): the API server rejects duplicate fields; pvlint reads the last value, as kubectl's conversion does", key, first.Start.Line),
	})
}

// jsonString is the value of the JSON string at r when its source holds a "\/"
// escape, which yamlDocument hid from yaml.v3; value otherwise.
func (c *converter) jsonString(r graph.Range, value string) string {
	src := c.src[r.Start.Byte:r.End.Byte]
	if !bytes.Contains(src, []byte(`\/`)) {
		return value
	}
	var s string
	if json.Unmarshal(src, &s) != nil {
		return value
	}
	return s
}

// docError is an error that stops the conversion of a document at a position.
type docError struct {
	pos graph.Pos
	msg string
	// expansion marks the scalar-bytes limit, which an alias that crosses it takes
	// to its own position.
	expansion bool
}

func (e *docError) Error() string { return e.msg }

func (c *converter) errorAt(y *yaml.Node, msg string) error {
	return &docError{pos: c.pos(y.Line, y.Column), msg: msg}
}

// scalarKind is the kind of a scalar as kubectl reads it: yaml.v3's resolution, and
// the YAML 1.1 booleans (yes, no, on, off, y, n) that kubectl's yaml.v2 rules read
// as true and false when they are plain (docs/yaml.md).
func scalarKind(y *yaml.Node) graph.NodeKind {
	if y.Style == 0 && y.Tag == "!!str" {
		if _, ok := graph.YAML11Bool(y.Value); ok {
			return graph.Bool
		}
	}
	switch y.ShortTag() {
	case "!!int":
		return graph.Int
	case "!!float":
		return graph.Float
	case "!!bool":
		return graph.Bool
	case "!!null":
		return graph.Null
	}
	return graph.String
}

func (c *converter) rng(s, e graph.Pos) graph.Range {
	return graph.Range{File: c.file, Start: s, End: e}
}

// pos converts a document-relative yaml line/column (columns in characters) into a
// file position with its byte offset.
func (c *converter) pos(line, col int) graph.Pos {
	if line == 1 {
		col += c.colOff
	}
	abs := line + c.lineOff
	if abs < 1 || abs > len(c.lines) {
		return graph.NewPos(abs, col, 0)
	}
	off, i := c.lines[abs-1], 1
	if abs == c.last.line && col >= c.last.col {
		off, i = c.last.off, c.last.col // walk on from the last position of the line
	} else if abs == c.seed.line && col >= c.seed.col {
		off, i = c.seed.off, c.seed.col // or from the document's start
	}
	for ; i < col && off < len(c.src) && c.src[off] != '\n'; i++ {
		_, size := utf8.DecodeRune(c.src[off:])
		off += size
	}
	c.last = lastPos{abs, i, off}
	return graph.NewPos(abs, col, off)
}

// lastPos is the last position the converter computed: positions along one line
// (a long line of JSON) are found from it instead of from the line's start, which
// would take time quadratic in the line's length.
type lastPos struct{ line, col, off int }

// advance moves a position n bytes forward on its line.
func (c *converter) advance(p graph.Pos, n int) graph.Pos {
	for i := 0; i < n && int(p.Byte) < len(c.src) && c.src[p.Byte] != '\n'; i++ {
		_, size := utf8.DecodeRune(c.src[p.Byte:])
		p.Byte += int32(size)
		p.Column++
	}
	return p
}

// at returns the position of byte offset off.
func (c *converter) at(off int) graph.Pos {
	line := c.lines.Line(off)
	from := c.last
	if line != from.line || off < from.off {
		from = c.seed
	}
	if line != from.line || off < from.off || from.off < c.lines[line-1] {
		p := c.lines.Pos(c.src, off)
		c.last = lastPos{line, int(p.Column), off}
		return p
	}
	col := from.col + utf8.RuneCount(c.src[from.off:off])
	c.last = lastPos{line, col, off}
	return graph.NewPos(line, col, off)
}

// scalarEnd finds the end of a scalar of the given style and value in the source from
// its start.
func (c *converter) scalarEnd(style yaml.Style, value string, start graph.Pos) graph.Pos {
	src, off := c.src, int(start.Byte)
	if off >= len(src) {
		return start
	}
	switch {
	case style&yaml.DoubleQuotedStyle != 0 || style&yaml.SingleQuotedStyle != 0:
		q := src[off]
		for i := off + 1; i < len(src); i++ {
			if q == '"' && src[i] == '\\' {
				i++
				continue
			}
			if src[i] == q {
				if q == '\'' && i+1 < len(src) && src[i+1] == '\'' {
					i++
					continue
				}
				return c.at(i + 1)
			}
		}
		return c.at(len(src))
	case style&yaml.LiteralStyle != 0 || style&yaml.FoldedStyle != 0:
		// Content runs over the following lines that are more indented than the key,
		// or blank; it ends at the end of the last such non-blank line.
		lineEnd := c.lineEnd(off)
		last := lineEnd
		indent := c.indentOf(int(start.Line))
		for l := int(start.Line) + 1; l <= len(c.lines); l++ {
			ls := c.lines[l-1]
			le := c.lineEnd(ls)
			if len(bytes.TrimSpace(src[ls:le])) == 0 {
				continue
			}
			if c.indentOf(l) <= indent {
				break
			}
			last = le
		}
		return c.at(trimCR(src, last))
	default:
		// Plain scalar: up to a comment, a flow indicator in flow context, or the end
		// of the line; multi-line plain scalars end where their text does.
		if found := strings.Contains(value, "\n"); !found && strings.HasPrefix(string(src[off:min(len(src), off+len(value))]), value) {
			return c.at(off + len(value))
		}
		end := trimCR(src, c.lineEnd(off))
		line := string(src[off:end])
		if i := strings.Index(line, " #"); i >= 0 {
			line = line[:i]
		}
		return c.at(off + len(strings.TrimRight(line, " \t")))
	}
}

func (c *converter) lineEnd(off int) int {
	for off < len(c.src) && c.src[off] != '\n' {
		off++
	}
	return off
}

func trimCR(src []byte, end int) int {
	if end > 0 && end <= len(src) && src[end-1] == '\r' {
		return end - 1
	}
	return end
}

func (c *converter) indentOf(line int) int {
	off := c.lines[line-1]
	n := 0
	for off+n < len(c.src) && c.src[off+n] == ' ' {
		n++
	}
	return n
}

// closeFlow moves from the end of a flow collection's last element past its closing
// bracket.
func (c *converter) closeFlow(end graph.Pos, closer byte) graph.Pos {
	for i := int(end.Byte); i < len(c.src); i++ {
		if c.src[i] == closer {
			return c.at(i + 1)
		}
	}
	return end
}

func later(a, b graph.Pos) graph.Pos {
	if b.Line > a.Line || b.Line == a.Line && b.Column > a.Column {
		return b
	}
	return a
}
