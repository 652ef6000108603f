package linttest

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// want is one expected finding: a regexp on a line of a file.
type want struct {
	re   *regexp.Regexp
	text string // the regexp as written, for messages
	used bool
}

// lineKey is a file (as the loader displays it) and a 1-based line.
type lineKey struct {
	file string
	line int
}

// wantSet holds every expectation of a fixture directory.
type wantSet struct {
	byLine map[lineKey][]*want
}

// wantComment finds a want comment: `# want` or `// want` followed by the regexps.
var wantComment = regexp.MustCompile(`(?:#|//)\s*want\s+(.*)$`)

// parseComments reads the want comments of one source file.
func (ws *wantSet) parseComments(file, src string) error {
	for i, line := range strings.Split(src, "\n") {
		m := wantComment.FindStringSubmatch(strings.TrimRight(line, "\r"))
		if m == nil {
			continue
		}
		if err := ws.add(file, i+1, m[1]); err != nil {
			return fmt.Errorf("%s:%d: %w", file, i+1, err)
		}
	}
	return nil
}

// parseSidecar reads a `<file>.want` file: lines of `LINE "regexp" ...`.
func (ws *wantSet) parseSidecar(file, sidecar, src string) error {
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		num, rest, _ := strings.Cut(line, " ")
		n, err := strconv.Atoi(num)
		if err != nil || n < 1 {
			return fmt.Errorf("%s:%d: want a line number first, got %q", sidecar, i+1, num)
		}
		if err := ws.add(file, n, rest); err != nil {
			return fmt.Errorf("%s:%d: %w", sidecar, i+1, err)
		}
	}
	return nil
}

// add parses a sequence of quoted regexps expected on file:line.
func (ws *wantSet) add(file string, line int, quoted string) error {
	rest := strings.TrimSpace(quoted)
	if rest == "" {
		return fmt.Errorf("want without a quoted regexp")
	}
	for rest != "" {
		lit, err := strconv.QuotedPrefix(rest)
		if err != nil {
			return fmt.Errorf("want expects quoted regexps, got %q", rest)
		}
		text, _ := strconv.Unquote(lit)
		re, err := regexp.Compile(text)
		if err != nil {
			return fmt.Errorf("want %s: %w", lit, err)
		}
		k := lineKey{file, line}
		ws.byLine[k] = append(ws.byLine[k], &want{re: re, text: lit})
		rest = strings.TrimSpace(rest[len(lit):])
	}
	return nil
}

// problem is one difference, placed so that the report reads in file order.
type problem struct {
	file string // "" for problems without a position
	line int
	text string
}

func (p problem) String() string {
	if p.file == "" {
		return p.text
	}
	return p.file + ":" + strconv.Itoa(p.line) + ": " + p.text
}

// sortProblems orders problems by file, line and text and formats them; nil when
// there are none.
func sortProblems(ps []problem) []string {
	if len(ps) == 0 {
		return nil
	}
	sort.Slice(ps, func(i, j int) bool {
		a, b := ps[i], ps[j]
		if a.file != b.file {
			return a.file < b.file
		}
		if a.line != b.line {
			return a.line < b.line
		}
		return a.text < b.text
	})
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}

// match pairs findings with expectations and describes what is left on either side.
func (ws *wantSet) match(findings []lint.Finding) []problem {
	var problems []problem
	for _, f := range findings {
		if !f.Range.IsValid() {
			problems = append(problems, problem{text: fmt.Sprintf("unexpected %s finding without a position: %s", f.Rule.ID, f.Message)})
			continue
		}
		text := f.Severity.String() + ": " + f.Message
		k := lineKey{f.Range.File, int(f.Range.Start.Line)}
		matched := false
		for _, w := range ws.byLine[k] {
			if !w.used && w.re.MatchString(text) {
				w.used, matched = true, true
				break
			}
		}
		if !matched {
			problems = append(problems, problem{k.file, k.line, "unexpected " + f.Rule.ID + " " + text})
		}
	}
	for k, list := range ws.byLine {
		for _, w := range list {
			if !w.used {
				problems = append(problems, problem{k.file, k.line, "missing finding matching " + w.text})
			}
		}
	}
	return problems
}
