package graph

import "fmt"

// Bounds of the PromQL expressions pvlint parses (PVL021). Prometheus' parser and
// the walks over its tree cost more than linear time in the nesting of an
// expression (a walk hands every node the path to it), so 300 KB of nested
// parentheses held the run for minutes (issue 27). Real alert expressions are a few
// hundred bytes nested a few levels; the bounds are far above them.
const (
	MaxPromQLBytes = 64 << 10
	MaxPromQLDepth = 100
)

// PromQLTooComplex says why an expression is past the bounds ("" when it is not):
// longer than MaxPromQLBytes, or brackets of any kind nested deeper than
// MaxPromQLDepth outside string literals. It reads the text once and parses
// nothing.
func PromQLTooComplex(expr string) string {
	if len(expr) > MaxPromQLBytes {
		return fmt.Sprintf("PromQL expression of %d bytes, longer than the %d pvlint parses; not checked", len(expr), MaxPromQLBytes)
	}
	depth := 0
	var quote byte
	for i := 0; i < len(expr); i++ {
		c := expr[i]
		switch {
		case quote != 0:
			if c == '\\' && quote != '`' {
				i++
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'' || c == '`':
			quote = c
		case c == '(' || c == '[' || c == '{':
			if depth++; depth > MaxPromQLDepth {
				return fmt.Sprintf("PromQL expression nested more than %d levels deep; not checked", MaxPromQLDepth)
			}
		case c == ')' || c == ']' || c == '}':
			depth = max(depth-1, 0)
		case c == '#':
			// A comment runs to the end of its line.
			for i < len(expr) && expr[i] != '\n' {
				i++
			}
		}
	}
	return ""
}
