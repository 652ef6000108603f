package manifest

import "github.com/pvlint/pvlint/parsers/graph"

// Flow collections of the fast path (see fast.go): single-line [...] and {...}.

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
		if duplicateKeys(p.mem.fieldStack[baseF:]) {
			return nil, 0, false
		}
		p.mem.setFields(n, p.mem.fieldStack[baseF:])
		p.mem.fieldStack = p.mem.fieldStack[:baseF]
	} else {
		p.mem.setItems(n, p.mem.itemStack[baseI:])
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
		if !plainStringKey(k.value) {
			return k, 0, false // "<<", or a key kubectl names by its value (converter.key)
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
