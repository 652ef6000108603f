package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// closest returns the candidate a mistyped word most likely meant: one that differs
// only in case (as the configuration file's keys are matched), else the nearest by
// edit distance when that is close enough to be a typo — one edit (a swap of two
// letters counts as one), two from nine letters on; nothing for words under three
// letters. "" when none is that close; ties go to the candidate listed first.
func closest(word string, candidates []string) string {
	for _, c := range candidates {
		if strings.EqualFold(c, word) {
			return c
		}
	}
	limit := 1
	switch n := len([]rune(word)); {
	case n >= 9:
		limit = 2
	case n < 3:
		return ""
	}
	best, bestD := "", limit+1
	for _, c := range candidates {
		if d := editDistance(strings.ToLower(word), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}

// didYouMean is "; did you mean X?" for the closest candidate, "" without one.
func didYouMean(word string, candidates []string, quote func(string) string) string {
	c := closest(word, candidates)
	if c == "" {
		return ""
	}
	return "; did you mean " + quote(c) + "?"
}

// editDistance is the Damerau–Levenshtein distance of a and b (optimal string
// alignment: an adjacent swap, "explian" for "explain", is one edit).
func editDistance(a, b string) int {
	x, y := []rune(a), []rune(b)
	d := make([][]int, len(x)+1)
	for i := range d {
		d[i] = make([]int, len(y)+1)
		d[i][0] = i
	}
	for j := range d[0] {
		d[0][j] = j
	}
	for i := 1; i <= len(x); i++ {
		for j := 1; j <= len(y); j++ {
			cost := 1
			if x[i-1] == y[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(x)][len(y)]
}

// flagNames lists every flag of a table as written on the command line.
func flagNames(specs []flagSpec) []string {
	out := make([]string, 0, len(specs))
	for _, s := range specs {
		out = append(out, "--"+s.Name)
	}
	return out
}

// ruleNames lists the IDs and names of a catalogue, for suggestions.
func ruleNames(catalogue []*lint.Rule) []string {
	out := make([]string, 0, 2*len(catalogue))
	for _, r := range catalogue {
		out = append(out, r.ID, r.Name)
	}
	return out
}

// quoteFlag and quoteBacktick render a suggestion.
func quoteFlag(s string) string     { return s }
func quoteBacktick(s string) string { return "`" + s + "`" }

// commandAliases are the commands other linters run with (golangci-lint run, tflint
// --lint, conftest test...) that pvlint does without: it lints when no command is given.
var commandAliases = []string{"lint", "run", "check", "scan", "validate"}

// unknownCommand is the usage error for a first argument that is neither a command
// nor an existing path but reads like a mistyped command; nil when it does not.
func unknownCommand(arg string) error {
	if arg == "" || strings.HasPrefix(arg, "-") || strings.ContainsAny(arg, `/\.`) {
		return nil
	}
	if _, err := os.Lstat(arg); err == nil {
		return nil
	}
	if slices.Contains(commandAliases, arg) {
		return fmt.Errorf("unknown command %q: pvlint lints without a command, e.g. `pvlint .` (see `pvlint --help`)", arg)
	}
	if s := closest(arg, subcommandNames()); s != "" {
		return fmt.Errorf("unknown command %q; did you mean `pvlint %s`? (see `pvlint --help`)", arg, s)
	}
	return nil
}

// missingPath is the usage error for an input the command line names that does not
// exist, suggesting a close name in the same directory.
func missingPath(what, path string) error {
	msg := fmt.Sprintf("%s %s: no such file or directory", what, path)
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	if entries, err := os.ReadDir(dir); err == nil {
		names := make([]string, 0, len(entries))
		for _, e := range entries {
			names = append(names, e.Name())
		}
		if s := closest(base, names); s != "" {
			msg += "; did you mean " + filepath.Join(filepath.Dir(path), s) + "?"
		}
	}
	return fmt.Errorf("%s", msg)
}
