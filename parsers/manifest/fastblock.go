package manifest

import (
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
