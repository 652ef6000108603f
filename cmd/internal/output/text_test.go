package output

import (
	"bytes"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

func rng(sl, sc, el, ec int32) graph.Range {
	return graph.Range{File: "f.yaml", Start: graph.Pos{Line: sl, Column: sc}, End: graph.Pos{Line: el, Column: ec}}
}

// TestExcerpt covers the marker under every shape of range and source line.
func TestExcerpt(t *testing.T) {
	src := "apiVersion: v1\nkind: Deployment\n  replicas: 3\n\tkey: tab\nname: \"é-web\"  \n"
	tests := []struct {
		name string
		src  string
		r    graph.Range
		want string // "" means no excerpt
	}{
		{"single line", src, rng(2, 7, 2, 17), "  2 | kind: Deployment\n    |       ^~~~~~~~~~\n"},
		{"to end of line when the range spans lines", src, rng(3, 3, 5, 1), "  3 |   replicas: 3\n    |   ^~~~~~~~~~~\n"},
		{"no end position", src, graph.Range{File: "f.yaml", Start: graph.Pos{Line: 3, Column: 13}}, "  3 |   replicas: 3\n    |             ^\n"},
		{"empty range gets one caret", src, rng(1, 5, 1, 5), "  1 | apiVersion: v1\n    |     ^\n"},
		{"tabs repeated in the indent", src, rng(4, 2, 4, 5), "  4 | \tkey: tab\n    | \t^~~\n"},
		{"columns count characters", src, rng(5, 8, 5, 13), "  5 | name: \"é-web\"  \n    |        ^~~~~\n"},
		{"trailing blanks not underlined", src, rng(5, 7, 6, 1), "  5 | name: \"é-web\"  \n    |       ^~~~~~~\n"},
		{"start beyond the line end", src, rng(1, 40, 1, 45), "  1 | apiVersion: v1\n    |               ^\n"},
		{"end beyond the line end", src, rng(1, 13, 1, 99), "  1 | apiVersion: v1\n    |             ^~\n"},
		{"CRLF and BOM", "\xef\xbb\xbfkind: Pod\r\nx: 1\r\n", rng(1, 7, 1, 10), "  1 | kind: Pod\n    |       ^~~\n"},
		{"control characters replaced", "name: \x1b[31mred\n", rng(1, 1, 1, 5), "  1 | name: ?[31mred\n    | ^~~~\n"},
		{"invalid UTF-8 replaced", "name: \xff\n", rng(1, 7, 1, 8), "  1 | name: \uFFFD\n    |       ^\n"},
		{"line beyond the file", src, rng(9, 1, 9, 2), ""},
		{"no line", src, graph.Range{File: "f.yaml"}, ""},
		{"no source", "", rng(1, 1, 1, 2), ""},
		{"wide gutter", strings.Repeat("\n", 99) + "kind: Pod\n", rng(100, 1, 100, 5), "  100 | kind: Pod\n      | ^~~~\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var src []byte
			if tt.src != "" {
				src = []byte(tt.src)
			}
			var b bytes.Buffer
			writeExcerpt(&b, src, tt.r, painter{}, noStyle)
			if d := cmp.Diff(tt.want, b.String()); d != "" {
				t.Errorf("excerpt (-want +got):\n%s", d)
			}
		})
	}
}

func TestSummary(t *testing.T) {
	tests := []struct {
		c    Counts
		want string
	}{
		{Counts{}, "no findings"},
		{Counts{Errors: 1}, "1 finding: 1 error"},
		{Counts{Errors: 1, Warnings: 2}, "3 findings: 1 error, 2 warnings"},
		{Counts{Warnings: 1, Notes: 3}, "4 findings: 1 warning, 3 notes"},
		{Counts{Errors: 2, Warnings: 1, Notes: 1}, "4 findings: 2 errors, 1 warning, 1 note"},
	}
	for _, tt := range tests {
		if got := summary(tt.c); got != tt.want {
			t.Errorf("summary(%+v) = %q, want %q", tt.c, got, tt.want)
		}
	}
}

func TestClean(t *testing.T) {
	if got, want := clean("a\x1b[2Jb\nc\td\xff"), "a [2Jb c d\uFFFD"; got != want {
		t.Errorf("clean = %q, want %q", got, want)
	}
}

func TestPainter(t *testing.T) {
	if got := (painter{on: true}).paint(red, "error"); got != "\x1b[1;31merror\x1b[0m" {
		t.Errorf("paint on = %q", got)
	}
	if got := (painter{on: false}).paint(red, "error"); got != "error" {
		t.Errorf("paint off = %q", got)
	}
}

// FuzzText: any source and any range print without panicking, and nothing taken
// from the input reaches the terminal as a control character.
func FuzzText(f *testing.F) {
	f.Add([]byte("kind: Pod\n\tname: x\r\n"), "msg", 1, 7, 1, 10)
	f.Add([]byte("\xef\xbb\xbfa: \xff\x1b[2J\n"), "a\nb", 1, 1, 0, 0)
	f.Add([]byte(""), "", -3, -1, 99, 99)
	f.Fuzz(func(t *testing.T, src []byte, msg string, sl, sc, el, ec int) {
		r := graph.Range{File: "f.yaml", Start: graph.Pos{Line: int32(sl), Column: int32(sc)}, End: graph.Pos{Line: int32(el), Column: int32(ec)}}
		rep := &Report{
			Findings: []lint.Finding{{Rule: &lint.Rule{ID: "PVL990", Name: "fuzz"}, Severity: lint.Warning, Message: msg, Range: r,
				Related: []lint.Related{{Range: r, Message: msg}}}},
			Sources: map[string][]byte{"f.yaml": src},
		}
		var b bytes.Buffer
		if err := WriteText(&b, rep); err != nil {
			t.Fatal(err)
		}
		for _, c := range b.String() {
			if c != '\n' && c != '\t' && unicode.IsControl(c) {
				t.Fatalf("control character %U in output:\n%q", c, b.String())
			}
		}
	})
}
