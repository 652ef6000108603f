package rewrite

import (
	"fmt"
	"strings"
)

// Diff is the unified diff (three lines of context) that turns a into b, with the
// file named name on both sides as git shows it (a/name, b/name); "" when they are
// equal. Fixes change few lines, so the lines the two texts share at both ends are
// set aside before the middle is compared line by line.
func Diff(name string, a, b []byte) string {
	if string(a) == string(b) {
		return ""
	}
	x, y := splitLines(string(a)), splitLines(string(b))
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	ops := script(x[pre:len(x)-suf], y[pre:len(y)-suf])
	// The whole edit script, with the shared ends as context.
	full := make([]op, 0, pre+len(ops)+suf)
	for i := 0; i < pre; i++ {
		full = append(full, op{' ', x[i]})
	}
	full = append(full, ops...)
	for i := len(x) - suf; i < len(x); i++ {
		full = append(full, op{' ', x[i]})
	}
	var out strings.Builder
	fmt.Fprintf(&out, "--- a/%s\n+++ b/%s\n", name, name)
	const ctx = 3
	for i := 0; i < len(full); {
		if full[i].kind == ' ' {
			i++
			continue
		}
		// A hunk: from ctx lines before this change to ctx lines after the last change
		// that is within 2*ctx lines of the previous one.
		start := max(0, i-ctx)
		end := i
		for j := i; j < len(full); j++ {
			if full[j].kind != ' ' {
				end = j
			} else if j-end > 2*ctx {
				break
			}
		}
		stop := min(len(full), end+ctx+1)
		aLine, bLine := 1, 1
		for _, o := range full[:start] {
			if o.kind != '+' {
				aLine++
			}
			if o.kind != '-' {
				bLine++
			}
		}
		var aN, bN int
		for _, o := range full[start:stop] {
			if o.kind != '+' {
				aN++
			}
			if o.kind != '-' {
				bN++
			}
		}
		fmt.Fprintf(&out, "@@ -%s +%s @@\n", hunkRange(aLine, aN), hunkRange(bLine, bN))
		for _, o := range full[start:stop] {
			out.WriteString(string(o.kind) + o.line)
			if !strings.HasSuffix(o.line, "\n") {
				out.WriteString("\n\\ No newline at end of file\n")
			}
		}
		i = stop
	}
	return out.String()
}

type op struct {
	kind byte // ' ', '-' or '+'
	line string
}

// script is a shortest edit script from x to y by longest common subsequence. The
// middle part of a fix's diff is a few lines; a pathological one larger than the
// table bound is shown as a whole replacement, which is still a correct diff.
func script(x, y []string) []op {
	var out []op
	if len(x)*len(y) > 4_000_000 {
		for _, l := range x {
			out = append(out, op{'-', l})
		}
		for _, l := range y {
			out = append(out, op{'+', l})
		}
		return out
	}
	// lcs[i][j] is the LCS length of x[i:] and y[j:].
	lcs := make([][]int, len(x)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(y)+1)
	}
	for i := len(x) - 1; i >= 0; i-- {
		for j := len(y) - 1; j >= 0; j-- {
			if x[i] == y[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	i, j := 0, 0
	for i < len(x) || j < len(y) {
		switch {
		case i < len(x) && j < len(y) && x[i] == y[j]:
			out = append(out, op{' ', x[i]})
			i, j = i+1, j+1
		case i < len(x) && (j == len(y) || lcs[i+1][j] >= lcs[i][j+1]):
			out = append(out, op{'-', x[i]})
			i++
		default:
			out = append(out, op{'+', y[j]})
			j++
		}
	}
	return out
}

// splitLines splits after each newline; the last line may lack one.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}

func hunkRange(line, n int) string {
	if n == 0 {
		return fmt.Sprintf("%d,0", line-1)
	}
	if n == 1 {
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, n)
}
