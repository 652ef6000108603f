package manifest

import (
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	yaml "go.yaml.in/yaml/v3"
)

// Scalars and flow collections of the fast path (see fast.go).

// fastKey is a mapping key read by the fast path.
type fastKey struct {
	value  string
	quoted bool
	rng    graph.Range
	colon  int // offset of the ':' that ends the key
}

// startsToken reports whether c cannot start a plain scalar: the YAML indicators the
// fast path leaves to yaml.v3 or reads as something else.
func startsToken(c byte) bool {
	switch c {
	case '-', '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return true
	}
	return false
}

// keyEnd reports whether a block mapping key starts at i: a plain or quoted scalar on
// the line followed by ':' and a space or the end of the line. colon is its offset.
func (p *fastParser) keyEnd(i int) (colon int, isKey bool) {
	switch c := p.src[i]; {
	case c == '"' || c == '\'':
		e, ok := p.quotedEnd(i)
		if !ok {
			return 0, false
		}
		j := p.skipSpaces(e)
		return j, j < p.le && p.src[j] == ':' && p.blankAt(j+1)
	case startsToken(c) && !(c == '-' && !p.blankAt(i+1)):
		return 0, false
	}
	for j := i; j < p.le; j++ {
		switch p.src[j] {
		case ':':
			if p.blankAt(j + 1) {
				return j, true
			}
		case '#':
			if p.src[j-1] == ' ' {
				return 0, false
			}
		}
	}
	return 0, false
}

// key reads the key at offset i of the current line.
func (p *fastParser) key(i int) (fastKey, bool) {
	colon, isKey := p.keyEnd(i)
	if !isKey || colon-i > 1000 { // yaml.v3 limits simple keys to 1024 characters
		return fastKey{}, false
	}
	k := fastKey{colon: colon}
	if c := p.src[i]; c == '"' || c == '\'' {
		e, _ := p.quotedEnd(i)
		v, ok := p.unquote(i, e)
		if !ok {
			return fastKey{}, false
		}
		k.value, k.quoted, k.rng = v, true, p.rng(p.pos(i), p.pos(e))
		return k, true
	}
	e := colon
	for e > i && p.src[e-1] == ' ' {
		e--
	}
	k.value, k.rng = p.text[i:e], p.rng(p.pos(i), p.pos(e))
	return k, true
}

// quotedEnd returns the offset after the closing quote of the scalar quoted at i;
// ok is false when it does not close on the line.
func (p *fastParser) quotedEnd(i int) (int, bool) {
	q := p.src[i]
	for j := i + 1; j < p.le; j++ {
		switch c := p.src[j]; {
		case c == '\\' && q == '"':
			j++
		case c == q && q == '\'' && j+1 < p.le && p.src[j+1] == '\'':
			j++
		case c == q:
			return j + 1, true
		}
	}
	return 0, false
}

// unquote returns the value of the quoted scalar src[i:e].
func (p *fastParser) unquote(i, e int) (string, bool) {
	body := p.text[i+1 : e-1]
	if p.src[i] == '\'' {
		return strings.ReplaceAll(body, "''", "'"), true
	}
	if strings.IndexByte(body, '\\') < 0 {
		return body, true
	}
	var b strings.Builder
	for k := 0; k < len(body); k++ {
		c := body[k]
		if c != '\\' {
			b.WriteByte(c)
			continue
		}
		k++
		switch body[k] {
		case '0':
			b.WriteByte(0)
		case 'a':
			b.WriteByte('\a')
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'v':
			b.WriteByte('\v')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case 'e':
			b.WriteByte(0x1b)
		case ' ', '"', '/', '\\':
			b.WriteByte(body[k])
		case 'N':
			b.WriteRune('\u0085')
		case '_':
			b.WriteRune('\u00a0')
		case 'L':
			b.WriteRune('\u2028')
		case 'P':
			b.WriteRune('\u2029')
		case 'x', 'u', 'U':
			w := 2
			if body[k] == 'u' {
				w = 4
			} else if body[k] == 'U' {
				w = 8
			}
			if k+w >= len(body) {
				return "", false
			}
			v, err := strconv.ParseUint(body[k+1:k+1+w], 16, 32)
			if err != nil || (v >= 0xd800 && v <= 0xdfff) || v > 0x10ffff {
				return "", false
			}
			b.WriteRune(rune(v))
			k += w
		default:
			return "", false
		}
	}
	return b.String(), true
}

// quotedNode reads the quoted scalar at i; the rest of the line must be empty.
func (p *fastParser) quotedNode(i, depth int) (*graph.Node, bool) {
	e, ok := p.quotedEnd(i)
	if !ok || !p.restIsEmpty(e) {
		return nil, false
	}
	return p.quotedScalar(i, e, depth)
}

func (p *fastParser) quotedScalar(i, e, depth int) (*graph.Node, bool) {
	v, ok := p.unquote(i, e)
	if !ok {
		return nil, false
	}
	n, ok := p.newNode(graph.String, depth)
	if !ok {
		return nil, false
	}
	n.Scalar, n.Range = v, p.rng(p.pos(i), p.pos(e))
	return n, true
}

// plainNode reads the plain scalar at i, which runs to a comment or the end of the
// line.
func (p *fastParser) plainNode(i, depth int) (*graph.Node, bool) {
	if c := p.src[i]; startsToken(c) && !(c == '-' && !p.blankAt(i+1)) {
		return nil, false
	}
	e := p.le
	for j := i; j < p.le; j++ {
		switch p.src[j] {
		case ':':
			if p.blankAt(j + 1) {
				return nil, false // "a: b: c"
			}
		case '#':
			if p.src[j-1] == ' ' {
				e = j
			}
		}
		if e != p.le {
			break
		}
	}
	for e > i && p.src[e-1] == ' ' {
		e--
	}
	return p.plainScalar(i, e, depth)
}

func (p *fastParser) plainScalar(i, e, depth int) (*graph.Node, bool) {
	v := p.text[i:e]
	kind, ok := plainKind(v)
	if !ok {
		return nil, false
	}
	n, ok := p.newNode(kind, depth)
	if !ok {
		return nil, false
	}
	n.Scalar, n.Range = v, p.rng(p.pos(i), p.pos(e))
	return n, true
}

// plainKind resolves a plain scalar as yaml.v3 does (resolve.go) and the converter
// maps the tag (scalarKind): null, bool, int, float, and string for everything else
// (timestamps included). ok is false for the merge key "<<".
func plainKind(v string) (graph.NodeKind, bool) {
	if v == "" {
		return graph.Null, true
	}
	switch v {
	case "~", "null", "Null", "NULL":
		return graph.Null, true
	case "true", "True", "TRUE", "false", "False", "FALSE":
		return graph.Bool, true
	case ".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF":
		return graph.Float, true
	case "<<":
		return 0, false
	}
	switch c := v[0]; {
	case c == '.':
		if _, err := strconv.ParseFloat(v, 64); err == nil {
			return graph.Float, true
		}
	case c == '+' || c == '-' || c >= '0' && c <= '9':
		plain := strings.ReplaceAll(v, "_", "")
		if _, err := strconv.ParseInt(plain, 0, 64); err == nil {
			return graph.Int, true
		}
		if _, err := strconv.ParseUint(plain, 0, 64); err == nil {
			return graph.Int, true
		}
		if yamlFloat(plain) {
			if _, err := strconv.ParseFloat(plain, 64); err == nil {
				return graph.Float, true
			}
		}
		for _, pre := range []struct {
			prefix string
			base   int
		}{{"0b", 2}, {"-0b", 2}, {"0o", 8}, {"-0o", 8}} {
			if !strings.HasPrefix(plain, pre.prefix) {
				continue
			}
			digits := plain[len(pre.prefix):]
			if pre.prefix[0] == '-' {
				digits = "-" + digits
			}
			if _, err := strconv.ParseInt(digits, pre.base, 64); err == nil {
				return graph.Int, true
			}
			if _, err := strconv.ParseUint(digits, pre.base, 64); err == nil && pre.prefix[0] != '-' {
				return graph.Int, true
			}
		}
	}
	return graph.String, true
}

// yamlFloat matches yaml.v3's float syntax, ^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$.
func yamlFloat(s string) bool {
	i := 0
	if i < len(s) && (s[i] == '-' || s[i] == '+') {
		i++
	}
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
			n++
		}
		return n
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	} else {
		if digits() == 0 {
			return false
		}
		if i < len(s) && s[i] == '.' {
			i++
			digits()
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '-' || s[i] == '+') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// blockScalar reads the literal (|) or folded (>) scalar whose indicator is at i.
// indent is the indentation of the collection it belongs to.
func (p *fastParser) blockScalar(i, indent, depth int) (*graph.Node, bool) {
	literal := p.src[i] == '|'
	chomp := byte(0)
	h := i + 1
	if h < p.le && (p.src[h] == '-' || p.src[h] == '+') {
		chomp = p.src[h]
		h++
	}
	if h < p.le && p.src[h] != ' ' || !p.restIsEmpty(h) {
		return nil, false // an indentation indicator, or text after the header
	}
	start := p.pos(i)
	header := p.ln
	// The content is the lines below that are blank or indented at least as much as
	// the first non-blank one, which must be indented deeper than the collection.
	block, leadingBlank := -1, 0
	var lines []string // content lines without the indentation; "" for blank lines
	for p.nextLine(); !p.eof; p.nextLine() {
		if p.ls+p.ind == p.le {
			if block >= 0 && p.ind > block {
				return nil, false // spaces beyond the indentation are content
			}
			leadingBlank = max(leadingBlank, p.ind)
			lines = append(lines, "")
			continue
		}
		if block < 0 {
			if p.ind <= indent || leadingBlank > p.ind {
				return nil, false // an empty scalar, or blank lines deeper than the text
			}
			block = p.ind
		}
		if p.ind < block {
			break
		}
		if !literal && p.ind > block {
			return nil, false // folding keeps more-indented lines as they are
		}
		lines = append(lines, p.text[p.ls+block:p.le])
	}
	if block < 0 {
		return nil, false
	}
	lead := 0
	for lines[lead] == "" {
		lead++
	}
	content := len(lines)
	for lines[content-1] == "" {
		content--
	}
	trailing := len(lines) - content
	// The last content line (line header+content of the file) ended with a line
	// break unless it ended the input.
	lastBreak := trailing > 0 || header+content < len(p.c.lines)
	size := len(lines) + 1
	for _, l := range lines {
		size += len(l)
	}
	var b strings.Builder
	b.Grow(size)
	for k := 0; k < lead; k++ {
		b.WriteByte('\n')
	}
	for k := lead; k < content; k++ {
		l := lines[k]
		switch {
		case k == lead:
		case literal:
			b.WriteByte('\n')
		case l == "":
			b.WriteByte('\n') // folded: an empty line is a line break
			continue
		case lines[k-1] != "":
			b.WriteByte(' ') // folded: consecutive lines join with a space
		}
		b.WriteString(l)
	}
	if lastBreak && chomp != '-' {
		b.WriteByte('\n')
	}
	if chomp == '+' {
		for k := 0; k < trailing; k++ {
			b.WriteByte('\n')
		}
	}
	n, ok := p.newNode(graph.String, depth)
	if !ok {
		return nil, false
	}
	n.Scalar = b.String()
	var st yaml.Style = yaml.LiteralStyle
	if !literal {
		st = yaml.FoldedStyle
	}
	n.Range = p.rng(start, p.c.scalarEnd(st, n.Scalar, start))
	p.skipEmpty()
	if !p.eof && p.ind > indent {
		return nil, false
	}
	return n, true
}

// flow reads the flow collection ([...] or {...}) that opens at i and closes on the
// same line; end is the offset after its closing bracket.
func (p *fastParser) flow(i, depth int) (n *graph.Node, end int, ok bool) {
	closer, kind := byte(']'), graph.List
	if p.src[i] == '{' {
		closer, kind = '}', graph.Map
	}
	if n, ok = p.newNode(kind, depth); !ok {
		return nil, 0, false
	}
	start := p.pos(i)
	baseF, baseI := len(p.mem.fieldStack), len(p.mem.itemStack)
	j := p.skipSpaces(i + 1)
	for j < p.le && p.src[j] != closer {
		var v *graph.Node
		if kind == graph.Map {
			var k fastKey
			if k, j, ok = p.flowKey(j); !ok {
				return nil, 0, false
			}
			if j >= p.le || p.src[j] == ',' || p.src[j] == closer {
				return nil, 0, false // a key without a value
			}
			if v, j, ok = p.flowValue(j, depth+1); !ok {
				return nil, 0, false
			}
			p.mem.fieldStack = append(p.mem.fieldStack, graph.Field{Key: k.value, KeyRange: k.rng, Value: v})
		} else {
			if v, j, ok = p.flowValue(j, depth+1); !ok {
				return nil, 0, false
			}
			p.mem.itemStack = append(p.mem.itemStack, v)
		}
		j = p.skipSpaces(j)
		if j < p.le && p.src[j] == ',' {
			j = p.skipSpaces(j + 1)
		} else if j >= p.le || p.src[j] != closer {
			return nil, 0, false
		}
	}
	if j >= p.le {
		return nil, 0, false // continues on the next line
	}
	if kind == graph.Map {
		n.Fields = p.mem.fieldSlice(p.mem.fieldStack[baseF:])
		p.mem.fieldStack = p.mem.fieldStack[:baseF]
	} else {
		n.Items = p.mem.itemSlice(p.mem.itemStack[baseI:])
		p.mem.itemStack = p.mem.itemStack[:baseI]
	}
	n.Range = p.rng(start, p.pos(j+1))
	return n, j + 1, true
}

// flowKey reads a flow mapping key at j and its ':'; next is where the value starts.
func (p *fastParser) flowKey(j int) (k fastKey, next int, ok bool) {
	var e int
	if c := p.src[j]; c == '"' || c == '\'' {
		if e, ok = p.quotedEnd(j); !ok {
			return k, 0, false
		}
		if k.value, ok = p.unquote(j, e); !ok {
			return k, 0, false
		}
		k.quoted = true
		k.rng = p.rng(p.pos(j), p.pos(e))
	} else {
		var ve int
		if ve, e, ok = p.flowPlainEnd(j); !ok {
			return k, 0, false
		}
		k.value, k.rng = p.text[j:ve], p.rng(p.pos(j), p.pos(ve))
		if k.value == "<<" {
			return k, 0, false
		}
	}
	e = p.skipSpaces(e)
	if e >= p.le || p.src[e] != ':' {
		return k, 0, false // a key without ':' (null value) is left to yaml.v3
	}
	return k, p.skipSpaces(e + 1), true
}

// flowValue reads a scalar or collection inside a flow collection at j; next is the
// offset after it.
func (p *fastParser) flowValue(j, depth int) (n *graph.Node, next int, ok bool) {
	switch p.src[j] {
	case '[', '{':
		return p.flow(j, depth)
	case '"', '\'':
		e, ok := p.quotedEnd(j)
		if !ok {
			return nil, 0, false
		}
		n, ok = p.quotedScalar(j, e, depth)
		return n, e, ok
	}
	ve, e, ok := p.flowPlainEnd(j)
	if !ok {
		return nil, 0, false
	}
	n, ok = p.plainScalar(j, ve, depth)
	return n, e, ok
}

// flowPlainEnd scans a plain scalar inside a flow collection: it ends before ", [ ] {
// }" or a ':' followed by a space. valueEnd drops trailing spaces; end is where the
// scan stopped.
func (p *fastParser) flowPlainEnd(j int) (valueEnd, end int, ok bool) {
	if c := p.src[j]; startsToken(c) && !(c == '-' && j+1 < p.le && !isFlowStop(p.src[j+1])) {
		return 0, 0, false
	}
	e := j
scan:
	for ; e < p.le; e++ {
		switch c := p.src[e]; c {
		case ',', '[', ']', '{', '}':
			break scan
		case '?':
			return 0, 0, false
		case ':':
			if p.blankAt(e + 1) {
				break scan
			}
		case '#':
			if p.src[e-1] == ' ' {
				return 0, 0, false // a comment: the collection does not close on this line
			}
		}
	}
	ve := e
	for ve > j && p.src[ve-1] == ' ' {
		ve--
	}
	if ve == j || p.src[ve-1] == ':' {
		return 0, 0, false
	}
	return ve, e, true
}

// isFlowStop reports whether c ends a plain scalar's first character run in a flow
// collection.
func isFlowStop(c byte) bool {
	switch c {
	case ' ', ',', '[', ']', '{', '}':
		return true
	}
	return false
}
