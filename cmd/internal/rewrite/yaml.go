package rewrite

import (
	"bytes"
	"errors"
	"regexp"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// editSpans turns edits into byte changes of src, one change an edit (yamlEdit or
// jsonEdit), stopping at the first edit that cannot be made.
func editSpans(src []byte, edits []lint.Edit, edit func([]byte, lint.Edit) (span, error)) ([]span, error) {
	var out []span
	for _, e := range edits {
		s, err := edit(src, e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// span is a change in byte offsets, before positions are computed.
type span struct {
	start, end int
	text       string
}

// startOf and endOf are the byte offsets where r starts and ends, as ints.
func startOf(r graph.Range) int { return int(r.Start.Byte) }
func endOf(r graph.Range) int   { return int(r.End.Byte) }

// yamlEdit turns one edit into a byte change of a YAML file. Each change touches only
// the bytes of the value it replaces, or whole lines it adds or removes, so comments,
// quoting, key order and other documents stay as they were.
func yamlEdit(src []byte, e lint.Edit) (span, error) {
	n := e.Node
	if n == nil || !validIn(n.Range, src) {
		return span{}, errors.New("the value has no position in the file")
	}
	switch e.Op {
	case lint.OpSet:
		old := src[n.Range.Start.Byte:n.Range.End.Byte]
		if len(old) == 0 || bytes.ContainsAny(old, "\n|>&*!") || old[0] == '{' || old[0] == '[' {
			return span{}, errors.New("the value is not a one-line scalar")
		}
		return span{startOf(n.Range), endOf(n.Range), yamlScalar(e.Value, old[0])}, nil
	case lint.OpInsert:
		if n.Field(e.Key) != nil {
			return span{}, errors.New("the key " + strconv.Quote(e.Key) + " is already set")
		}
		if src[n.Range.Start.Byte] == '{' {
			return flowInsert(src, n, e)
		}
		if len(n.Fields()) == 0 {
			return span{}, errors.New("the map is empty")
		}
		col := n.Fields()[0].KeyRange.Start.Column
		for _, f := range n.Fields() {
			if f.KeyRange.Start.Column != col || !validIn(f.KeyRange, src) {
				return span{}, errors.New("the map's keys are not aligned (merged or aliased keys)")
			}
		}
		at := lineAfter(src, endOf(n.Range))
		text := blockEntry(strings.Repeat(" ", int(col)-1), indentUnit(n), e.Key, e.Value)
		if at == len(src) && len(src) > 0 && src[len(src)-1] != '\n' {
			text = "\n" + strings.TrimSuffix(text, "\n")
		}
		return span{at, at, text}, nil
	case lint.OpDelete:
		f := n.Field(e.Key)
		if f == nil || !validIn(f.KeyRange, src) || !validIn(f.Value.Range, src) {
			return span{}, errors.New("the key " + strconv.Quote(e.Key) + " is not in the file")
		}
		if src[n.Range.Start.Byte] == '{' {
			return flowDelete(src, n, e.Key)
		}
		ls := lineStart(src, startOf(f.KeyRange))
		if strings.TrimLeft(string(src[ls:f.KeyRange.Start.Byte]), " ") != "" {
			return span{}, errors.New("the key " + strconv.Quote(e.Key) + " does not start its line")
		}
		return span{ls, lineAfter(src, endOf(f.Value.Range)), ""}, nil
	}
	return span{}, errors.New("unknown edit")
}

// flowInsert adds ", key: value" after the last entry of a flow map, or fills an
// empty one.
func flowInsert(src []byte, n *graph.Node, e lint.Edit) (span, error) {
	entry := yamlKey(e.Key) + ": " + flowValue(e.Value)
	if len(n.Fields()) == 0 {
		return span{startOf(n.Range) + 1, startOf(n.Range) + 1, entry}, nil
	}
	last := n.Fields()[len(n.Fields())-1].Value.Range
	if !validIn(last, src) || last.End.Byte > n.Range.End.Byte {
		return span{}, errors.New("the flow map's last value has no position in it")
	}
	return span{endOf(last), endOf(last), ", " + entry}, nil
}

// flowDelete removes an entry of a flow map with the comma that separates it.
func flowDelete(src []byte, n *graph.Node, key string) (span, error) {
	for i, f := range n.Fields() {
		if f.Key != key {
			continue
		}
		switch {
		case i > 0:
			return span{endOf(n.Fields()[i-1].Value.Range), endOf(f.Value.Range), ""}, nil
		case len(n.Fields()) > 1:
			return span{startOf(f.KeyRange), startOf(n.Fields()[1].KeyRange), ""}, nil
		}
		return span{startOf(f.KeyRange), endOf(f.Value.Range), ""}, nil
	}
	return span{}, errors.New("the key " + strconv.Quote(key) + " is not in the flow map")
}

// blockEntry renders key: value as block-style lines at indent; a map value nests
// one unit deeper.
func blockEntry(indent, unit, key string, v *graph.Node) string {
	if v.Is(graph.Map) {
		var b strings.Builder
		b.WriteString(indent + yamlKey(key) + ":\n")
		for _, f := range v.Fields() {
			b.WriteString(blockEntry(indent+unit, unit, f.Key, f.Value))
		}
		return b.String()
	}
	return indent + yamlKey(key) + ": " + yamlScalar(v, 0) + "\n"
}

// flowValue renders a value for a flow map: {type: Recreate}.
func flowValue(v *graph.Node) string {
	if !v.Is(graph.Map) {
		return yamlScalar(v, 0)
	}
	parts := make([]string, 0, len(v.Fields()))
	for _, f := range v.Fields() {
		parts = append(parts, yamlKey(f.Key)+": "+flowValue(f.Value))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// indentUnit is how much deeper the map's nested block maps are indented than their
// keys (two spaces when it has none to learn from).
func indentUnit(n *graph.Node) string {
	for _, f := range n.Fields() {
		if f.Value.Is(graph.Map) && len(f.Value.Fields()) > 0 {
			if d := f.Value.Fields()[0].KeyRange.Start.Column - f.KeyRange.Start.Column; d > 0 && d <= 8 {
				return strings.Repeat(" ", int(d))
			}
		}
	}
	return "  "
}

// yamlScalar renders a value in the quoting style of the text it replaces (style is
// its first byte: a quote, or anything else for plain). A string that a plain scalar
// would read as something else (true, 1, null, "") is double-quoted.
func yamlScalar(v *graph.Node, style byte) string {
	if !v.Is(graph.String) {
		return v.Scalar
	}
	switch {
	case style == '\'':
		return "'" + strings.ReplaceAll(v.Scalar, "'", "''") + "'"
	case style == '"' || !plain.MatchString(v.Scalar) || keyword[strings.ToLower(v.Scalar)]:
		return strconv.Quote(v.Scalar)
	}
	return v.Scalar
}

func yamlKey(k string) string { return yamlScalar(lint.String(k), 0) }

// plain are strings safe to write unquoted; keyword are the plain scalars YAML 1.1 or
// 1.2 resolve to another type.
var (
	plain   = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_./-]*$`)
	keyword = map[string]bool{"true": true, "false": true, "yes": true, "no": true, "on": true, "off": true,
		"y": true, "n": true, "null": true, "nan": true, "inf": true}
)

// validIn reports whether r is a non-inverted byte span within src.
func validIn(r graph.Range, src []byte) bool {
	return r.IsValid() && r.Start.Byte >= 0 && r.Start.Byte <= r.End.Byte && endOf(r) <= len(src) &&
		(r.Start.Byte > 0 || r.Start.Line == 1)
}

// lineStart is the offset where the line holding off starts.
func lineStart(src []byte, off int) int {
	return bytes.LastIndexByte(src[:off], '\n') + 1
}

// lineAfter is the offset just after the line holding the text that ends at off (the
// start of the next line, or the end of the file). A span that already ends a line
// (a block scalar keeps its newline) ends there.
func lineAfter(src []byte, off int) int {
	if off > 0 && src[off-1] == '\n' {
		return off
	}
	if i := bytes.IndexByte(src[off:], '\n'); i >= 0 {
		return off + i + 1
	}
	return len(src)
}
