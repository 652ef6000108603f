package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// bidiRunes are the bidirectional formatting characters (Trojan Source).
var bidiRunes = []rune{0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069, 0x200E, 0x200F, 0x061C}

// TestBidiEscaped: a bidirectional control in a message, a file name, a variant or a
// source line reaches no human-facing format raw: text (with its source excerpt),
// GitHub annotations and the Markdown job summary replace it as they replace control
// characters.
func TestBidiEscaped(t *testing.T) {
	for _, r := range bidiRunes {
		t.Run(fmt.Sprintf("U+%04X", r), func(t *testing.T) {
			b := string(r)
			rule := &lint.Rule{ID: "PVL990", Name: "x", Severity: lint.Error}
			file := "k8s/a" + b + ".yaml"
			rep := &Report{Tool: Tool{Name: "pvlint"}, Rules: []*lint.Rule{rule}, Findings: []lint.Finding{{
				Rule: rule, Severity: lint.Error, Message: "claim " + b + "atad" + b, Variant: "v" + b,
				Range:   graph.Range{File: file, Start: graph.Pos{Line: 1, Column: 1}, End: graph.Pos{Line: 1, Column: 5}},
				Related: []lint.Related{{Message: "mounted " + b, Range: graph.Range{File: file, Start: graph.Pos{Line: 1, Column: 1}}}},
			}}, Sources: map[string][]byte{file: []byte("name: " + b + "data\n")}}
			for name, write := range map[string]func(*bytes.Buffer) error{
				"text":     func(w *bytes.Buffer) error { return WriteText(w, rep) },
				"github":   func(w *bytes.Buffer) error { return WriteGitHub(w, rep) },
				"markdown": func(w *bytes.Buffer) error { return WriteMarkdown(w, rep) },
			} {
				var out bytes.Buffer
				if err := write(&out); err != nil {
					t.Fatal(err)
				}
				if strings.ContainsRune(out.String(), r) {
					t.Errorf("%s output holds U+%04X raw:\n%q", name, r, out.String())
				}
				if !strings.Contains(out.String(), "claim  atad") {
					t.Errorf("%s output lost the message around the character:\n%q", name, out.String())
				}
			}
			var ex bytes.Buffer
			writeExcerpt(&ex, []byte("name: "+b+"data\n"), rep.Findings[0].Range, painter{}, noStyle)
			if want := "  1 | name: ?data\n    | ^~~~\n"; ex.String() != want {
				t.Errorf("excerpt %q, want %q", ex.String(), want)
			}
		})
	}
	if got := clean("a\u202eb\u2066c"); got != "a b c" {
		t.Errorf("clean = %q", got)
	}
}
