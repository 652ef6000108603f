package output

import (
	"bufio"
	"encoding/json"
	"errors"
	"io"
	"slices"
	"strings"
)

// writeCompact writes go-sarif's compact JSON (raw, as encoding/json marshals it) the
// way pvlint's SARIF is published: object keys sorted, two-space indentation, HTML
// characters unescaped, and compacted (see compactMember). It is what decoding raw
// into map[string]any, compacting and re-encoding with encoding/json wrote, in one
// pass over a tree of byte slices: that round trip through reflection was most of the
// cost of a SARIF report.
func writeCompact(w io.Writer, raw []byte) error {
	p := jsonParser{src: raw, keys: map[string]string{}}
	v, err := p.value()
	if err != nil {
		return err
	}
	if p.skip(); p.i != len(p.src) {
		return errors.New("sarif: trailing data after the log")
	}
	compactValue(&v)
	bw := bufio.NewWriterSize(w, 64<<10)
	writeValue(bw, &v, 0)
	bw.WriteByte('\n')
	return bw.Flush()
}

// jsonValue is one JSON value: an object (kind '{', members in kids with their key),
// an array ('[', elements in kids), a string ('"', raw holds it quoted) or a number or
// literal (0, raw holds it).
type jsonValue struct {
	kind byte
	raw  []byte
	key  string // the decoded key when this value is an object member
	kids []jsonValue
}

type jsonParser struct {
	src   []byte
	i     int
	stack []jsonValue       // kids of the containers being read, copied out once each
	keys  map[string]string // decoded keys, interned: a log repeats a few dozen
}

var errJSON = errors.New("sarif: malformed JSON from the SARIF model")

func (p *jsonParser) skip() {
	for p.i < len(p.src) {
		switch p.src[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *jsonParser) value() (jsonValue, error) {
	p.skip()
	if p.i >= len(p.src) {
		return jsonValue{}, errJSON
	}
	switch c := p.src[p.i]; c {
	case '{', '[':
		p.i++
		v := jsonValue{kind: c}
		closer := byte('}')
		if c == '[' {
			closer = ']'
		}
		base := len(p.stack)
		for first := true; ; first = false {
			p.skip()
			if p.i < len(p.src) && p.src[p.i] == closer {
				p.i++
				v.kids = slices.Clone(p.stack[base:])
				p.stack = p.stack[:base]
				return v, nil
			}
			if !first {
				if p.i >= len(p.src) || p.src[p.i] != ',' {
					return v, errJSON
				}
				p.i++
			}
			var key string
			if c == '{' {
				p.skip()
				k, err := p.str()
				if err != nil {
					return v, err
				}
				if key, err = p.key(k); err != nil {
					return v, err
				}
				if p.skip(); p.i >= len(p.src) || p.src[p.i] != ':' {
					return v, errJSON
				}
				p.i++
			}
			kid, err := p.value()
			if err != nil {
				return v, err
			}
			kid.key = key
			p.stack = append(p.stack, kid)
		}
	case '"':
		s, err := p.str()
		return jsonValue{kind: '"', raw: s}, err
	default:
		start := p.i
		for p.i < len(p.src) && !strings.ContainsRune(" \t\n\r,]}:", rune(p.src[p.i])) {
			p.i++
		}
		if p.i == start {
			return jsonValue{}, errJSON
		}
		return jsonValue{raw: p.src[start:p.i]}, nil
	}
}

// str returns the quoted string token at the cursor.
func (p *jsonParser) str() ([]byte, error) {
	if p.i >= len(p.src) || p.src[p.i] != '"' {
		return nil, errJSON
	}
	start := p.i
	for p.i++; p.i < len(p.src); p.i++ {
		switch p.src[p.i] {
		case '\\':
			p.i++
		case '"':
			p.i++
			return p.src[start:p.i], nil
		}
	}
	return nil, errJSON
}

// key decodes a member's quoted key.
func (p *jsonParser) key(tok []byte) (string, error) {
	if k, ok := p.keys[string(tok)]; ok {
		return k, nil
	}
	var k string
	if err := json.Unmarshal(tok, &k); err != nil {
		return "", err
	}
	p.keys[string(tok)] = k
	return k, nil
}

// compactValue removes what go-sarif writes for unset fields, recursively: members
// holding the -1 sentinel of an integer property whose SARIF default is -1 (the
// validator flags "index": -1, SARIF2004), empty arrays and empty objects. It keeps the
// log valid and equivalent and cuts its size by more than half, which matters for
// GitHub's 10 MB upload limit. "results" stays even when empty: code scanning needs it
// to close the alerts of a clean run. Array elements are never removed. Members are
// sorted by key, the last of duplicate keys winning, as a map would keep them.
func compactValue(v *jsonValue) {
	for k := range v.kids {
		compactValue(&v.kids[k])
	}
	if v.kind != '{' {
		return
	}
	slices.SortStableFunc(v.kids, func(a, b jsonValue) int { return strings.Compare(a.key, b.key) })
	kept := v.kids[:0]
	for k, m := range v.kids {
		if k+1 < len(v.kids) && v.kids[k+1].key == m.key {
			continue // a later duplicate wins
		}
		if compactMember(m) {
			kept = append(kept, m)
		}
	}
	v.kids = kept
}

// compactMember reports whether an object member stays.
func compactMember(m jsonValue) bool {
	switch m.kind {
	case 0:
		return !(string(m.raw) == "-1" && unsetMinusOne[m.key])
	case '[':
		return len(m.kids) > 0 || m.key == "results"
	case '{':
		return len(m.kids) > 0
	}
	return true
}

// unsetMinusOne are the integer properties pvlint's logs hold whose SARIF default is -1.
var unsetMinusOne = map[string]bool{"index": true, "ruleIndex": true, "rank": true, "byteOffset": true, "charOffset": true, "id": true}

const indentSpaces = "                                                                "

func writeIndent(w *bufio.Writer, depth int) {
	w.WriteByte('\n')
	for n := 2 * depth; n > 0; n -= min(n, len(indentSpaces)) {
		w.WriteString(indentSpaces[:min(n, len(indentSpaces))])
	}
}

// writeValue writes v as json.Encoder with SetIndent("", "  ") would.
func writeValue(w *bufio.Writer, v *jsonValue, depth int) {
	switch v.kind {
	case '{', '[':
		open, closer := byte('{'), byte('}')
		if v.kind == '[' {
			open, closer = '[', ']'
		}
		w.WriteByte(open)
		if len(v.kids) == 0 {
			w.WriteByte(closer)
			return
		}
		for k := range v.kids {
			if k > 0 {
				w.WriteByte(',')
			}
			writeIndent(w, depth+1)
			if v.kind == '{' {
				writeKey(w, v.kids[k].key)
				w.WriteString(": ")
			}
			writeValue(w, &v.kids[k], depth+1)
		}
		writeIndent(w, depth)
		w.WriteByte(closer)
	case '"':
		writeString(w, v.raw)
	default:
		w.Write(v.raw)
	}
}

// writeKey writes a decoded key as an encoder without HTML escaping does.
func writeKey(w *bufio.Writer, k string) {
	for i := 0; i < len(k); i++ {
		if c := k[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			b, _ := json.Marshal(k)
			writeString(w, b)
			return
		}
	}
	w.WriteByte('"')
	w.WriteString(k)
	w.WriteByte('"')
}

// writeString writes a string token encoded with HTML escaping (encoding/json's
// default) as an encoder without HTML escaping writes the same string: <, > and & are
// literal, and U+FFFD, which the encoder writes as \ufffd only for invalid UTF-8 it
// replaced, is the literal character once decoded and re-encoded.
func writeString(w *bufio.Writer, tok []byte) {
	for {
		i := slices.Index(tok, '\\')
		if i < 0 || i+5 >= len(tok) {
			w.Write(tok)
			return
		}
		w.Write(tok[:i])
		if tok[i+1] != 'u' {
			w.Write(tok[i : i+2])
			tok = tok[i+2:]
			continue
		}
		switch string(tok[i+2 : i+6]) {
		case "003c":
			w.WriteByte('<')
		case "003e":
			w.WriteByte('>')
		case "0026":
			w.WriteByte('&')
		case "fffd":
			w.WriteString("\ufffd")
		default:
			w.Write(tok[i : i+6])
		}
		tok = tok[i+6:]
	}
}
