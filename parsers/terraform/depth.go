package terraform

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
)

// DefaultMaxNesting bounds how deeply brackets, braces, parentheses and template
// interpolations may nest in one HCL or JSON file. HCL's parsers and evaluator are
// recursive: an expression nested a million parentheses deep overflows the goroutine
// stack, which Go cannot recover from, so the text is measured before it is parsed.
// Real configurations nest a few dozen levels at most.
const DefaultMaxNesting = 256

// syntax says how a text is scanned by nestingError.
type syntax uint8

const (
	syntaxHCL      syntax = iota // native HCL: a configuration or one expression
	syntaxJSON                   // Terraform JSON: strings hold HCL templates
	syntaxTemplate               // a template file (templatefile()): text with ${ } and %{ }
)

// NestingError is text that nests deeper than the limit, at the first bracket past it.
type NestingError struct {
	Line, Column, Byte, Max int
	// Raw is set for text that is not valid UTF-8, where every bracket counts.
	Raw bool
}

func (e *NestingError) Error() string {
	if e.Raw {
		return fmt.Sprintf("the text is not valid UTF-8 and has more than %d brackets; not parsed", e.Max)
	}
	return fmt.Sprintf("expressions nest deeper than %d levels; not parsed", e.Max)
}

// frame is one open level of nesting.
type frame struct {
	kind   byte   // '(', '[', '{', '"' (quoted string), 'h' (heredoc), 'i' (interpolation)
	marker []byte // a heredoc's closing identifier
}

// nestingError scans src and returns an error naming the position where brackets,
// braces, parentheses and template interpolations first nest deeper than max, or nil.
// It follows quoted strings (with their escapes), heredocs and comments, so that a
// bracket inside a string or comment does not count; an interpolation inside a string
// does, since HCL parses it as an expression. The scan is linear and allocates only
// its stack. It never rejects text that nests at most max levels, whatever else is
// wrong with it: syntax errors are the parser's to report.
func nestingError(src []byte, max int, mode syntax) error {
	_, err := nesting(src, max, mode)
	return err
}

// nesting is nestingError that also returns the deepest nesting seen (up to max+1).
func nesting(src []byte, max int, mode syntax) (deepest int, err error) {
	if !utf8.Valid(src) {
		return rawNesting(src, max)
	}
	var stack []frame
	depth := 0 // frames that are brackets or interpolations
	line, lineStart := 1, 0
	push := func(f frame, at int) error {
		stack = append(stack, f)
		if f.kind != '"' && f.kind != 'h' {
			depth++
			deepest = maxInt(deepest, depth)
			if depth > max {
				return &NestingError{Line: line, Column: at - lineStart + 1, Byte: at, Max: max}
			}
		}
		return nil
	}
	pop := func() {
		f := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if f.kind != '"' && f.kind != 'h' {
			depth--
		}
	}
	top := func() byte {
		if len(stack) == 0 {
			if mode == syntaxTemplate {
				return 'h'
			}
			return 0
		}
		return stack[len(stack)-1].kind
	}
	atLineStart := true
	for i := 0; i < len(src); i++ {
		c := src[i]
		startOfLine := atLineStart
		atLineStart = false
		if c == '\n' {
			line, lineStart = line+1, i+1
			atLineStart = true
		}
		switch top() {
		case '"': // a quoted string: escapes, interpolations, the closing quote
			switch {
			case c == '\\':
				i++ // the escaped character (a newline in it is the parser's error)
				if i < len(src) && src[i] == '\n' {
					line, lineStart = line+1, i+1
					atLineStart = true
				}
			case c == '"':
				pop()
			case (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == '{':
				if i > 0 && src[i-1] == c && escapedDirective(src, i) {
					break // $${ and %%{ are literal text
				}
				if err := push(frame{kind: 'i'}, i); err != nil {
					return deepest, err
				}
				i++
			}
		case 'h': // a heredoc or template body: interpolations and the closing marker
			if startOfLine && len(stack) > 0 {
				f := stack[len(stack)-1]
				end := bytes.IndexByte(src[i:], '\n')
				if end < 0 {
					end = len(src) - i
				}
				if bytes.Equal(bytes.TrimSpace(src[i:i+end]), f.marker) {
					pop()
					i += end - 1
					continue
				}
			}
			if c == '\n' {
				atLineStart = true
			}
			if (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == '{' {
				if i > 0 && src[i-1] == c && escapedDirective(src, i) {
					break
				}
				if err := push(frame{kind: 'i'}, i); err != nil {
					return deepest, err
				}
				i++
			}
		default: // code: the top level, inside brackets, or inside an interpolation
			switch c {
			case '"':
				if err := push(frame{kind: '"'}, i); err != nil {
					return deepest, err
				}
			case '(', '[', '{':
				if err := push(frame{kind: c}, i); err != nil {
					return deepest, err
				}
			case ')', ']':
				// HCL's lexer pairs only braces; a stray ) or ] closes nothing.
				if k := top(); k == '(' || k == '[' {
					pop()
				}
			case '}':
				// A brace closes the innermost brace or interpolation, and with it any
				// parentheses or brackets left open inside (the lexer counts braces only).
				for j := len(stack) - 1; j >= 0 && stack[j].kind != '"' && stack[j].kind != 'h'; j-- {
					if k := stack[j].kind; k == '{' || k == 'i' {
						for len(stack) > j {
							pop()
						}
						break
					}
				}
			case '#':
				if mode == syntaxJSON {
					break
				}
				i = skipLine(src, i) - 1
			case '/':
				if mode == syntaxJSON || i+1 >= len(src) {
					break
				}
				switch src[i+1] {
				case '/':
					i = skipLine(src, i) - 1
				case '*':
					end := bytes.Index(src[i+2:], []byte("*/"))
					if end < 0 {
						break // not closed: HCL reads it as code
					}
					body := src[i : i+2+end]
					if n := bytes.Count(body, []byte("\n")); n > 0 {
						line += n
						lineStart = i + bytes.LastIndexByte(body, '\n') + 1
					}
					i += end + 3
				}
			case '<':
				if mode == syntaxJSON || i+2 >= len(src) || src[i+1] != '<' {
					break
				}
				if marker, next, ok := heredocStart(src, i+2); ok {
					if err := push(frame{kind: 'h', marker: marker}, i); err != nil {
						return deepest, err
					}
					// Continue at the newline that ends the opening line, so the body's
					// first line is seen as the start of a line.
					i = next - 1
				}
			}
		}
	}
	return deepest, nil
}

// escapedDirective reports whether the "${" or "%{" whose "{" follows src[i] is
// escaped: preceded by an odd run of its sigil ("$${" is literal "${").
func escapedDirective(src []byte, i int) bool {
	n := 0
	for j := i; j >= 0 && src[j] == src[i]; j-- {
		n++
	}
	return n%2 == 0
}

// skipLine returns the index of the newline ending the line at i (len(src) when none).
func skipLine(src []byte, i int) int {
	if j := bytes.IndexByte(src[i:], '\n'); j >= 0 {
		return i + j
	}
	return len(src)
}

// heredocStart reads the "-"? identifier and newline after "<<" at i, returning the
// closing marker and the index of the newline.
func heredocStart(src []byte, i int) (marker []byte, newline int, ok bool) {
	if i < len(src) && src[i] == '-' {
		i++
	}
	start := i
	for i < len(src) && (src[i] == '_' || src[i] == '-' || src[i] >= 'a' && src[i] <= 'z' || src[i] >= 'A' && src[i] <= 'Z' || src[i] >= '0' && src[i] <= '9' && i > start) {
		i++
	}
	if i == start {
		return nil, 0, false
	}
	marker = src[start:i]
	if i < len(src) && src[i] == '\r' {
		i++ // HCL takes "\r\n" or "\n" right after the identifier, nothing else
	}
	if i >= len(src) || src[i] != '\n' {
		return nil, 0, false
	}
	return marker, i, true
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// rawNesting bounds text that is not valid UTF-8, where HCL's lexer may read a quote or
// comment sign as part of an invalid character and so see code where a scan of the
// bytes sees a string: every opening bracket counts, wherever it is, and none is ever
// closed. Terraform refuses such files anyway; this only keeps the parser's recursion
// (it still parses them, to report the encoding error) bounded.
func rawNesting(src []byte, max int) (int, error) {
	n, line, lineStart := 0, 1, 0
	for i, c := range src {
		switch c {
		case '\n':
			line, lineStart = line+1, i+1
		case '(', '[', '{':
			n++
			if n > max {
				return n, &NestingError{Line: line, Column: i - lineStart + 1, Byte: i, Max: max, Raw: true}
			}
		}
	}
	return n, nil
}

// syntaxOf is how a Terraform file is scanned: JSON for .json names, HCL otherwise.
func syntaxOf(name string) syntax {
	if strings.HasSuffix(name, ".json") {
		return syntaxJSON
	}
	return syntaxHCL
}

// nestingDiags is the error diagnostic for text nesting deeper than DefaultMaxNesting,
// at the first bracket past the limit, or nil. Such text is never handed to HCL.
func nestingDiags(name string, src []byte, mode syntax) hcl.Diagnostics {
	err := nestingError(src, DefaultMaxNesting, mode)
	ne, ok := err.(*NestingError)
	if !ok {
		return nil
	}
	start := hcl.Pos{Line: ne.Line, Column: ne.Column, Byte: ne.Byte}
	end := hcl.Pos{Line: ne.Line, Column: ne.Column + 1, Byte: ne.Byte + 1}
	return hcl.Diagnostics{{
		Severity: hcl.DiagError,
		Summary:  "Too deeply nested",
		Detail:   ne.Error(),
		Subject:  &hcl.Range{Filename: name, Start: start, End: end},
	}}
}
