package helm

import (
	"regexp"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// refRe is a reference in a template action: an optional variable ($, $envAll,
// $pod) followed by fields (.Values.pod.replicas, .rolling_update.max_surge).
var refRe = regexp.MustCompile(`(\$[A-Za-z0-9_]*)?((?:\.[A-Za-z_][A-Za-z0-9_-]*)+)`)

// varRe is a variable used whole, not one of its fields.
var varRe = regexp.MustCompile(`(\$[A-Za-z0-9_]+)(?:[^A-Za-z0-9_.]|$)`)

// ValuesReads finds, for each line of a template, the values paths its actions
// read, following what a reader of the template would: `.Values.x` (through any
// variable, `$envAll.Values.x`), a variable bound to values (`$pod :=
// $envAll.Values.pod` then `$pod.x`), and fields of the dot inside `with` a values
// path (`with $envAll.Values.pod.lifecycle` then `.rolling_update.max_surge`). It is
// a reading, not an evaluation: what it cannot follow it leaves out.
func ValuesReads(src []byte) map[int][][]string {
	type frame struct{ dot []string }
	var stack []frame
	vars := map[string][]string{}
	dot := func() []string {
		if len(stack) == 0 {
			return nil
		}
		return stack[len(stack)-1].dot
	}
	resolve := func(variable, fields string) []string {
		segs := strings.Split(strings.TrimPrefix(fields, "."), ".")
		switch {
		case segs[0] == "Values" && (variable == "" || variable == "$" || vars[variable] == nil):
			return segs[1:]
		case variable != "":
			if base, ok := vars[variable]; ok && base != nil {
				return append(base[:len(base):len(base)], segs...)
			}
			return nil
		case dot() != nil:
			d := dot()
			return append(d[:len(d):len(d)], segs...)
		}
		return nil
	}
	// first resolves the first reference of an expression.
	first := func(expr string) []string {
		for _, m := range refRe.FindAllStringSubmatchIndex(expr, -1) {
			if m[0] > 0 && !strings.ContainsRune(" \t(|", rune(expr[m[0]-1])) {
				continue // a field of something else: (x).y, "a.b"
			}
			return resolve(group(expr, m, 1), group(expr, m, 2))
		}
		return nil
	}
	lineOf := graph.NewLines(src).Line
	out := map[int][][]string{}
	for _, a := range lexActions(src) {
		body := strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(a.text, "{{"), "}}"))
		body = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(body, "-"), "-"))
		if strings.HasPrefix(body, "/*") {
			continue
		}
		word, rest, _ := strings.Cut(body, " ")
		switch word {
		case "define", "block", "range":
			stack = append(stack, frame{})
		case "with":
			stack = append(stack, frame{dot: first(rest)})
		case "if":
			stack = append(stack, frame{dot: dot()})
		case "end":
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
			continue
		}
		if strings.HasPrefix(word, "$") {
			if name, expr, ok := strings.Cut(body, ":="); ok {
				vars[strings.TrimSpace(name)] = first(expr)
			} else if name, expr, ok := strings.Cut(body, "="); ok && !strings.Contains(name, "(") {
				vars[strings.TrimSpace(name)] = first(expr)
			}
		}
		line := lineOf(a.start)
		for _, m := range refRe.FindAllStringSubmatchIndex(body, -1) {
			if m[0] > 0 && !strings.ContainsRune(" \t(|", rune(body[m[0]-1])) {
				continue
			}
			if p := resolve(group(body, m, 1), group(body, m, 2)); len(p) > 0 {
				out[line] = append(out[line], p)
			}
		}
		// A variable written as it is: {{ $strategy }}.
		if !strings.Contains(body, "=") {
			for _, m := range varRe.FindAllStringSubmatch(body, -1) {
				if p := vars[m[1]]; len(p) > 0 {
					out[line] = append(out[line], p)
				}
			}
		}
	}
	return out
}

// group is submatch i of a FindAllStringSubmatchIndex match ("" when it did not take part).
func group(s string, m []int, i int) string {
	if m[2*i] < 0 {
		return ""
	}
	return s[m[2*i]:m[2*i+1]]
}
