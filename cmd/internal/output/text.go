package output

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// WriteText writes one block per finding — the clickable file:line:col, severity,
// message and rule, the offending source line with a ^~~~ marker under the range, the
// related locations of the chain indented below — and a summary line. Everything taken
// from the inputs is stripped of control characters, so a hostile manifest cannot send
// escape sequences to the user's terminal.
func WriteText(w io.Writer, rep *Report) error {
	bw := bufio.NewWriter(w)
	p := painter{on: rep.Color}
	findings, suppressed := active(rep.Findings)
	for _, f := range findings {
		sev := severity(f)
		tag := ruleID(f) + " " + ruleName(f)
		if v := variantTag(f); v != "" {
			tag += ", " + clean(v)
		}
		fmt.Fprintf(bw, "%s: %s: %s [%s]\n", p.paint(bold, location(f.Range)), p.paint(sevStyle(sev), sev.String()), clean(f.Message), tag)
		writeExcerpt(bw, rep.Sources[f.Range.File], f.Range, p, sevStyle(sev))
		for _, rel := range f.Related {
			fmt.Fprintf(bw, "    %s: %s\n", location(rel.Range), clean(rel.Message))
		}
	}
	if !rep.Quiet {
		fmt.Fprintln(bw, summary(Count(findings))+suppressedNote(suppressed)+baselineNote(rep.Baseline)+exploredNote(rep.Explored)+releasesNote(rep.Releases))
	}
	return bw.Flush()
}

// baselineNote completes the summary with what the baseline hid:
// "; 5 in baseline b.json, 1 entry no longer occurs".
func baselineNote(b *Baseline) string {
	var s string
	if b != nil && (b.Matched > 0 || b.Stale > 0) {
		s += "; " + strconv.Itoa(b.Matched) + " in baseline " + clean(b.File)
		switch {
		case b.Stale == 1:
			s += ", 1 entry no longer occurs"
		case b.Stale > 1:
			s += ", " + strconv.Itoa(b.Stale) + " entries no longer occur"
		}
	}
	return s
}

// location is the file:line:col form editors and terminals make clickable.
func location(r graph.Range) string {
	if r.File == "" {
		return "<unknown>"
	}
	return clean(r.String())
}

// summary reads "no findings" or "3 findings: 1 error, 2 warnings".
func summary(c Counts) string {
	if c.Total() == 0 {
		return "no findings"
	}
	var parts []string
	for _, p := range []struct {
		n    int
		word string
	}{{c.Errors, "error"}, {c.Warnings, "warning"}, {c.Notes, "note"}} {
		if p.n > 0 {
			parts = append(parts, plural(p.n, p.word))
		}
	}
	return plural(c.Total(), "finding") + ": " + strings.Join(parts, ", ")
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.Itoa(n) + " " + word + "s"
}

// writeExcerpt prints the range's first line and a marker from the start column to
// the end of the range on that line (to the end of the line for a multi-line range
// or one without an end, one caret for an empty one). Columns count characters, as graph.Pos does; tabs are
// repeated in the marker's indentation so the caret lines up in any tab width.
func writeExcerpt(w io.Writer, src []byte, r graph.Range, p painter, style string) {
	line, ok := sourceLine(src, int(r.Start.Line))
	if !ok {
		return
	}
	runes := []rune(line)
	start := min(max(int(r.Start.Column)-1, 0), len(runes))
	end := utf8.RuneCountInString(strings.TrimRightFunc(line, unicode.IsSpace))
	if r.End.Line == r.Start.Line && r.End.Column >= r.Start.Column {
		end = int(r.End.Column) - 1
	}
	if end > len(runes) {
		end = len(runes)
	}
	width := max(end-start, 1)
	var indent strings.Builder
	for _, c := range runes[:start] {
		if c == '\t' {
			indent.WriteByte('\t')
		} else {
			indent.WriteByte(' ')
		}
	}
	num := strconv.Itoa(int(r.Start.Line))
	gutter := strings.Repeat(" ", len(num))
	fmt.Fprintf(w, "  %s | %s\n", num, line)
	fmt.Fprintf(w, "  %s | %s%s\n", gutter, indent.String(), p.paint(style, "^"+strings.Repeat("~", width-1)))
}

// sourceLine returns line n (1-based) of src without its line break, made safe to
// print: valid UTF-8, no byte-order mark, no control characters other than tabs.
func sourceLine(src []byte, n int) (string, bool) {
	if src == nil || n < 1 {
		return "", false
	}
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	for i := 1; i < n; i++ {
		nl := bytes.IndexByte(src, '\n')
		if nl < 0 {
			return "", false
		}
		src = src[nl+1:]
	}
	if nl := bytes.IndexByte(src, '\n'); nl >= 0 {
		src = src[:nl]
	}
	line := strings.ToValidUTF8(string(bytes.TrimSuffix(src, []byte("\r"))), "\uFFFD")
	return strings.Map(func(r rune) rune {
		if r != '\t' && (unicode.IsControl(r) || isBidi(r)) {
			return '?'
		}
		return r
	}, line), true
}

// clean makes a message or name one printable line: control characters, line
// breaks included, and bidirectional controls become spaces.
func clean(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || isBidi(r) {
			return ' '
		}
		return r
	}, s)
}

// isBidi reports the bidirectional formatting characters, which reorder how the text
// around them is displayed (Trojan Source, CVE-2021-42574): the embeddings and
// overrides U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E, U+200F
// and U+061C. Text from the inputs carries them into a reviewer's terminal or a pull
// request's page; like control characters, they are replaced.
func isBidi(r rune) bool {
	return r >= 0x202A && r <= 0x202E || r >= 0x2066 && r <= 0x2069 || r == 0x200E || r == 0x200F || r == 0x061C
}

// ANSI styles of the text format.
const (
	bold    = "1"
	red     = "1;31"
	yellow  = "1;33"
	cyan    = "1;36"
	noStyle = ""
)

func sevStyle(s lint.Severity) string {
	switch s {
	case lint.Error:
		return red
	case lint.Warning:
		return yellow
	case lint.Note:
		return cyan
	}
	return noStyle
}

// painter wraps text in ANSI escapes when colour is on.
type painter struct{ on bool }

func (p painter) paint(style, s string) string {
	if !p.on || style == noStyle {
		return s
	}
	return "\x1b[" + style + "m" + s + "\x1b[0m"
}

// variantTag names the variants a finding holds in, for messages: "variant app",
// "variants app; app (ci/ha-values.yaml)"; "" outside any variant.
func variantTag(f lint.Finding) string {
	vs := f.Variants()
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return "variant " + vs[0]
	}
	return "variants " + strings.Join(vs, "; ")
}

// variantsIfMany is every variant of a finding that holds in more than one, else nil.
func variantsIfMany(f lint.Finding) []string {
	if len(f.AlsoIn) == 0 {
		return nil
	}
	return f.Variants()
}

// exploredNote completes the summary with what --explore-values did.
func exploredNote(s string) string {
	if s == "" {
		return ""
	}
	return "; " + s
}
