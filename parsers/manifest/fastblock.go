package manifest

import (
	"bytes"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	yaml "go.yaml.in/yaml/v3"
)

// Block scalars of the fast path (see fast.go).

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
	skip := p.skipData && depth == 2 && dataKeys[p.topKey]
	// lines are the content lines without the indentation; "" for blank lines.
	lines := p.mem.lineStack[:0]
	defer func() { p.mem.lineStack = lines[:0] }()
	for p.nextLine(); !p.eof; p.nextLine() {
		if p.ls+p.ind == p.le {
			if block >= 0 && p.ind > block {
				return nil, false // spaces beyond the indentation are content
			}
			leadingBlank = max(leadingBlank, p.ind)
			if !skip {
				lines = append(lines, "")
			}
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
		if !skip {
			lines = append(lines, p.text[p.ls+block:p.le])
		}
	}
	if block < 0 {
		return nil, false
	}
	kind, value := graph.String, ""
	if skip {
		kind = graph.Unknown
	} else {
		value = p.blockText(lines, literal, chomp, header)
	}
	n, ok := p.newNode(kind, depth)
	if !ok {
		return nil, false
	}
	n.Scalar = value
	var st yaml.Style = yaml.LiteralStyle
	if !literal {
		st = yaml.FoldedStyle
	}
	n.Range = p.rng(start, p.c.scalarEnd(st, value, start))
	p.skipEmpty()
	if !p.eof && p.ind > indent {
		return nil, false
	}
	return n, true
}

// dataKeys are the top-level keys of ConfigMaps and Secrets that hold their content.
var dataKeys = map[string]bool{"data": true, "binaryData": true, "stringData": true}

// blockText is the value of a block scalar from its content lines (at least one not
// blank) and its header's line.
func (p *fastParser) blockText(lines []string, literal bool, chomp byte, header int) string {
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
		for range trailing {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// configDocument reports whether a document is a ConfigMap or Secret whose data
// Options.SkipConfigData may leave unread: its top-level kind line names one of them
// and nothing in it mentions the local-path-provisioner's ConfigMap. A document it
// cannot tell about is kept whole.
func configDocument(doc []byte) bool {
	kind := topLevelKind(doc)
	if kind != "ConfigMap" && kind != "Secret" {
		return false
	}
	return !bytes.Contains(doc, []byte(graph.LocalPathConfigName))
}

// topLevelKind is the plain or quoted value of the first "kind:" key at the start of a
// line, or "" when there is none.
func topLevelKind(doc []byte) string {
	for off := 0; ; {
		i := bytes.Index(doc[off:], []byte("kind:"))
		if i < 0 {
			return ""
		}
		i += off
		off = i + len("kind:")
		if i > 0 && doc[i-1] != '\n' {
			continue
		}
		v := doc[off:]
		if e := bytes.IndexByte(v, '\n'); e >= 0 {
			v = v[:e]
		}
		if c := bytes.Index(v, []byte(" #")); c >= 0 {
			v = v[:c]
		}
		v = bytes.TrimSpace(v)
		if len(v) >= 2 && (v[0] == '"' || v[0] == '\'') && v[len(v)-1] == v[0] {
			v = v[1 : len(v)-1]
		}
		return string(v)
	}
}
