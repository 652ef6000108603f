package suppress

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// AnnotationPrefix starts the annotation keys that suppress findings on a resource:
// ignore.pvlint.io/PVL003, ignore.pvlint.io/rwo-rolling-update or ignore.pvlint.io/all.
const AnnotationPrefix = "ignore.pvlint.io/"

// directive is one inline suppression: a comment or an annotation.
type directive struct {
	kind  lint.SuppressionKind
	label string      // how messages name it: "pvlint:ignore PVL003" or the annotation key
	at    graph.Range // the directive's text, where PVL900 reports it
	// resource carries an annotation directive (nil for comments).
	resource *graph.Resource
	tokens   []*token
	reason   string
	expires  time.Time
	// broken says why the directive cannot apply (no reason, bad date, no rule);
	// "" for a well-formed one.
	broken string
}

// token is one rule a directive names, and whether a finding of it was seen.
type token struct {
	text string
	rule *lint.Rule // nil for "all" or an unknown rule
	all  bool
	used bool
}

// names reports whether the token covers findings of rule r.
func (t *token) names(r *lint.Rule) bool { return t.all || t.rule != nil && t.rule == r }

// comment matches a line whose only content is a pvlint:ignore comment: YAML and HCL
// "#", HCL "//" and "/* */", and Go-template comments "{{/* */}}", which Helm does
// not render.
var comment = regexp.MustCompile(`^[ \t]*(?:#|//|/\*|\{\{-?[ \t]*/\*)[ \t]*(pvlint:ignore(?:[ \t].*)?)$`)

// closer is what ends a block or template comment.
var closer = regexp.MustCompile(`[ \t]*\*/[ \t]*(?:-?\}\})?[ \t]*$`)

// parseComments finds the pvlint:ignore comments of one file. For each it returns
// the directive and the lines it covers: from the next line through the first line
// that is neither a comment, a document marker nor a template action, so a directive
// may sit above other comments, a "---" or a "{{- if ...}}".
func parseComments(file string, src []byte, rules []*lint.Rule) []commentDirective {
	if !bytes.Contains(src, []byte("pvlint:ignore")) {
		return nil
	}
	lines := strings.Split(string(src), "\n")
	var out []commentDirective
	offset := 0
	for i, line := range lines {
		start := offset
		offset += len(line) + 1
		line = strings.TrimSuffix(line, "\r")
		m := comment.FindStringSubmatchIndex(line)
		if m == nil {
			continue
		}
		text := closer.ReplaceAllString(line[m[2]:m[3]], "")
		body := strings.TrimPrefix(text, "pvlint:ignore")
		col := utf8.RuneCountInString(line[:m[2]]) + 1
		d := &directive{
			kind: lint.InSource,
			at: graph.Range{File: file,
				Start: graph.NewPos(i+1, col, start+m[2]),
				End:   graph.NewPos(i+1, col+utf8.RuneCountInString(text), start+m[2]+len(text))},
		}
		names := parseBody(d, body, rules)
		d.label = "pvlint:ignore " + names
		if names == "" {
			d.label = "pvlint:ignore"
		}
		last := i + 1
		for last < len(lines) && skippable(lines[last]) {
			last++
		}
		out = append(out, commentDirective{d: d, file: file, first: i + 2, last: min(last+1, len(lines))})
	}
	return out
}

// commentDirective is a comment and the 1-based lines [first, last] it covers.
type commentDirective struct {
	d           *directive
	file        string
	first, last int
}

// skippable reports whether a line between a directive and what it covers may be
// passed over: another comment, a YAML document marker, or a line of template actions.
func skippable(line string) bool {
	t := strings.TrimSpace(line)
	switch {
	case t == "":
		return false
	case strings.HasPrefix(t, "#"), strings.HasPrefix(t, "//"), strings.HasPrefix(t, "/*"):
		return true
	case t == "---" || t == "..." || strings.HasPrefix(t, "--- #"):
		return true
	case strings.HasPrefix(t, "{{") && strings.HasSuffix(t, "}}"):
		return true
	}
	return false
}

// parseBody reads "RULE[,RULE...] [exp:YYYY-MM-DD] reason" into d and returns the
// rule list as written.
func parseBody(d *directive, body string, rules []*lint.Rule) string {
	rest := strings.TrimSpace(body)
	names, rest := cutField(rest)
	// "PVL003, PVL004" is one list written with a space.
	for strings.HasSuffix(names, ",") && rest != "" {
		var more string
		more, rest = cutField(rest)
		names += more
	}
	if names == "" {
		d.broken = "names no rule"
		return ""
	}
	for n := range strings.SplitSeq(names, ",") {
		if n = strings.TrimSpace(n); n != "" {
			d.tokens = append(d.tokens, newToken(n, rules))
		}
	}
	parseValue(d, rest)
	return names
}

// parseValue reads "[exp:YYYY-MM-DD] reason", the annotation value and the tail of
// a comment.
func parseValue(d *directive, v string) {
	rest := strings.TrimSpace(v)
	if strings.HasPrefix(rest, "exp:") {
		var date string
		date, rest = cutField(rest)
		date = strings.TrimPrefix(date, "exp:")
		t, err := time.Parse(time.DateOnly, date)
		if err != nil {
			d.broken = "has an invalid expiry date " + strconv.Quote(date) + " (want exp:YYYY-MM-DD)"
		}
		d.expires = t
	}
	d.reason = strings.TrimSpace(rest)
	if d.reason == "" && d.broken == "" {
		d.broken = "has no reason"
	}
}

func cutField(s string) (field, rest string) {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		return s[:i], strings.TrimSpace(s[i:])
	}
	return s, ""
}

func newToken(text string, rules []*lint.Rule) *token {
	if strings.EqualFold(text, "all") {
		return &token{text: text, all: true}
	}
	return &token{text: text, rule: lookup(rules, text)}
}

// lookup finds a rule by ID (any case) or name.
func lookup(rules []*lint.Rule, idOrName string) *lint.Rule {
	for _, r := range rules {
		if strings.EqualFold(r.ID, idOrName) || r.Name == idOrName {
			return r
		}
	}
	return nil
}

// annotationPaths are where a resource's suppression annotations may be: its own
// metadata, its pod template's (workloads) and a CronJob's job template's pod template.
var annotationPaths = [][]string{
	{"metadata", "annotations"},
	{"spec", "template", "metadata", "annotations"},
	{"spec", "jobTemplate", "spec", "template", "metadata", "annotations"},
}

// annotationDirectives returns the ignore.pvlint.io annotations of r, one directive
// per annotation key.
func annotationDirectives(r *graph.Resource, rules []*lint.Rule) []*directive {
	var out []*directive
	for _, p := range annotationPaths {
		m := r.Get(p...)
		if !m.Is(graph.Map) {
			continue
		}
		for _, f := range m.Fields() {
			name, ok := strings.CutPrefix(f.Key, AnnotationPrefix)
			if !ok {
				continue
			}
			d := &directive{kind: lint.InSource, label: "annotation " + f.Key, at: f.KeyRange, resource: r}
			if name == "" {
				d.broken = "names no rule"
			} else {
				d.tokens = []*token{newToken(name, rules)}
			}
			if f.Value.IsUnknown() {
				// A Terraform value known only at apply time cannot be checked here.
				d.broken = "has a reason that is not known before apply"
			} else if d.broken == "" {
				parseValue(d, f.Value.Str())
			}
			out = append(out, d)
		}
	}
	return out
}
