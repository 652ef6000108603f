package manifest

import (
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
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
	if !plainStringKey(k.value) {
		return fastKey{}, false // a key kubectl names by its value (converter.key)
	}
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
		case ' ', '"', '\\': // not "\/", which YAML 1.1 and yaml.v3 reject (docs/yaml.md)
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

// plainStringKey reports whether a plain key is a string, as plainKind does, without
// its cost for the keys of nearly every manifest: longer than every null or boolean
// word and starting with a letter, a key is a string.
func plainStringKey(v string) bool {
	if c := v[0] | 0x20; len(v) > 5 && c >= 'a' && c <= 'z' {
		return true
	}
	kind, ok := plainKind(v)
	return ok && kind == graph.String
}

// plainKind resolves a plain scalar as yaml.v3 does (resolve.go) and the converter
// maps the tag, YAML 1.1 booleans included (scalarKind): null, bool, int, float, and
// string for everything else (timestamps included). ok is false for the merge key "<<".
func plainKind(v string) (graph.NodeKind, bool) {
	if v == "" {
		return graph.Null, true
	}
	switch v {
	case "~", "null", "Null", "NULL":
		return graph.Null, true
	case "true", "True", "TRUE", "false", "False", "FALSE",
		"yes", "Yes", "YES", "no", "No", "NO", "on", "On", "ON", "off", "Off", "OFF", "y", "Y", "n", "N":
		return graph.Bool, true // with YAML 1.1's booleans, as kubectl reads them (scalarKind)
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
		if !numberChars(v) {
			// "20Gi", "100m", "0 3 * * *": no parse below can succeed, and each failed
			// one allocates its error.
			return graph.String, true
		}
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

// numberChars reports whether every byte of v may occur in a number the parses of
// plainKind accept: digits, hexadecimal letters, the base prefixes' x, o and b, signs,
// the decimal point and underscores.
func numberChars(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; {
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
		case c == 'x', c == 'X', c == 'o', c == 'O', c == 'b', c == 'B', c == '+', c == '-', c == '.', c == '_':
		default:
			return false
		}
	}
	return true
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
