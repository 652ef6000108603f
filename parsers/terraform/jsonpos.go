package terraform

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
)

// maxJSONDepth bounds the nesting of JSON documents (plans and .tf.json files) so a
// hostile file cannot exhaust the stack.
const maxJSONDepth = 1000

// lines converts byte offsets of one file into graph positions. Columns count
// characters, as graph.Pos documents.
type lines struct {
	name   string
	data   []byte
	starts []int // byte offset of each line start
}

func newLines(name string, data []byte) *lines {
	starts := make([]int, 1, bytes.Count(data, []byte("\n"))+1)
	for i, c := range data {
		if c == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &lines{name: name, data: data, starts: starts}
}

// pos returns the position of byte offset off.
func (l *lines) pos(off int) graph.Pos {
	if off < 0 {
		off = 0
	}
	if off > len(l.data) {
		off = len(l.data)
	}
	lo, hi := 0, len(l.starts)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if l.starts[mid] <= off {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return graph.NewPos(lo+1, utf8.RuneCount(l.data[l.starts[lo]:off])+1, off)
}

func (l *lines) rng(start, end int) graph.Range {
	return graph.Range{File: l.name, Start: l.pos(start), End: l.pos(end)}
}

// jsonError is a JSON syntax problem at a byte offset.
type jsonError struct {
	off int
	msg string
}

func (e *jsonError) Error() string { return e.msg }

// decodeJSON reads one JSON document into a graph node tree whose every node and key
// carries its range in the file: encoding/json's token stream gives the offsets, and
// the nodes keep the exact text of numbers.
func decodeJSON(l *lines) (*graph.Node, error) {
	d := &jsonDecoder{l: l, dec: json.NewDecoder(bytes.NewReader(l.data))}
	d.dec.UseNumber()
	n, err := d.value(0)
	if err != nil {
		return nil, err
	}
	if _, err := d.dec.Token(); err != io.EOF {
		return nil, &jsonError{off: d.next(), msg: "unexpected data after the top-level value"}
	}
	return n, nil
}

type jsonDecoder struct {
	l   *lines
	dec *json.Decoder
}

// next returns the offset of the next token: encoding/json's offset is the end of the
// previous token, before any whitespace, colon or comma.
func (d *jsonDecoder) next() int {
	off := int(d.dec.InputOffset())
	for off < len(d.l.data) {
		switch d.l.data[off] {
		case ' ', '\t', '\n', '\r', ',', ':':
			off++
			continue
		}
		break
	}
	return off
}

func (d *jsonDecoder) token() (json.Token, int, error) {
	start := d.next()
	tok, err := d.dec.Token()
	if err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, int(se.Offset), &jsonError{off: int(se.Offset), msg: se.Error()}
		}
		if err == io.EOF || errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, len(d.l.data), &jsonError{off: len(d.l.data), msg: "unexpected end of JSON input"}
		}
		return nil, start, &jsonError{off: start, msg: err.Error()}
	}
	return tok, start, nil
}

func (d *jsonDecoder) value(depth int) (*graph.Node, error) {
	tok, start, err := d.token()
	if err != nil {
		return nil, err
	}
	return d.fromToken(tok, start, depth)
}

func (d *jsonDecoder) fromToken(tok json.Token, start, depth int) (*graph.Node, error) {
	if depth > maxJSONDepth {
		return nil, &jsonError{off: start, msg: fmt.Sprintf("JSON nests deeper than %d levels", maxJSONDepth)}
	}
	end := func() int { return int(d.dec.InputOffset()) }
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			n := &graph.Node{Kind: graph.Map}
			for d.dec.More() {
				ktok, kstart, err := d.token()
				if err != nil {
					return nil, err
				}
				key, _ := ktok.(string)
				keyRange := d.l.rng(kstart, end())
				v, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.AddFields(graph.Field{Key: key, KeyRange: keyRange, Value: v})
			}
			if _, _, err := d.token(); err != nil {
				return nil, err
			}
			n.Range = d.l.rng(start, end())
			return n, nil
		case '[':
			n := &graph.Node{Kind: graph.List}
			for d.dec.More() {
				v, err := d.value(depth + 1)
				if err != nil {
					return nil, err
				}
				n.AddItems(v)
			}
			if _, _, err := d.token(); err != nil {
				return nil, err
			}
			n.Range = d.l.rng(start, end())
			return n, nil
		}
		return nil, &jsonError{off: start, msg: fmt.Sprintf("unexpected %q", t.String())}
	case string:
		return &graph.Node{Kind: graph.String, Scalar: t, Range: d.l.rng(start, end())}, nil
	case json.Number:
		kind := graph.Int
		if bytes.ContainsAny([]byte(t), ".eE") {
			kind = graph.Float
		}
		return &graph.Node{Kind: kind, Scalar: string(t), Range: d.l.rng(start, end())}, nil
	case bool:
		s := "false"
		if t {
			s = "true"
		}
		return &graph.Node{Kind: graph.Bool, Scalar: s, Range: d.l.rng(start, end())}, nil
	case nil:
		return &graph.Node{Kind: graph.Null, Range: d.l.rng(start, end())}, nil
	}
	return nil, &jsonError{off: start, msg: "unexpected JSON token"}
}

// index maps the start byte of every value in a tree to its node, so an HCL JSON
// expression (which knows only its own range) finds the ranges of its parts, and the
// end byte of every object to the object.
func index(n *graph.Node) (starts, ends map[int]*graph.Node) {
	starts, ends = map[int]*graph.Node{}, map[int]*graph.Node{}
	n.Walk(func(x *graph.Node) {
		starts[int(x.Range.Start.Byte)] = x
		if x.Kind == graph.Map {
			ends[int(x.Range.End.Byte)] = x
		}
	})
	return starts, ends
}
