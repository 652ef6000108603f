package output

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// GitHubAnnotationLimit is how many annotations of one level GitHub shows for a step;
// the rest stay in the log only.
const GitHubAnnotationLimit = 10

// WriteGitHub writes one GitHub Actions workflow command per unsuppressed finding —
// ::error, ::warning or ::notice with file, line, col, endLine, endColumn and title —
// which GitHub turns into annotations on the run and on the pull request's diff. The
// message carries the rule and the chain's related locations on further lines. Paths
// are relative to the working directory, which is the checkout in a workflow. Control
// characters from the inputs are replaced, as in the text format, since the log
// renders escape sequences.
//
// GitHub shows at most GitHubAnnotationLimit annotations per level for a step, so a
// summary line follows, saying how many there are and where the rest are.
func WriteGitHub(w io.Writer, rep *Report) error {
	bw := bufio.NewWriter(w)
	perLevel := map[string]int{}
	findings, suppressed := active(rep.Findings)
	for _, f := range findings {
		level := githubLevel(severity(f))
		perLevel[level]++
		props := []string{"file=" + ghProperty(clean(relativePath(f.Range.File, rep.Dir)))}
		if s := f.Range.Start; s.Line > 0 {
			props = append(props, "line="+strconv.Itoa(int(s.Line)))
			if s.Column > 0 {
				props = append(props, "col="+strconv.Itoa(int(s.Column)))
			}
			if e := f.Range.End; e.Line >= s.Line && (e.Line > s.Line || e.Column > s.Column) {
				props = append(props, "endLine="+strconv.Itoa(int(e.Line)))
				// GitHub ignores columns on annotations that span lines.
				if e.Line == s.Line {
					props = append(props, "endColumn="+strconv.Itoa(int(e.Column)))
				}
			}
		}
		props = append(props, "title="+ghProperty(clean(ruleID(f)+" "+ruleName(f))))
		var msg strings.Builder
		msg.WriteString(clean(f.Message))
		if v := variantTag(f); v != "" {
			msg.WriteString(" (" + clean(v) + ")")
		}
		for _, rel := range f.Related {
			at := rel.Range
			at.File = relativePath(at.File, rep.Dir)
			msg.WriteString("\n  " + clean(at.String()) + ": " + clean(rel.Message))
		}
		fmt.Fprintf(bw, "::%s %s::%s\n", level, strings.Join(props, ","), ghData(msg.String()))
	}
	fmt.Fprintln(bw, githubSummary(Count(findings), suppressed, perLevel)+releasesNote(rep.Releases))
	return bw.Flush()
}

func githubLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "error"
	case lint.Warning:
		return "warning"
	}
	return "notice"
}

// githubSummary is a plain log line (not a command, so it is never hidden by the
// annotation limit): the counts, and which levels have more findings than GitHub
// shows as annotations.
func githubSummary(c Counts, suppressed int, perLevel map[string]int) string {
	s := "pvlint: " + summary(c) + suppressedNote(suppressed)
	var over []string
	for _, level := range []string{"error", "warning", "notice"} {
		if n := perLevel[level]; n > GitHubAnnotationLimit {
			over = append(over, fmt.Sprintf("%d of %d %ss", GitHubAnnotationLimit, n, level))
		}
	}
	if len(over) > 0 {
		s += "; GitHub shows only the first " + strings.Join(over, ", ") + " as annotations: every finding is listed above, and all of them in the SARIF report"
	}
	return s
}

// ghData escapes a workflow command's message: the runner decodes %25, %0D and %0A,
// so a message can hold several lines and never end the command early.
func ghData(s string) string { return ghDataEscaper.Replace(s) }

// The escapers are built once: a Replacer's table is ~10 KB, built per annotation it
// was a sixth of the memory of a large run.
var (
	ghDataEscaper     = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	ghPropertyEscaper = strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
)

// ghProperty escapes a property value, which additionally ends at ":" and ",".
func ghProperty(s string) string { return ghPropertyEscaper.Replace(s) }
