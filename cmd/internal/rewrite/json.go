package rewrite

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// jsonEdit turns one edit into a byte change of a JSON manifest (editSpans applies it to
// every edit). As for YAML, each change touches only the bytes of the value it
// replaces or the entry it adds or removes; an added entry takes the indentation of
// its siblings, so a file indented with two spaces, four or tabs stays so, and a
// one-line object stays on one line.
func jsonEdit(src []byte, e lint.Edit) (span, error) {
	n := e.Node
	if n == nil || !validIn(n.Range, src) {
		return span{}, errors.New("the value has no position in the file")
	}
	switch e.Op {
	case lint.OpSet:
		old := src[n.Range.Start.Byte:n.Range.End.Byte]
		if len(old) == 0 || old[0] == '{' || old[0] == '[' {
			return span{}, errors.New("the value is not a scalar")
		}
		return span{startOf(n.Range), endOf(n.Range), jsonValue(e.Value, "", "")}, nil
	case lint.OpInsert:
		if n.Field(e.Key) != nil {
			return span{}, errors.New("the key " + strconv.Quote(e.Key) + " is already set")
		}
		if src[n.Range.Start.Byte] != '{' {
			return span{}, errors.New("the object is not in JSON syntax")
		}
		if len(n.Fields()) == 0 {
			return span{startOf(n.Range) + 1, startOf(n.Range) + 1, jsonKey(e.Key) + ": " + jsonValue(e.Value, "", "")}, nil
		}
		last := n.Fields()[len(n.Fields())-1]
		if !validIn(last.Value.Range, src) || !validIn(last.KeyRange, src) || last.Value.Range.End.Byte > n.Range.End.Byte {
			return span{}, errors.New("the object's last value has no position in it")
		}
		first := n.Fields()[0].KeyRange
		if !validIn(first, src) {
			return span{}, errors.New("the object's first key has no position")
		}
		ls := lineStart(src, startOf(first))
		indent := string(src[ls:first.Start.Byte])
		if strings.TrimLeft(indent, " \t") != "" {
			// A one-line object: the entry goes on the same line.
			return span{endOf(last.Value.Range), endOf(last.Value.Range), ", " + jsonKey(e.Key) + ": " + jsonValue(e.Value, "", "")}, nil
		}
		unit := jsonIndentUnit(src, n, indent)
		return span{endOf(last.Value.Range), endOf(last.Value.Range), ",\n" + indent + jsonKey(e.Key) + ": " + jsonValue(e.Value, indent, unit)}, nil
	case lint.OpDelete:
		if src[n.Range.Start.Byte] != '{' {
			return span{}, errors.New("the object is not in JSON syntax")
		}
		for i, f := range n.Fields() {
			if f.Key != e.Key {
				continue
			}
			if !validIn(f.KeyRange, src) || !validIn(f.Value.Range, src) {
				return span{}, errors.New("the key " + strconv.Quote(e.Key) + " has no position in the file")
			}
			switch {
			case i > 0:
				return span{endOf(n.Fields()[i-1].Value.Range), endOf(f.Value.Range), ""}, nil
			case len(n.Fields()) > 1:
				return span{startOf(f.KeyRange), startOf(n.Fields()[1].KeyRange), ""}, nil
			}
			return span{startOf(f.KeyRange), endOf(f.Value.Range), ""}, nil
		}
		return span{}, errors.New("the key " + strconv.Quote(e.Key) + " is not in the file")
	}
	return span{}, errors.New("unknown edit")
}

// jsonIndentUnit is how much deeper than its own keys an object's nested objects are
// indented: learnt from a nested multi-line object, else from the object's own keys
// against its opening line, else two spaces.
func jsonIndentUnit(src []byte, n *graph.Node, indent string) string {
	for _, f := range n.Fields() {
		if v := f.Value; v.Is(graph.Map) && len(v.Fields()) > 0 && validIn(v.Fields()[0].KeyRange, src) {
			ls := lineStart(src, startOf(v.Fields()[0].KeyRange))
			inner := string(src[ls:v.Fields()[0].KeyRange.Start.Byte])
			if strings.TrimLeft(inner, " \t") == "" && strings.HasPrefix(inner, indent) && len(inner) > len(indent) {
				return inner[len(indent):]
			}
		}
	}
	open := string(src[lineStart(src, startOf(n.Range)):n.Range.Start.Byte])
	outer := open[:len(open)-len(strings.TrimLeft(open, " \t"))]
	if strings.HasPrefix(indent, outer) && len(indent) > len(outer) {
		return indent[len(outer):]
	}
	return "  "
}

// jsonValue renders a value as JSON; a non-empty object is laid out one entry a line,
// at indent plus unit (on one line when unit is empty).
func jsonValue(v *graph.Node, indent, unit string) string {
	if v.Is(graph.Map) {
		if len(v.Fields()) == 0 {
			return "{}"
		}
		parts := make([]string, 0, len(v.Fields()))
		for _, f := range v.Fields() {
			parts = append(parts, jsonKey(f.Key)+": "+jsonValue(f.Value, indent+unit, unit))
		}
		if unit == "" {
			return "{" + strings.Join(parts, ", ") + "}"
		}
		inner := indent + unit
		return "{\n" + inner + strings.Join(parts, ",\n"+inner) + "\n" + indent + "}"
	}
	if v.Is(graph.String) {
		return jsonKey(v.Scalar)
	}
	return v.Scalar
}

// jsonKey renders a string as a JSON string literal.
func jsonKey(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
