package output

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestMarkdownEscaping: text from the inputs cannot break the table or inject HTML.
func TestMarkdownEscaping(t *testing.T) {
	rule := &lint.Rule{ID: "PVL990", Name: "x_y", Severity: lint.Error}
	rep := &Report{Tool: Tool{Name: "pvlint"}, Findings: []lint.Finding{{Rule: rule, Severity: lint.Error,
		Message: "a | b <script>alert(1)</script> *c* [d](e) `f`\nnext",
		Range:   graph.Range{File: "dir/a_b.yaml", Start: graph.Pos{Line: 2, Column: 1}}}}}
	var b bytes.Buffer
	if err := WriteMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	want := "### pvlint: 1 finding: 1 error\n\n| severity | rule | location | finding |\n|---|---|---|---|\n" +
		"| error | PVL990 x\\_y | dir/a\\_b.yaml:2:1 | a \\| b &lt;script&gt;alert(1)&lt;/script&gt; \\*c\\* \\[d\\](e) \\`f\\` next |\n"
	if b.String() != want {
		t.Errorf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// TestMarkdownLimits: a clean run is one line, a huge one is capped with a note, and
// internal errors are listed.
func TestMarkdownLimits(t *testing.T) {
	var b bytes.Buffer
	if err := WriteMarkdown(&b, &Report{Tool: Tool{Name: "pvlint"}}); err != nil {
		t.Fatal(err)
	}
	if b.String() != "### pvlint: no findings\n\n" {
		t.Errorf("clean run = %q", b.String())
	}
	rule := &lint.Rule{ID: "PVL990", Name: "x", Severity: lint.Note}
	rep := &Report{Tool: Tool{Name: "pvlint"}, InternalErrors: []string{"rule PVL997 failed\nstack"}}
	for i := range MarkdownRowLimit + 3 {
		rep.Findings = append(rep.Findings, lint.Finding{Rule: rule, Message: fmt.Sprint("m", i), Range: graph.Range{File: "a.yaml"}})
	}
	b.Reset()
	if err := WriteMarkdown(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if n := strings.Count(out, "| note |"); n != MarkdownRowLimit {
		t.Errorf("%d rows, want %d", n, MarkdownRowLimit)
	}
	if !strings.Contains(out, "\n3 more findings are not shown here; the other reports list them all.\n") ||
		!strings.HasSuffix(out, "\n**Internal error:** rule PVL997 failed\n") {
		t.Errorf("tail:\n%s", out[len(out)-300:])
	}
}
