package helm

import (
	"strings"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
)

// mapper rewrites the ranges of resources parsed from a rendered stream so that they
// point into the chart's templates. A node whose key is found in the template gets
// that line; any other node gets the position of its nearest ancestor that was found,
// and the resource itself the start of the template document that produced it. No
// position is ever computed from anything but a template line that exists.
type mapper struct {
	name    string // the stream's virtual file name
	stream  []byte
	lines   graph.Lines
	defines map[string]*scope // every define of the chart and its subcharts
	last    map[*tplFile]int  // the document the previous object of a template came from
	work    int               // lookups spent choosing documents
}

// scopeRef is a scope whose entry paths start at prefix (the path where an include
// landed).
type scopeRef struct {
	sc     *scope
	prefix []string
}

// cand is a skeleton entry that could have produced a rendered node.
type cand struct {
	e  *entry
	sc *scope
}

// maxScopes bounds how many include expansions one node can look through.
const maxScopes = 64

// resource maps one rendered resource onto template file f and returns the index of
// the template document that produced it.
func (m *mapper) resource(r *graph.Resource, f *tplFile) int {
	i := m.pickRegion(r.Object, f)
	if i < 0 {
		return 0
	}
	region := f.regions[i]
	root := f.span(region.first, region.last)
	m.mapMap(r.Object, nil, []scopeRef{{sc: region}}, f.lineRange(region.first))
	r.Object.Range = root
	r.Range = root
	return i
}

// Bounds on choosing a template document, so a hostile template with thousands of
// documents costs linear time: fields scored per object, and lookups per stream.
const (
	maxScoredFields = 256
	maxScoreWork    = 4_000_000
)

// pickRegion chooses the document of the template whose skeleton explains most of
// the rendered object's keys (-1 when the template has none). Documents are tried
// from the one after the previous object's (a template renders its documents in
// order; a range loop repeats one), and the first that explains every key wins, so
// identical documents map one to one.
func (m *mapper) pickRegion(obj *graph.Node, f *tplFile) int {
	n := len(f.regions)
	if n <= 1 {
		return n - 1
	}
	if m.last == nil {
		m.last = map[*tplFile]int{}
	}
	prev, seen := m.last[f]
	if !seen {
		prev = -1
	}
	type field struct {
		path []string
		text string
	}
	var fields []field
	eachField(obj, nil, func(p []string, fl *graph.Field) {
		if len(fields) < maxScoredFields {
			fields = append(fields, field{p, m.text(int(fl.KeyRange.Start.Line))})
		}
	})
	best, bestScore := (prev+1)%n, -1
	for k := 1; k <= n && m.work < maxScoreWork; k++ {
		i := (prev + k) % n
		refs := []scopeRef{{sc: f.regions[i]}}
		score := 0
		for _, fl := range fields {
			m.work++
			if len(m.find(refs, fl.path, fl.text, keyEntry, true)) > 0 {
				score++
			}
		}
		if score > bestScore {
			best, bestScore = i, score
		}
		if score == len(fields) {
			break
		}
	}
	m.last[f] = best
	return best
}

// eachField calls fn for every map entry below n with its key path.
func eachField(n *graph.Node, p []string, fn func([]string, *graph.Field)) {
	switch n.Kind {
	case graph.Map:
		for i := range n.Fields() {
			fp := appendPath(p, n.Fields()[i].Key)
			fn(fp, &n.Fields()[i])
			eachField(n.Fields()[i].Value, fp, fn)
		}
	case graph.List:
		ip := appendPath(p, item)
		for _, it := range n.Items() {
			eachField(it, ip, fn)
		}
	}
}

func appendPath(p []string, seg string) []string {
	out := make([]string, len(p)+1)
	copy(out, p)
	out[len(p)] = seg
	return out
}

// text returns a line of the rendered stream from its first non-blank character.
func (m *mapper) text(line int) string {
	if line < 1 || line > len(m.lines) {
		return ""
	}
	return strings.TrimSpace(string(m.stream[m.lines[line-1]:m.lines.End(m.stream, line)]))
}

// extend adds the define bodies included at path p to the scopes searched below it.
func (m *mapper) extend(scopes []scopeRef, p []string) []scopeRef {
	out := scopes
	// Included templates may include others at the same path: expand to a fixpoint.
	for k := 0; k < len(out); k++ {
		ref := out[k]
		for _, i := range ref.sc.sites {
			e := &ref.sc.entries[i]
			if !pathEq(ref.prefix, e.sitePath, p) {
				continue
			}
			for _, name := range e.includes {
				def := m.defines[name]
				if def == nil || len(out) >= maxScopes || hasScope(out, def, len(p)) {
					continue
				}
				if len(out) == len(scopes) {
					out = append([]scopeRef(nil), scopes...)
				}
				out = append(out, scopeRef{sc: def, prefix: p})
			}
		}
	}
	return out
}

func hasScope(refs []scopeRef, sc *scope, depth int) bool {
	for _, r := range refs {
		if r.sc == sc && len(r.prefix) == depth {
			return true
		}
	}
	return false
}

// pathEq reports whether prefix+tpl (a template path, possibly with wildcards) equals
// the rendered path p.
func pathEq(prefix, tpl, p []string) bool {
	if len(prefix)+len(tpl) != len(p) {
		return false
	}
	for i, s := range prefix {
		if p[i] != s {
			return false
		}
	}
	for i, s := range tpl {
		q := p[len(prefix)+i]
		if s != q && (s != wildcard || q == item) {
			return false
		}
	}
	return true
}

// find returns the entries of kind k at path p. Entries whose literal text matches
// the rendered line are preferred; with strict, only those count.
func (m *mapper) find(scopes []scopeRef, p []string, text string, k entryKind, strict bool) []cand {
	var exact, loose []cand
	for _, ref := range scopes {
		if len(p) < len(ref.prefix) || !pathEq(nil, ref.prefix, p[:len(ref.prefix)]) {
			continue
		}
		idx := ref.sc.byPath[joinPath(p[len(ref.prefix):])]
		if len(ref.sc.wild) > 0 {
			idx = append(idx[:len(idx):len(idx)], ref.sc.wild...)
		}
		for _, i := range idx {
			e := &ref.sc.entries[i]
			if e.kind != k || !pathEq(ref.prefix, e.path, p) {
				continue
			}
			if glob(e.pattern, text) {
				exact = append(exact, cand{e, ref.sc})
			} else {
				loose = append(loose, cand{e, ref.sc})
			}
		}
	}
	if len(exact) > 0 || strict {
		return exact
	}
	return loose
}

// choose picks among candidates the most literal one (a line written out in full
// beats one with actions in it), then the one nearest to an anchor (a line of the same
// file already matched nearby); without an anchor, the first.
func choose(cs []cand, anchors []cand) *cand {
	if len(cs) == 0 {
		return nil
	}
	most := 0
	for _, c := range cs {
		most = max(most, literalLen(c.e.pattern))
	}
	kept := cs[:0:0]
	for _, c := range cs {
		if literalLen(c.e.pattern) == most {
			kept = append(kept, c)
		}
	}
	cs = kept
	best, bestDist := 0, -1
	for i, c := range cs {
		for _, a := range anchors {
			if a.sc.file != c.sc.file {
				continue
			}
			d := c.e.line - a.e.line
			if d < 0 {
				d = -d
			}
			if bestDist < 0 || d < bestDist {
				best, bestDist = i, d
			}
		}
	}
	return &cs[best]
}

// mapMap maps the fields of a map at path p and returns the range of its first
// field found in a template (invalid when none was).
func (m *mapper) mapMap(n *graph.Node, p []string, scopes []scopeRef, fb graph.Range) graph.Range {
	scopes = m.extend(scopes, p)
	picks := make([]*cand, len(n.Fields()))
	var anchors []cand
	ambiguous := make([][]cand, len(n.Fields()))
	for i := range n.Fields() {
		f := &n.Fields()[i]
		if f.KeyRange.File != m.name {
			continue // shared through a YAML alias and already mapped
		}
		cs := m.find(scopes, appendPath(p, f.Key), m.text(int(f.KeyRange.Start.Line)), keyEntry, false)
		switch len(cs) {
		case 0:
		case 1:
			picks[i] = &cs[0]
			anchors = append(anchors, cs[0])
		default:
			ambiguous[i] = cs
		}
	}
	for i, cs := range ambiguous {
		if cs != nil {
			picks[i] = choose(cs, anchors)
		}
	}
	var first graph.Range
	for i := range n.Fields() {
		f := &n.Fields()[i]
		if f.KeyRange.File != m.name {
			continue
		}
		fp := appendPath(p, f.Key)
		c := picks[i]
		if c == nil {
			f.KeyRange = fb
			m.mapValue(f.Value, fp, scopes, fb, nil)
			continue
		}
		kr := c.sc.file.colRange(c.e.line, c.e.keyCol, c.e.keyEnd)
		f.KeyRange = kr
		if !first.IsValid() {
			first = kr
		}
		m.mapValue(f.Value, fp, scopes, kr, c)
	}
	return first
}

// mapValue maps a field's value; at is where its key was placed.
func (m *mapper) mapValue(v *graph.Node, p []string, scopes []scopeRef, at graph.Range, c *cand) {
	if v == nil || v.Range.File != m.name {
		return
	}
	switch v.Kind {
	case graph.Map:
		m.mapMap(v, p, scopes, at)
		v.Range = at
	case graph.List:
		m.mapList(v, p, scopes, at)
		v.Range = at
	default:
		if c != nil && c.e.valCol > 0 {
			v.Range = c.sc.file.colRange(c.e.line, c.e.valCol, c.e.valEnd)
		} else {
			v.Range = at
		}
	}
}

// mapList maps the elements of a list at path p.
func (m *mapper) mapList(n *graph.Node, p []string, scopes []scopeRef, fb graph.Range) {
	scopes = m.extend(scopes, p)
	ip := appendPath(p, item)
	var prev []cand
	for _, it := range n.Items() {
		if it == nil || it.Range.File != m.name {
			continue
		}
		switch it.Kind {
		case graph.Map:
			if r := m.mapMap(it, ip, scopes, fb); r.IsValid() {
				it.Range = r
			} else {
				it.Range = fb
			}
		case graph.List:
			m.mapList(it, ip, scopes, fb)
			it.Range = fb
		default:
			c := choose(m.find(scopes, ip, m.text(int(it.Range.Start.Line)), itemEntry, false), prev)
			if c == nil {
				it.Range = fb
				continue
			}
			it.Range = c.sc.file.colRange(c.e.line, c.e.keyCol, c.e.keyEnd)
			prev = []cand{*c}
		}
	}
}

// literalLen counts the bytes of a pattern that are not template actions.
func literalLen(pattern string) int {
	return len(pattern) - strings.Count(pattern, string(hole))
}

// glob matches text against a masked pattern in which each run of hole bytes stands
// for any text.
func glob(pattern, text string) bool {
	parts := strings.FieldsFunc(pattern, func(r rune) bool { return r == hole })
	if len(parts) == 0 {
		return true
	}
	anchoredStart := pattern[0] != hole
	anchoredEnd := pattern[len(pattern)-1] != hole
	pos := 0
	for i, part := range parts {
		switch {
		case i == 0 && anchoredStart:
			if !strings.HasPrefix(text, part) {
				return false
			}
			pos = len(part)
		case i == len(parts)-1 && anchoredEnd:
			if len(text)-len(part) < pos || !strings.HasSuffix(text, part) {
				return false
			}
			pos = len(text)
		default:
			k := strings.Index(text[pos:], part)
			if k < 0 {
				return false
			}
			pos += k + len(part)
		}
	}
	if len(parts) == 1 && anchoredStart && anchoredEnd {
		return text == parts[0]
	}
	return true
}

// pos returns the position of a 1-based line and character column of the file.
func (f *tplFile) pos(line, col int) graph.Pos {
	if line < 1 || line > len(f.lines) {
		return graph.NewPos(line, col, 0)
	}
	off := f.lines[line-1]
	for c := 1; c < col && off < len(f.src) && f.src[off] != '\n'; c++ {
		_, size := utf8.DecodeRune(f.src[off:])
		off += size
	}
	return graph.NewPos(line, col, off)
}

// colRange is the range of columns [from, to) of a line.
func (f *tplFile) colRange(line, from, to int) graph.Range {
	if to < from {
		to = from
	}
	return graph.Range{File: f.display, Start: f.pos(line, from), End: f.pos(line, to)}
}

// lineRange is the range of a whole line's text.
func (f *tplFile) lineRange(line int) graph.Range {
	return f.lines.Range(f.display, f.src, line)
}

// span is the range from the start of line first to the end of line last.
func (f *tplFile) span(first, last int) graph.Range {
	a, b := f.lineRange(first), f.lineRange(last)
	return graph.Range{File: f.display, Start: a.Start, End: b.End}
}
