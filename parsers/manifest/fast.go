package manifest

import (
	"sync"

	"github.com/pvlint/pvlint/parsers/graph"
)

// The fast path reads the YAML that Kubernetes manifests are written in — block
// mappings and sequences, single-line plain and quoted scalars, literal and folded
// block scalars, single-line flow collections, comments — straight into graph nodes,
// with the ranges the yaml.v3 path (Unmarshal, then converter) gives them. It is
// several times faster than the yaml.v3 path, which builds a yaml.Node tree first and
// decodes the input one character at a time.
//
// It is a subset, not a second YAML parser: a document is read by the fast path only
// when every construct in it is one the fast path knows exactly; anything else —
// anchors, aliases, tags, multi-line plain or quoted scalars, flow collections over
// several lines, tabs, carriage returns, non-ASCII text, complex keys, and every
// construct yaml.v3 would reject — makes it give up on the document, which the yaml.v3
// path then reads from the start (with its diagnostics). The fast path never reports
// an error. FuzzFastPath checks that whatever it accepts, it reads as the yaml.v3 path
// does, node for node and position for position.

// fastParser reads one document. Its cursor is a line: after each value it stands on
// the next line with content (not blank, not only a comment), or at the end.
type fastParser struct {
	c    *converter // positions computed from the source (block scalar ends)
	src  []byte
	text string // src as a string: keys and plain scalars are substrings of it
	end  int    // end of the document in src

	ln, ls, le int // the current line: number, start and end (its '\n' or end of input)
	ind        int // its indentation in spaces
	eof        bool

	count  int
	mem    *slab // where nodes and their field and item slices live
	limits Limits

	skipData bool   // leave the block scalars under the top-level data keys unread
	topKey   string // the top-level key whose value is being read
}

// slab hands out nodes and node slices from blocks: one allocation per thousand
// nodes instead of one per node. Slabs are pooled (slabs), so the documents of many
// files share blocks and a block is wasted only at the end of a run. Nodes live as
// long as their resources, the whole run of the command line, so blocks kept alive by
// a few survivors cost nothing there; a long-running program that drops most of what
// it parsed keeps blocks alive for the nodes it retains.
type slab struct {
	nodes    []graph.Node
	contents []graph.Contents
	fields   []graph.Field
	items    []*graph.Node
	// Stacks of the fields and items of the collections being read.
	fieldStack []graph.Field
	itemStack  []*graph.Node
	// lineStack holds the content lines of the block scalar being read.
	lineStack []string
}

var slabs = sync.Pool{New: func() any { return new(slab) }}

const slabBlock = 1024

func (s *slab) node() *graph.Node {
	if len(s.nodes) == cap(s.nodes) {
		s.nodes = make([]graph.Node, 0, slabBlock)
	}
	s.nodes = s.nodes[:len(s.nodes)+1]
	return &s.nodes[len(s.nodes)-1]
}

// setFields makes fs (copied into the slab) the fields of map node n.
func (s *slab) setFields(n *graph.Node, fs []graph.Field) {
	c := s.contentsOf()
	c.Fields = s.fieldSlice(fs)
	n.Contents = c
}

// setItems makes is (copied into the slab) the items of list node n.
func (s *slab) setItems(n *graph.Node, is []*graph.Node) {
	c := s.contentsOf()
	c.Items = s.itemSlice(is)
	n.Contents = c
}

func (s *slab) contentsOf() *graph.Contents {
	if len(s.contents) == cap(s.contents) {
		s.contents = make([]graph.Contents, 0, slabBlock)
	}
	s.contents = s.contents[:len(s.contents)+1]
	return &s.contents[len(s.contents)-1]
}

func (s *slab) fieldSlice(fs []graph.Field) []graph.Field {
	if len(fs) > cap(s.fields)-len(s.fields) {
		s.fields = make([]graph.Field, 0, max(len(fs), slabBlock))
	}
	n := len(s.fields)
	s.fields = append(s.fields, fs...)
	return s.fields[n:len(s.fields):len(s.fields)]
}

func (s *slab) itemSlice(is []*graph.Node) []*graph.Node {
	if len(is) > cap(s.items)-len(s.items) {
		s.items = make([]*graph.Node, 0, max(len(is), slabBlock))
	}
	n := len(s.items)
	s.items = append(s.items, is...)
	return s.items[n:len(s.items):len(s.items)]
}

// fastDocument reads document d with the fast path. ok is false when the document
// needs the yaml.v3 path; root is nil for a document with no content.
// skipData leaves the block scalars under the document's top-level data keys unread
// (Options.SkipConfigData).
func fastDocument(c *converter, text string, mem *slab, d document, skipData bool) (root *graph.Node, ok bool) {
	if d.json || !plainASCII(c.src[d.start:d.end]) {
		return nil, false // a JSON stream's values (which may start within a line) go to yaml.v3
	}
	p := &fastParser{c: c, src: c.src, text: text, end: d.end, mem: mem, limits: c.limits, skipData: skipData}
	p.setLine(d.line)
	// A "---" line opens every document but the first; nothing may follow it but a
	// comment (a node after the marker is left to yaml.v3).
	if isMarker(p.src[p.ls:p.le+min(1, p.end-p.le)], "---") {
		if q := p.skipSpaces(p.ls + 3); q < p.le && !(p.src[q] == '#' && q > p.ls+3) {
			return nil, false
		}
		p.nextLine()
	}
	p.skipEmpty()
	if p.eof {
		return nil, true
	}
	first := p.ls + p.ind
	if p.src[first] == '%' || p.src[first] == '-' && p.blankAt(first+1) {
		return nil, false // directives and top-level sequences are rare: yaml.v3 reads them
	}
	root, ok = p.mapping(p.ind, first, 0)
	if !ok || !p.eof {
		return nil, false
	}
	return root, true
}

// plainASCII reports whether b holds only printable ASCII and newlines: no tab, no
// carriage return, no control or non-ASCII character (whose columns and line breaks
// the fast path does not count).
func plainASCII(b []byte) bool {
	for _, c := range b {
		if (c < 0x20 && c != '\n') || c >= 0x7f {
			return false
		}
	}
	return true
}

// setLine makes line n the current line.
func (p *fastParser) setLine(n int) {
	p.ln = n
	if n-1 >= len(p.c.lines) || p.c.lines[n-1] >= p.end {
		p.eof = true
		p.ls, p.le = p.end, p.end
		return
	}
	p.ls = p.c.lines[n-1]
	p.le = p.end
	if n < len(p.c.lines) && p.c.lines[n]-1 < p.end {
		p.le = p.c.lines[n] - 1
	}
	i := p.ls
	for i < p.le && p.src[i] == ' ' {
		i++
	}
	p.ind = i - p.ls
}

func (p *fastParser) nextLine() { p.setLine(p.ln + 1) }

// skipEmpty moves to the first line at or after the current one with content.
func (p *fastParser) skipEmpty() {
	for !p.eof {
		i := p.ls + p.ind
		if i < p.le && p.src[i] != '#' {
			return
		}
		p.nextLine()
	}
}

// next moves past the current line to the next line with content.
func (p *fastParser) next() {
	p.nextLine()
	p.skipEmpty()
}

func (p *fastParser) skipSpaces(i int) int {
	for i < p.le && p.src[i] == ' ' {
		i++
	}
	return i
}

// blankAt reports whether i is the end of the line or a space.
func (p *fastParser) blankAt(i int) bool { return i >= p.le || p.src[i] == ' ' }

// restIsEmpty reports whether only spaces and a comment follow offset i on the line.
func (p *fastParser) restIsEmpty(i int) bool {
	j := p.skipSpaces(i)
	return j == p.le || p.src[j] == '#' && j > i
}

// pos is the position of offset i on the current line (ASCII: one byte, one column).
func (p *fastParser) pos(i int) graph.Pos {
	return graph.NewPos(p.ln, i-p.ls+1, i)
}

func (p *fastParser) rng(s, e graph.Pos) graph.Range {
	return graph.Range{File: p.c.file, Start: s, End: e}
}

// newNode allocates a node within the document's node and depth budget; ok is false
// when the budget is spent (the yaml.v3 path then reports it).
func (p *fastParser) newNode(kind graph.NodeKind, depth int) (*graph.Node, bool) {
	p.count++
	if p.count > p.limits.MaxNodes || depth > p.limits.MaxDepth {
		return nil, false
	}
	n := p.mem.node()
	n.Kind = kind
	return n, true
}

// mapping reads a block mapping whose keys are indented by indent; the current line
// holds its first key at offset key.
func (p *fastParser) mapping(indent, key, depth int) (*graph.Node, bool) {
	n, ok := p.newNode(graph.Map, depth)
	if !ok {
		return nil, false
	}
	start := p.pos(key)
	end := p.pos(key + 1)
	base := len(p.mem.fieldStack)
	for {
		k, ok := p.key(key)
		if !ok {
			return nil, false
		}
		if k.value == "<<" && !k.quoted {
			return nil, false // merge keys
		}
		if depth == 0 {
			p.topKey = k.value
		}
		v, ok := p.inline(k.colon+1, indent, depth+1)
		if !ok {
			return nil, false
		}
		p.mem.fieldStack = append(p.mem.fieldStack, graph.Field{Key: k.value, KeyRange: k.rng, Value: v})
		end = later(end, v.Range.End)
		if p.eof || p.ind < indent {
			break
		}
		if p.ind > indent {
			return nil, false
		}
		key = p.ls + p.ind
	}
	if duplicateKeys(p.mem.fieldStack[base:]) {
		return nil, false // the yaml.v3 path reports them (convert.go)
	}
	p.mem.setFields(n, p.mem.fieldStack[base:])
	p.mem.fieldStack = p.mem.fieldStack[:base]
	n.Range = p.rng(start, end)
	return n, true
}

// duplicateKeys reports whether two fields have the same key.
func duplicateKeys(fs []graph.Field) bool {
	if len(fs) > 32 {
		seen := make(map[string]struct{}, len(fs))
		for _, f := range fs {
			if _, ok := seen[f.Key]; ok {
				return true
			}
			seen[f.Key] = struct{}{}
		}
		return false
	}
	for i := 1; i < len(fs); i++ {
		for j := 0; j < i; j++ {
			if fs[i].Key == fs[j].Key {
				return true
			}
		}
	}
	return false
}

// sequence reads a block sequence whose dashes are indented by indent; the current
// line holds its first dash.
func (p *fastParser) sequence(indent, depth int) (*graph.Node, bool) {
	n, ok := p.newNode(graph.List, depth)
	if !ok {
		return nil, false
	}
	dash := p.ls + indent
	start := p.pos(dash)
	end := p.pos(dash + 1)
	base := len(p.mem.itemStack)
	for {
		v, ok := p.item(dash, indent, depth+1)
		if !ok {
			return nil, false
		}
		p.mem.itemStack = append(p.mem.itemStack, v)
		end = later(end, v.Range.End)
		if p.eof || p.ind < indent {
			break
		}
		if p.ind > indent {
			return nil, false
		}
		dash = p.ls + indent
		if p.src[dash] != '-' || !p.blankAt(dash+1) {
			break // a key after an indentless sequence: the mapping continues
		}
	}
	p.mem.setItems(n, p.mem.itemStack[base:])
	p.mem.itemStack = p.mem.itemStack[:base]
	n.Range = p.rng(start, end)
	return n, true
}

// item reads the sequence entry whose dash is at offset dash.
func (p *fastParser) item(dash, indent, depth int) (*graph.Node, bool) {
	i := p.skipSpaces(dash + 1)
	if i < p.le && p.src[i] != '#' {
		if p.src[i] == '-' && p.blankAt(i+1) {
			return nil, false // "- - x": nested sequences on one line
		}
		if _, isKey := p.keyEnd(i); isKey {
			return p.mapping(i-p.ls, i, depth) // "- key: value" opens a mapping
		}
	}
	return p.inline(dash+1, indent, depth)
}

// inline reads the value that starts after offset i of the current line (after a
// key's colon or an entry's dash): a scalar or flow collection on the line, a block
// scalar, or the block node on the following lines. indent is the indentation of the
// collection the value belongs to.
func (p *fastParser) inline(i, indent, depth int) (*graph.Node, bool) {
	j := p.skipSpaces(i)
	if j == p.le || p.src[j] == '#' && j > i {
		// Nothing on this line: the value is the block below, or null where the
		// indicator ended (yaml.v3's position for an empty value).
		at := p.pos(i)
		p.next()
		switch {
		case !p.eof && p.ind > indent:
			first := p.ls + p.ind
			if p.src[first] == '-' && p.blankAt(first+1) {
				return p.sequence(p.ind, depth)
			}
			if _, isKey := p.keyEnd(first); !isKey {
				return nil, false // a scalar on its own line
			}
			return p.mapping(p.ind, first, depth)
		case !p.eof && p.ind == indent && p.src[p.ls+p.ind] == '-' && p.blankAt(p.ls+p.ind+1) && p.src[i-1] == ':':
			return p.sequence(p.ind, depth) // an indentless sequence as a mapping value
		}
		n, ok := p.newNode(graph.Null, depth)
		if !ok {
			return nil, false
		}
		n.Range = p.rng(at, at)
		return n, true
	}
	var n *graph.Node
	var ok bool
	switch c := p.src[j]; c {
	case '|', '>':
		return p.blockScalar(j, indent, depth)
	case '"', '\'':
		n, ok = p.quotedNode(j, depth)
	case '[', '{':
		var k int
		n, k, ok = p.flow(j, depth)
		if ok && !p.restIsEmpty(k) {
			return nil, false
		}
	default:
		n, ok = p.plainNode(j, depth)
	}
	if !ok {
		return nil, false
	}
	p.next()
	if !p.eof && p.ind > indent {
		return nil, false // a continuation line, or an error yaml.v3 reports
	}
	return n, true
}
