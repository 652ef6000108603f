package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// jsonOut is the published log on its way to the writer: appended to buf, handed to w
// in blocks of about outBlock bytes. The first write error is kept and ends the log.
type jsonOut struct {
	w   io.Writer
	buf []byte
	err error
}

const outBlock = 64 << 10

func (o *jsonOut) flush() {
	if len(o.buf) > 0 && o.err == nil {
		_, o.err = o.w.Write(o.buf)
	}
	o.buf = o.buf[:0]
}

const indentSpaces = "                                                                "

func (o *jsonOut) indent(depth int) {
	o.buf = append(o.buf, '\n')
	for n := 2 * depth; n > 0; n -= min(n, len(indentSpaces)) {
		o.buf = append(o.buf, indentSpaces[:min(n, len(indentSpaces))]...)
	}
}

// array writes an array of n elements as json.Encoder with SetIndent("", "  ") does,
// each element written by elem at depth+1. The output goes to the writer between
// elements once a block is full.
func (o *jsonOut) array(n, depth int, elem func(k int) error) error {
	if n == 0 {
		o.buf = append(o.buf, "[]"...)
		return nil
	}
	o.buf = append(o.buf, '[')
	for k := range n {
		if k > 0 {
			o.buf = append(o.buf, ',')
		}
		o.indent(depth + 1)
		if err := elem(k); err != nil {
			return err
		}
		if len(o.buf) >= outBlock {
			o.flush()
		}
	}
	o.indent(depth)
	o.buf = append(o.buf, ']')
	return o.err
}

// write writes the parsed value at tape index n, its first line indented depth levels,
// as json.Encoder with SetIndent("", "  ") and SetEscapeHTML(false) writes it once
// compacted.
func (c *compactor) write(n, depth int) error {
	o := c.out
	v := c.tape[n]
	switch v.kind {
	case '{':
		if v.count == 0 {
			o.buf = append(o.buf, "{}"...)
			return nil
		}
		o.buf = append(o.buf, '{')
		for k, m := range c.order[v.first : v.first+v.count] {
			if k > 0 {
				o.buf = append(o.buf, ',')
			}
			o.indent(depth + 1)
			o.buf = appendString(o.buf, c.src[c.tape[m].keyStart:c.tape[m].keyEnd])
			o.buf = append(o.buf, ": "...)
			if err := c.write(int(m), depth+1); err != nil {
				return err
			}
		}
		o.indent(depth)
		o.buf = append(o.buf, '}')
	case '[':
		if n == c.spliceAt {
			return c.splice(depth)
		}
		e := n + 1
		return o.array(int(v.count), depth, func(int) error {
			err := c.write(e, depth+1)
			e = int(c.tape[e].next)
			return err
		})
	case '"':
		o.buf = appendString(o.buf, c.src[v.start:v.end])
	default:
		o.buf = append(o.buf, c.src[v.start:v.end]...)
	}
	return o.err
}

// appendString appends a string token encoded with HTML escaping (encoding/json's
// default) as an encoder without HTML escaping writes the same string: <, > and & are
// literal, and U+FFFD, which the encoder writes as \ufffd only for invalid UTF-8 it
// replaced, is the literal character once decoded and re-encoded. Keys are written
// the same way, from their quoted form.
func appendString(buf, tok []byte) []byte {
	for {
		i := bytes.IndexByte(tok, '\\')
		if i < 0 || i+5 >= len(tok) {
			return append(buf, tok...)
		}
		buf = append(buf, tok[:i]...)
		if tok[i+1] != 'u' {
			buf = append(buf, tok[i:i+2]...)
			tok = tok[i+2:]
			continue
		}
		switch string(tok[i+2 : i+6]) {
		case "003c":
			buf = append(buf, '<')
		case "003e":
			buf = append(buf, '>')
		case "0026":
			buf = append(buf, '&')
		case "fffd":
			buf = append(buf, "\ufffd"...)
		default:
			buf = append(buf, tok[i:i+6]...)
		}
		tok = tok[i+6:]
	}
}

// end finishes the log after its value was written with err: the final newline, and
// everything to the writer.
func (o *jsonOut) end(err error) error {
	if err != nil {
		return err
	}
	o.buf = append(o.buf, '\n')
	o.flush()
	return o.err
}

// write writes the log as go-sarif's Report.Write would, made compact (see
// compactor): go-sarif writes unset fields (artifactLocation.index as -1, which the
// validator flags, SARIF2004; empty arrays and objects). The report is marshalled
// without its results, and each result marshalled in turn where the results array
// goes, through a buffer that is reused: the log's memory is that of its largest
// result, not of the whole log twice over.
func (l *sarifLog) write(w io.Writer) error {
	if err := l.run.DedupeArtifacts(); err != nil { // as Report.Write does
		return err
	}
	raw, err := json.Marshal(l.report)
	if err != nil {
		return err
	}
	out := &jsonOut{w: w}
	log := compactor{out: out}
	if err := log.parse(raw); err != nil {
		return err
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf) // escapes HTML as json.Marshal does
	res := compactor{out: out}
	if log.spliceAt = log.path("runs", 0, "results"); log.spliceAt < 0 {
		return errors.New("sarif: the log has no runs[0].results")
	}
	log.splice = func(depth int) error {
		return out.array(l.results, depth, func(k int) error {
			buf.Reset()
			if err := enc.Encode(l.result(k)); err != nil {
				return err
			}
			if err := res.parse(buf.Bytes()); err != nil {
				return err
			}
			return res.write(0, depth+1)
		})
	}
	return out.end(log.write(0, 0))
}
