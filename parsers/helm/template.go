package helm

import (
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
)

// A chart template is YAML with Go template actions in it. To point a finding on a
// rendered resource back at the template, each template is read as a YAML skeleton:
// every line that holds a key (or a list item) gets the key path it sits at, found
// from indentation as a YAML parser would, with actions masked out. Rendered nodes are
// then matched to skeleton lines by key path and by the line's literal text.

// hole replaces every byte of a template action in masked text, so columns and byte
// offsets stay those of the original file.
const hole = '\x00'

// wildcard is a path segment for a key computed by an action ({{ $k }}: ...); it
// matches any rendered key.
const wildcard = "\x00"

// item is the path segment of a list element.
const item = "[]"

// entry is one meaningful line of a template: a key, a list item, or an action-only
// line that includes a named template (an include site).
type entry struct {
	kind   entryKind
	line   int      // 1-based line in the file
	path   []string // key path from the scope's root
	key    string   // the key; "" for list items and include sites
	keyCol int      // 1-based character columns of the key (or of the item's value)
	keyEnd int
	valCol int // 1-based character columns of the value text after "key:"; 0 when none
	valEnd int
	// pattern is the line's masked text from its first non-blank character, with
	// each run of hole bytes standing for "anything".
	pattern string
	// includes names the templates included on the line; their output lands at
	// sitePath.
	includes []string
	sitePath []string
}

// entryKind says what a skeleton line holds.
type entryKind uint8

const (
	keyEntry  entryKind = iota // "key: value" (possibly after "- ")
	itemEntry                  // "- value": a scalar list element
	siteEntry                  // an action-only line including a named template
)

// scope is a document of a template file, or the body of a define block: the entries
// whose paths start at one root.
type scope struct {
	file    *tplFile
	entries []entry
	first   int // first line with content, 0 when empty
	last    int
	// byPath indexes the key and item entries by joined path; wild lists those with
	// a computed key, which match by pathEq; sites lists the entries with includes.
	byPath map[string][]int
	wild   []int
	sites  []int
}

// index builds the scope's lookups once its entries are known.
func (sc *scope) index() {
	sc.byPath = map[string][]int{}
	for i, e := range sc.entries {
		if len(e.includes) > 0 {
			sc.sites = append(sc.sites, i)
		}
		if e.kind == siteEntry {
			continue
		}
		if containsSeg(e.path, wildcard) {
			sc.wild = append(sc.wild, i)
			continue
		}
		k := joinPath(e.path)
		sc.byPath[k] = append(sc.byPath[k], i)
	}
}

// joinPath is the index key of a path.
func joinPath(p []string) string { return strings.Join(p, "\x1f") }

func containsSeg(p []string, seg string) bool {
	return slices.Contains(p, seg)
}

// tplFile is one chart template analysed for position mapping.
type tplFile struct {
	name    string // rendered name, chart/templates/x.yaml
	display string // the path users open
	src     []byte
	lines   graph.Lines // where each line starts
	regions []*scope
	defines map[string]*scope
}

// analyse reads a template into its skeleton.
func analyse(name, display string, src []byte) *tplFile {
	f := &tplFile{name: name, display: display, src: src, lines: graph.NewLines(src), defines: map[string]*scope{}}
	acts := lexActions(src)
	masked := []byte(string(src))
	for _, a := range acts {
		for i := a.start; i < a.end; i++ {
			if masked[i] != '\n' {
				masked[i] = hole
			}
		}
	}
	bodies := defineBodies(acts)
	main := &builder{f: f, isMain: true}
	main.newScope()
	builders := make([]*builder, len(bodies))
	for i, b := range bodies {
		builders[i] = &builder{f: f}
		builders[i].newScope()
		if _, dup := f.defines[b.name]; !dup {
			f.defines[b.name] = builders[i].sc
		}
	}
	ai := 0
	for ln := 1; ln <= len(f.lines); ln++ {
		ls, le := f.lines[ln-1], f.lines.End(src, ln)
		// The actions on this line, for include names and indentation hints.
		for ai < len(acts) && acts[ai].end <= ls {
			ai++
		}
		var lineActs []string
		for k := ai; k < len(acts) && acts[k].start < le; k++ {
			lineActs = append(lineActs, acts[k].text)
		}
		b := main
		if at := firstContent(masked, ls, le); at >= 0 {
			for i, bd := range bodies {
				if at >= bd.start && at < bd.end {
					b = builders[i]
					break
				}
			}
		}
		b.line(ln, string(masked[ls:le]), string(src[ls:le]), lineActs)
	}
	main.finish()
	f.regions = main.done
	for _, sc := range f.regions {
		sc.index()
	}
	for _, sc := range f.defines {
		sc.index()
	}
	return f
}

// firstContent returns the offset of the first non-blank byte of a line (a hole
// counts), or -1.
func firstContent(masked []byte, ls, le int) int {
	for i := ls; i < le; i++ {
		if c := masked[i]; c != ' ' && c != '\t' && c != '\r' {
			return i
		}
	}
	return -1
}

// frame is one level of the indentation stack.
type frame struct {
	indent int // 0-based column
	seg    string
	isItem bool
}

// builder collects the entries of one context (the main text or a define body).
type builder struct {
	f      *tplFile
	isMain bool // the file's own text, split into documents at "---"
	sc     *scope
	done   []*scope
	stack  []frame
	block  int // indentation a block scalar's content must exceed; -1 when none
}

func (b *builder) newScope() {
	b.sc = &scope{file: b.f}
	b.stack = nil
	b.block = -1
}

func (b *builder) finish() {
	if b.sc != nil && b.sc.first > 0 {
		b.done = append(b.done, b.sc)
	}
}

func (b *builder) touch(ln int) {
	if b.sc.first == 0 {
		b.sc.first = ln
	}
	b.sc.last = ln
}

// path returns the segments of the frames with an indentation below col.
func (b *builder) pathBelow(col int) []string {
	var p []string
	for _, fr := range b.stack {
		if fr.indent < col {
			p = append(p, fr.seg)
		}
	}
	return p
}

func (b *builder) segs() []string {
	p := make([]string, len(b.stack))
	for i, fr := range b.stack {
		p[i] = fr.seg
	}
	return p
}

// line adds one template line. masked has actions replaced by holes; orig is the
// original text; acts are the texts of the actions touching the line.
func (b *builder) line(ln int, masked, orig string, acts []string) {
	masked = strings.TrimRight(masked, " \t\r")
	indent := len(masked) - len(strings.TrimLeft(masked, " "))
	content := masked[indent:]
	if content == "" {
		return
	}
	if b.block >= 0 {
		if indent > b.block || strings.Trim(content, string(hole)+" ") == "" {
			b.touch(ln)
			return
		}
		b.block = -1
	}
	if strings.Trim(content, string(hole)+" \t") == "" {
		b.site(ln, indent, acts)
		return
	}
	if content[0] == '#' {
		return
	}
	if isDocMarker(content) && indent == 0 {
		if b.isMain {
			b.finish()
			b.newScope()
		} else {
			b.stack, b.block = nil, -1
		}
		return
	}
	b.touch(ln)
	col := indent // 0-based byte column in masked
	if start := col; col < len(masked) && masked[col] == hole {
		// "{{- if .x }}key: v": the action prints nothing the skeleton can use; but in
		// "{{ $k }}: v" the action is the key.
		for col < len(masked) && masked[col] == hole {
			col++
		}
		for col < len(masked) && masked[col] == ' ' {
			col++
		}
		if col < len(masked) && masked[col] == ':' {
			col = start
		}
	}
	for {
		rest := masked[col:]
		if !(rest == "-" || strings.HasPrefix(rest, "- ") || strings.HasPrefix(rest, "-\t")) {
			break
		}
		b.pop(col, true)
		b.stack = append(b.stack, frame{indent: col, seg: item, isItem: true})
		n := 1
		for col+n < len(masked) && (masked[col+n] == ' ' || masked[col+n] == '\t') {
			n++
		}
		next := col + n
		if next >= len(masked) || !startsKey(masked[next:]) {
			// A scalar (or nested flow) list element: record the item itself.
			e := b.entry(ln, masked, "", next, len(masked), 0, 0)
			e.kind = itemEntry
			b.sc.entries = append(b.sc.entries, e)
			if next < len(masked) && masked[next] == '-' {
				col = next
				continue
			}
			return
		}
		col = next
	}
	key, kend, ok := parseKey(masked[col:])
	if !ok {
		return
	}
	b.pop(col, false)
	seg := key
	if strings.ContainsRune(key, hole) {
		seg = wildcard
	}
	b.stack = append(b.stack, frame{indent: col, seg: seg})
	vstart := col + kend
	for vstart < len(masked) && (masked[vstart] == ' ' || masked[vstart] == '\t') {
		vstart++
	}
	e := b.entry(ln, masked, key, col, col+len(key)+quoteWidth(masked[col:]), vstart, len(masked))
	value := masked[vstart:]
	if isBlockIndicator(value) {
		b.block = col
		e.valCol, e.valEnd = 0, 0
	}
	if value != "" && strings.Trim(value, string(hole)+" ") == "" {
		// "key: {{ include ... | nindent N }}": the included text lands under the key.
		e.includes = includeNames(acts)
		e.sitePath = e.path
	}
	b.sc.entries = append(b.sc.entries, e)
}

// site records an action-only line; an include on it lands at the indentation its
// nindent/indent argument (or the line itself) says.
func (b *builder) site(ln, indent int, acts []string) {
	names := includeNames(acts)
	if len(names) == 0 {
		return
	}
	col := indent
	for _, a := range acts {
		if m := indentRe.FindStringSubmatch(a); m != nil {
			if n, err := strconv.Atoi(m[1]); err == nil {
				col = n
			}
		}
	}
	b.touch(ln)
	p := b.pathBelow(col)
	b.sc.entries = append(b.sc.entries, entry{kind: siteEntry, line: ln, path: p, includes: names, sitePath: p})
}

// pop removes the frames a new node at col closes: deeper ones, and for a list item
// an earlier item at the same column (a key at the same column is its parent).
func (b *builder) pop(col int, isItem bool) {
	for len(b.stack) > 0 {
		top := b.stack[len(b.stack)-1]
		if top.indent > col || top.indent == col && (!isItem || top.isItem) {
			b.stack = b.stack[:len(b.stack)-1]
			continue
		}
		break
	}
}

// entry builds an entry at the current stack with columns given as byte offsets
// into masked.
func (b *builder) entry(ln int, masked, key string, ks, ke, vs, ve int) entry {
	trimmed := strings.TrimLeft(masked, " ")
	e := entry{line: ln, path: b.segs(), key: key, pattern: trimmed}
	e.keyCol, e.keyEnd = runeCol(masked, ks), runeCol(masked, ke)
	if vs > 0 && vs < ve {
		e.valCol, e.valEnd = runeCol(masked, vs), runeCol(masked, ve)
	}
	return e
}

// runeCol converts a byte offset in a line to a 1-based character column.
func runeCol(line string, off int) int {
	if off > len(line) {
		off = len(line)
	}
	return utf8.RuneCountInString(line[:off]) + 1
}
