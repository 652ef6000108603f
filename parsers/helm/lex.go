package helm

import (
	"bytes"
	"regexp"
	"strings"
)

// action is one {{ ... }} of a template, as byte offsets [start, end).
type action struct {
	start, end int
	text       string
}

// lexActions finds the actions of a template, skipping over string literals and
// comments inside them so that "}}" in a string does not end an action.
func lexActions(src []byte) []action {
	var out []action
	for i := 0; i+1 < len(src); {
		if src[i] != '{' || src[i+1] != '{' {
			i++
			continue
		}
		start := i
		j := i + 2
		end := len(src)
	scan:
		for j < len(src) {
			switch c := src[j]; {
			case c == '"' || c == '\'':
				j = skipQuoted(src, j, c)
			case c == '`':
				k := indexFrom(src, j+1, "`")
				if k < 0 {
					break scan
				}
				j = k + 1
			case c == '/' && j+1 < len(src) && src[j+1] == '*':
				k := indexFrom(src, j+2, "*/")
				if k < 0 {
					break scan
				}
				j = k + 2
			case c == '}' && j+1 < len(src) && src[j+1] == '}':
				end = j + 2
				break scan
			default:
				j++
			}
		}
		if end > len(src) {
			end = len(src)
		}
		out = append(out, action{start: start, end: end, text: string(src[start:end])})
		i = end
	}
	return out
}

func skipQuoted(src []byte, j int, q byte) int {
	for k := j + 1; k < len(src); k++ {
		switch src[k] {
		case '\\':
			k++
		case q:
			return k + 1
		case '\n':
			return k
		}
	}
	return len(src)
}

func indexFrom(src []byte, from int, sep string) int {
	if from >= len(src) {
		return -1
	}
	k := bytes.Index(src[from:], []byte(sep))
	if k < 0 {
		return -1
	}
	return from + k
}

var (
	keywordRe = regexp.MustCompile(`^\{\{-?\s*(define|block|if|range|with|end)\b`)
	defineRe  = regexp.MustCompile(`^\{\{-?\s*(?:define|block)\s+"([^"]*)"`)
	includeRe = regexp.MustCompile(`\b(?:include|template)\s+"([^"]+)"`)
	indentRe  = regexp.MustCompile(`\bn?indent\s+(\d+)`)
)

// body is the byte span of a define block's body.
type body struct {
	name       string
	start, end int
}

// defineBodies pairs define/block actions with their end to find the bodies.
func defineBodies(acts []action) []body {
	type open struct {
		kw   string
		name string
		end  int
	}
	var stack []open
	var out []body
	for _, a := range acts {
		m := keywordRe.FindStringSubmatch(a.text)
		if m == nil {
			continue
		}
		if m[1] != "end" {
			o := open{kw: m[1], end: a.end}
			if d := defineRe.FindStringSubmatch(a.text); d != nil {
				o.name = d[1]
			}
			stack = append(stack, o)
			continue
		}
		if len(stack) == 0 {
			continue
		}
		o := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if (o.kw == "define" || o.kw == "block") && o.name != "" {
			out = append(out, body{name: o.name, start: o.end, end: a.start})
		}
	}
	return out
}

// startsKey reports whether text begins with "key:" (a mapping entry).
func startsKey(text string) bool {
	_, _, ok := parseKey(text)
	return ok
}

// parseKey reads a mapping key at the start of text and returns it and the offset
// just past its colon.
func parseKey(text string) (key string, end int, ok bool) {
	if text == "" {
		return "", 0, false
	}
	switch text[0] {
	case '"', '\'':
		q := text[0]
		for i := 1; i < len(text); i++ {
			if q == '"' && text[i] == '\\' {
				i++
				continue
			}
			if text[i] == q {
				rest := strings.TrimLeft(text[i+1:], " ")
				if strings.HasPrefix(rest, ":") && colonEnds(rest[1:]) {
					return text[1:i], len(text) - len(rest) + 1, true
				}
				return "", 0, false
			}
		}
		return "", 0, false
	case '{', '[', '&', '*', '!', '|', '>', '%', '@', '`', '#':
		return "", 0, false
	}
	for i := 0; i < len(text); i++ {
		if text[i] == ':' && colonEnds(text[i+1:]) {
			k := strings.TrimRight(text[:i], " ")
			if k == "" || strings.Contains(k, " #") {
				return "", 0, false
			}
			return k, i + 1, true
		}
		if text[i] == ' ' && i+1 < len(text) && text[i+1] == '#' {
			return "", 0, false
		}
	}
	return "", 0, false
}

// colonEnds reports whether what follows a colon makes it a mapping indicator.
func colonEnds(rest string) bool {
	return rest == "" || rest[0] == ' ' || rest[0] == '\t' || rest[0] == hole
}

// quoteWidth is 2 for a quoted key (its quotes are part of its range), else 0.
func quoteWidth(text string) int {
	if text != "" && (text[0] == '"' || text[0] == '\'') {
		return 2
	}
	return 0
}

// isBlockIndicator reports whether a value starts a block scalar (| or >, with
// optional chomping and indentation indicators, and an optional comment).
func isBlockIndicator(v string) bool {
	if v == "" || v[0] != '|' && v[0] != '>' {
		return false
	}
	rest := strings.TrimLeft(v[1:], "+-0123456789")
	rest = strings.TrimSpace(rest)
	return rest == "" || rest[0] == '#'
}

// includeNames returns the templates named by include/template calls in actions.
func includeNames(acts []string) []string {
	var out []string
	for _, a := range acts {
		for _, m := range includeRe.FindAllStringSubmatch(a, -1) {
			out = append(out, m[1])
		}
	}
	return out
}
