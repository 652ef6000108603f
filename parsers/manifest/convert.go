package manifest

import (
	"bytes"
	"fmt"
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
	bytes   int // scalar bytes so far, aliases expanded
}

// limitError is a document past a limit, at the node where it went past.
type limitError struct {
	at  graph.Pos
	msg string
}

func (e *limitError) Error() string { return e.msg }

// errorPos is where a conversion error is: its node for a limit, else at.
func errorPos(err error, at graph.Pos) graph.Pos {
	if le, ok := err.(*limitError); ok && le.at.Line > 0 {
		return le.at
	}
	return at
}

// scalar counts a scalar's bytes against the document's budget.
func (c *converter) scalar(value string, at graph.Pos) error {
	c.bytes += len(value)
	if c.bytes > c.limits.MaxBytes {
		return &limitError{at: at, msg: fmt.Sprintf("document expands to more than %d bytes of scalars (YAML alias expansion limit, --limit yaml-expanded-size)", c.limits.MaxBytes)}
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
		if le, ok := err.(*limitError); ok {
			// Past a limit through an alias: the alias is where the document grew.
			le.at = start
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
		end := c.advance(start, 1)
		for i := 0; i+1 < len(y.Content); i += 2 {
			k, v := y.Content[i], y.Content[i+1]
			val, err := c.convert(v, depth+1)
			if err != nil {
				return nil, err
			}
			if k.Kind == yaml.ScalarNode && k.Value == "<<" && k.Tag == "!!merge" {
				c.merge(n, val)
				end = val.Range.End
				continue
			}
			ks := c.pos(k.Line, k.Column)
			if err := c.scalar(k.Value, ks); err != nil {
				return nil, err
			}
			keyRange := c.rng(ks, c.scalarEnd(k.Style, k.Value, ks))
			n.AddFields(graph.Field{Key: k.Value, KeyRange: keyRange, Value: val})
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
		return n, nil
	}
	return &graph.Node{Kind: graph.Null, Range: c.rng(start, start)}, nil
}

// merge applies a "<<" merge key: fields of the merged map(s) not already present.
func (c *converter) merge(dst, src *graph.Node) {
	var maps []*graph.Node
	switch src.Kind {
	case graph.Map:
		maps = []*graph.Node{src}
	case graph.List:
		maps = src.Items()
	}
	for _, m := range maps {
		for _, f := range m.Fields() {
			if dst.Field(f.Key) == nil {
				dst.AddFields(f)
			}
		}
	}
}

func scalarKind(y *yaml.Node) graph.NodeKind {
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
	abs := line + c.lineOff
	if abs < 1 || abs > len(c.lines) {
		return graph.NewPos(abs, col, 0)
	}
	off := c.lines[abs-1]
	for i := 1; i < col && off < len(c.src) && c.src[off] != '\n'; i++ {
		_, size := utf8.DecodeRune(c.src[off:])
		off += size
	}
	return graph.NewPos(abs, col, off)
}

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
func (c *converter) at(off int) graph.Pos { return c.lines.Pos(c.src, off) }

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
