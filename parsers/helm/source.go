package helm

import (
	"bytes"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
)

// sourcePrefix starts the comment `helm template` writes before every rendered
// document, naming the template that produced it.
const sourcePrefix = "# Source: "

// Section is the part of a rendered stream that one template produced, as `helm
// template` marks it: a "# Source: chart/templates/x.yaml" comment at the start of a
// document, up to the end of that document.
type Section struct {
	Source string // the template path written after "# Source: "
	Line   int    // 1-based line of the comment
	End    int    // 1-based last line of the section, inclusive
}

// Split finds the sections of a rendered stream. A "# Source:" comment counts when it
// is the first non-blank line of a document (the start of the stream, or after a "---"
// marker line); the section ends where that document does. Documents without such a
// comment belong to no section. Split never fails: any input gives a (possibly empty)
// list of sections in stream order.
func Split(data []byte) []Section {
	var out []Section
	open := -1       // index in out of the section still collecting lines
	docStart := true // no content line seen since the last marker
	line := 0
	// Lines are looked at in place: a stream of any size costs no allocation per line,
	// only one string per section's template path.
	for off := 0; off < len(data); {
		line++
		end := bytes.IndexByte(data[off:], '\n')
		next := len(data)
		if end >= 0 {
			next = off + end + 1
			end = off + end
		} else {
			end = len(data)
		}
		text := bytes.TrimRight(data[off:end], "\r")
		off = next
		switch {
		case isDocMarkerBytes(text):
			if open >= 0 {
				out[open].End = line - 1
				open = -1
			}
			docStart = true
		case docStart && bytes.HasPrefix(text, []byte(sourcePrefix)):
			src := bytes.TrimSpace(text[len(sourcePrefix):])
			if len(src) > 0 {
				out = append(out, Section{Source: string(src), Line: line, End: line})
				open = len(out) - 1
			}
			docStart = false
		case !isBlank(text):
			docStart = false
		}
		if open >= 0 {
			out[open].End = line
		}
	}
	// A trailing blank run still belongs to the open section; nothing else to close.
	return out
}

// isBlank reports whether a line holds only white space (as strings.TrimSpace counts
// it, which includes Unicode spaces).
func isBlank(text []byte) bool {
	for _, c := range text {
		if c >= utf8.RuneSelf {
			return len(bytes.TrimSpace(text)) == 0
		}
		switch c {
		case ' ', '\t', '\n', '\v', '\f', '\r':
		default:
			return false
		}
	}
	return true
}

// isDocMarker reports whether a line is a YAML document marker ("---" or "...",
// optionally followed by a space or tab and more text).
func isDocMarker(text string) bool {
	if len(text) < 3 || (text[:3] != "---" && text[:3] != "...") {
		return false
	}
	return len(text) == 3 || text[3] == ' ' || text[3] == '\t'
}

// isDocMarkerBytes is isDocMarker on a line still in its buffer.
func isDocMarkerBytes(text []byte) bool {
	if len(text) < 3 || !(text[0] == '-' && text[1] == '-' && text[2] == '-' || text[0] == '.' && text[1] == '.' && text[2] == '.') {
		return false
	}
	return len(text) == 3 || text[3] == ' ' || text[3] == '\t'
}

// Annotate marks the resources parsed from a `helm template` stream (a file or
// standard input) with the template each came from: Origin.Source, the helm format,
// and a related location at the "# Source:" comment. Findings stay at the stream's
// own lines (docs/rules.md#decision-8); the template path travels with them. It reports
// whether the stream had any "# Source:" sections.
func Annotate(file string, data []byte, rs []*graph.Resource) bool {
	secs := Split(data)
	if len(secs) == 0 {
		return false
	}
	lines := graph.NewLines(data)
	for _, r := range rs {
		if r.Origin.File != file {
			continue
		}
		l := int(r.Range.Start.Line)
		i := sectionAt(secs, l)
		if i < 0 {
			continue
		}
		s := secs[i]
		r.Origin.Format = graph.FormatHelm
		r.Origin.Source = s.Source
		r.Related = append(r.Related, graph.Location{
			Range:   lines.Range(file, data, s.Line),
			Message: "rendered from template " + s.Source,
		})
	}
	return true
}

// sectionAt returns the index of the section holding line, or -1.
func sectionAt(secs []Section, line int) int {
	lo, hi := 0, len(secs)-1
	for lo <= hi {
		mid := (lo + hi) / 2
		switch {
		case line < secs[mid].Line:
			hi = mid - 1
		case line > secs[mid].End:
			lo = mid + 1
		default:
			return mid
		}
	}
	return -1
}
