package output

import (
	"bufio"
	"fmt"
	"io"
	"strings"
)

// MarkdownRowLimit caps the table of the Markdown report. GitHub rejects a job
// summary over 1 MiB, and a table of thousands of rows helps nobody; the full list is
// in the other reports.
const MarkdownRowLimit = 500

// WriteMarkdown writes a heading with the counts and a GitHub-flavoured Markdown table
// of the unsuppressed findings — severity, rule, location, message — for a GitHub job summary
// ($GITHUB_STEP_SUMMARY) or a merge-request comment. Text from the inputs is escaped,
// so a manifest cannot inject Markdown or HTML into the page.
func WriteMarkdown(w io.Writer, rep *Report) error {
	bw := bufio.NewWriter(w)
	findings, suppressed := active(rep.Findings)
	c := Count(findings)
	fmt.Fprintf(bw, "### %s: %s%s\n\n", mdEscape(nonEmpty(rep.Tool.Name, "pvlint")), summary(c), suppressedNote(suppressed)+releasesNote(rep.Releases))
	if c.Total() > 0 {
		fmt.Fprintln(bw, "| severity | rule | location | finding |")
		fmt.Fprintln(bw, "|---|---|---|---|")
		for i, f := range findings {
			if i == MarkdownRowLimit {
				fmt.Fprintf(bw, "\n%d more findings are not shown here; the other reports list them all.\n", len(findings)-i)
				break
			}
			at := f.Range
			at.File = relativePath(at.File, rep.Dir)
			msg := f.Message
			if v := variantTag(f); v != "" {
				msg += " (" + v + ")"
			}
			fmt.Fprintf(bw, "| %s | %s %s | %s | %s |\n", severity(f), ruleID(f), mdEscape(ruleName(f)), mdEscape(location(at)), mdEscape(msg))
		}
	}
	for _, msg := range rep.InternalErrors {
		first, _, _ := strings.Cut(msg, "\n")
		fmt.Fprintf(bw, "\n**Internal error:** %s\n", mdEscape(first))
	}
	return bw.Flush()
}

// mdEscape makes input text literal inside a table cell: control characters become
// spaces, and every character Markdown or HTML could read as syntax is escaped.
func mdEscape(s string) string {
	return mdEscaper.Replace(clean(s))
}

var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`,
	"<", "&lt;", ">", "&gt;", "&", "&amp;", "|", `\|`, "~", `\~`,
)
