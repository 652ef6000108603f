package output

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
)

// compactor rewrites go-sarif's compact JSON (as encoding/json marshals it) the way
// pvlint's SARIF is published: object keys sorted, two-space indentation, HTML
// characters unescaped, and compacted (see compactMember). It is what decoding the
// JSON into map[string]any, compacting and re-encoding with encoding/json wrote, without
// the reflection and without a tree: parse reads the JSON once into a flat tape of
// spans in the source, deciding for each object which members stay and in what order,
// and write copies those spans to the output. The tape and the member lists are reused
// from one JSON text to the next, so a log written a result at a time needs no more
// memory than its largest result.
type compactor struct {
	out   *jsonOut
	src   []byte
	i     int
	tape  []jsonNode
	order []int32           // the objects' kept members: tape indices, sorted by key
	stack []int32           // members of the objects being parsed
	keys  map[string][]byte // decoded keys that had escapes, by their quoted form
	// splice, when set, writes the array at tape index spliceAt, which is empty in
	// the source, at the given depth.
	spliceAt int
	splice   func(depth int) error
}

// jsonNode is one value of the tape: an object (kind '{', its kept members in
// order[first:first+count]), an array ('[', count elements, the first at the next tape
// index, each followed by the next at its next), a string ('"') or a number or
// literal (0). src[start:end] is the value, and src[keyStart:keyEnd] its quoted key
// when it is an object member (see compactor.key). Offsets are 32 bits to keep the
// tape small: parse refuses a text of 2 GiB or more.
type jsonNode struct {
	start, end       int32
	keyStart, keyEnd int32
	next             int32 // tape index after this value and everything in it
	first, count     int32
	kind             byte
	escapedKey       bool // the key has escapes: decoded in compactor.keys
}

var errJSON = errors.New("sarif: malformed JSON from the SARIF model")

// parse reads one JSON text (surrounding whitespace allowed) into the tape, whose
// first node is its value.
func (c *compactor) parse(src []byte) error {
	if len(src) >= math.MaxInt32 {
		return errors.New("sarif: JSON text of 2 GiB or more")
	}
	c.src, c.i = src, 0
	c.tape, c.order, c.stack = c.tape[:0], c.order[:0], c.stack[:0]
	c.spliceAt, c.splice = -1, nil
	if _, err := c.value(); err != nil {
		return err
	}
	if c.skip(); c.i != len(c.src) {
		return errors.New("sarif: trailing data after the log")
	}
	return nil
}

func (c *compactor) skip() {
	for c.i < len(c.src) {
		switch c.src[c.i] {
		case ' ', '\t', '\n', '\r':
			c.i++
		default:
			return
		}
	}
}

// value parses the value at the cursor into the tape and returns its index.
func (c *compactor) value() (int, error) {
	c.skip()
	if c.i >= len(c.src) {
		return 0, errJSON
	}
	n := len(c.tape)
	c.tape = append(c.tape, jsonNode{kind: c.src[c.i], start: int32(c.i)})
	var err error
	switch c.src[c.i] {
	case '{':
		err = c.object(n)
	case '[':
		err = c.array(n)
	case '"':
		err = c.str()
	default:
		c.tape[n].kind = 0
		start := c.i
		for c.i < len(c.src) && !isDelim(c.src[c.i]) {
			c.i++
		}
		if c.i == start {
			err = errJSON
		}
	}
	c.tape[n].end, c.tape[n].next = int32(c.i), int32(len(c.tape))
	return n, err
}

func isDelim(b byte) bool {
	switch b {
	case ' ', '\t', '\n', '\r', ',', ']', '}', ':':
		return true
	}
	return false
}

// list reads the elements or members of a container up to its closer, calling item
// for each with the cursor at its start.
func (c *compactor) list(closer byte, item func() error) error {
	c.i++ // the opener
	for first := true; ; first = false {
		c.skip()
		if c.i < len(c.src) && c.src[c.i] == closer {
			c.i++
			return nil
		}
		if !first {
			if c.i >= len(c.src) || c.src[c.i] != ',' {
				return errJSON
			}
			c.i++
			c.skip()
		}
		if err := item(); err != nil {
			return err
		}
	}
}

func (c *compactor) array(n int) error {
	return c.list(']', func() error {
		c.tape[n].count++
		_, err := c.value()
		return err
	})
}

// object parses an object's members, then keeps the ones that stay (compactMember),
// sorted by key, the last of duplicate keys winning as a map would keep them.
func (c *compactor) object(n int) error {
	base := len(c.stack)
	err := c.list('}', func() error {
		ks := c.i
		if err := c.str(); err != nil {
			return err
		}
		ke := c.i
		escaped, err := c.decodeKey(ks, ke)
		if err != nil {
			return err
		}
		if c.skip(); c.i >= len(c.src) || c.src[c.i] != ':' {
			return errJSON
		}
		c.i++
		m, err := c.value()
		if err != nil {
			return err
		}
		c.tape[m].keyStart, c.tape[m].keyEnd, c.tape[m].escapedKey = int32(ks), int32(ke), escaped
		c.stack = append(c.stack, int32(m))
		return nil
	})
	if err != nil {
		return err
	}
	members := c.stack[base:]
	slices.SortStableFunc(members, func(a, b int32) int { return bytes.Compare(c.key(a), c.key(b)) })
	first := len(c.order)
	for k, m := range members {
		if k+1 < len(members) && bytes.Equal(c.key(members[k+1]), c.key(m)) {
			continue // a later duplicate wins
		}
		if c.compactMember(m) {
			c.order = append(c.order, m)
		}
	}
	c.tape[n].first, c.tape[n].count = int32(first), int32(len(c.order)-first)
	c.stack = c.stack[:base]
	return nil
}

// compactMember reports whether an object member stays. It removes what go-sarif
// writes for unset fields, recursively: members holding the -1 sentinel of an integer
// property whose SARIF default is -1 (the validator flags "index": -1, SARIF2004),
// empty arrays and objects left empty once compacted. It keeps the log valid and
// equivalent and cuts its size by more than half, which matters for GitHub's 10 MB
// upload limit. "results" stays even when empty: code scanning needs it to close the
// alerts of a clean run. Array elements are never removed.
func (c *compactor) compactMember(m int32) bool {
	v := &c.tape[m]
	switch v.kind {
	case 0:
		return !(string(c.src[v.start:v.end]) == "-1" && unsetMinusOne[string(c.key(m))])
	case '[':
		return v.count > 0 || string(c.key(m)) == "results"
	case '{':
		return v.count > 0
	}
	return true
}

// unsetMinusOne are the integer properties pvlint's logs hold whose SARIF default is -1.
var unsetMinusOne = map[string]bool{"index": true, "ruleIndex": true, "rank": true, "byteOffset": true, "charOffset": true, "id": true}

// str moves the cursor past the string token at it.
func (c *compactor) str() error {
	if c.i >= len(c.src) || c.src[c.i] != '"' {
		return errJSON
	}
	for c.i++; c.i < len(c.src); c.i++ {
		switch c.src[c.i] {
		case '\\':
			c.i++
		case '"':
			c.i++
			return nil
		}
	}
	return errJSON
}

// decodeKey decodes the quoted key src[start:end] into c.keys when it has escapes,
// and reports whether it has.
func (c *compactor) decodeKey(start, end int) (bool, error) {
	tok := c.src[start:end]
	if bytes.IndexByte(tok, '\\') < 0 {
		return false, nil
	}
	if _, ok := c.keys[string(tok)]; ok {
		return true, nil
	}
	var k string
	if err := json.Unmarshal(tok, &k); err != nil {
		return true, err
	}
	if c.keys == nil {
		c.keys = map[string][]byte{}
	}
	c.keys[string(tok)] = []byte(k)
	return true, nil
}

// key is the decoded key of the member at tape index m: the inside of its quoted form
// when that has no escape (what encoding/json writes is valid UTF-8).
func (c *compactor) key(m int32) []byte {
	v := &c.tape[m]
	if v.escapedKey {
		return c.keys[string(c.src[v.keyStart:v.keyEnd])]
	}
	return c.src[v.keyStart+1 : v.keyEnd-1]
}

// path returns the tape index of the value at path (object keys and array indices)
// from the root, or -1.
func (c *compactor) path(path ...any) int {
	n := int32(0)
	for _, p := range path {
		v, next := c.tape[n], int32(-1)
		switch p := p.(type) {
		case string:
			if v.kind == '{' {
				for _, m := range c.order[v.first : v.first+v.count] {
					if string(c.key(m)) == p {
						next = m
					}
				}
			}
		case int:
			if v.kind == '[' && p >= 0 && p < int(v.count) {
				next = n + 1
				for range p {
					next = c.tape[next].next
				}
			}
		}
		if next < 0 {
			return -1
		}
		n = next
	}
	return int(n)
}
