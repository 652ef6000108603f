package suppress

import (
	"sort"
	"strconv"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// fileLine is one line of one input file.
type fileLine struct {
	file string
	line int
}

// lineOf is the file and first line of r.
func lineOf(r graph.Range) fileLine { return fileLine{r.File, int(r.Start.Line)} }

// index finds the inline directives that cover a finding.
type index struct {
	all        []*directive // every directive once, in file and line order
	byLine     map[fileLine][]*directive
	byResource map[*graph.Resource][]*directive
}

// collect reads the comments of every file a resource or finding lives in, and the
// annotations of every resource. Other sources (values files, a Helm variant's
// rendered stream, whose comments are copies of the template's) are not read: a
// directive there could only ever be reported as unused.
func (idx *index) collect(findings []lint.Finding, resources []*graph.Resource, sources map[string][]byte, rules []*lint.Rule) {
	files := map[string]bool{}
	for _, r := range resources {
		files[r.Range.File] = true
	}
	for _, f := range findings {
		files[f.Range.File] = true
	}
	names := make([]string, 0, len(files))
	for f := range files {
		if _, ok := sources[f]; ok {
			names = append(names, f)
		}
	}
	sort.Strings(names)
	for _, name := range names {
		for _, c := range parseComments(name, sources[name], rules) {
			idx.all = append(idx.all, c.d)
			for l := c.first; l <= c.last; l++ {
				k := fileLine{c.file, l}
				idx.byLine[k] = append(idx.byLine[k], c.d)
			}
		}
	}
	// The same annotation seen in several worlds (a Helm template rendered per values
	// variant) is one directive: used if any rendering of it is.
	seen := map[string]*directive{}
	for _, r := range resources {
		if _, done := idx.byResource[r]; done {
			continue
		}
		idx.byResource[r] = nil
		for _, d := range annotationDirectives(r, rules) {
			k := d.label + "@" + d.at.String()
			if !d.at.IsValid() {
				k = d.label + "@" + r.String() + "@" + r.Origin.File
			}
			if prev, ok := seen[k]; ok {
				d = prev
			} else {
				seen[k] = d
				idx.all = append(idx.all, d)
			}
			idx.byResource[r] = append(idx.byResource[r], d)
		}
	}
}

// covering returns the directives that apply to f by position: comments above the
// finding's line, above its resource, or above any key on the path from the
// resource down to the reported node; then the annotations of its resource.
func (idx *index) covering(f lint.Finding) []*directive {
	var out []*directive
	seen := map[*directive]bool{}
	add := func(ds []*directive) {
		for _, d := range ds {
			if !seen[d] {
				seen[d] = true
				out = append(out, d)
			}
		}
	}
	for _, at := range lines(f) {
		add(idx.byLine[at])
	}
	if f.Resource != nil {
		add(idx.byResource[f.Resource])
	}
	return out
}

// lines are the lines a comment directly above suppresses f from: its own line,
// its resource's first line, and the line of every key on the way down to it.
func lines(f lint.Finding) []fileLine {
	out := []fileLine{lineOf(f.Range)}
	r := f.Resource
	if r == nil {
		return out
	}
	out = append(out, lineOf(r.Range))
	n := r.Object
	for _, step := range lint.FieldPath(f) {
		switch {
		case n.Is(graph.Map):
			fl := n.Field(step)
			if fl == nil {
				return out
			}
			out = append(out, lineOf(fl.KeyRange))
			n = fl.Value
		case n.Is(graph.List):
			i, err := strconv.Atoi(step)
			if err != nil || i < 0 || i >= len(n.Items()) || n.Items()[i] == nil {
				return out
			}
			n = n.Items()[i]
			out = append(out, lineOf(n.Range))
		default:
			return out
		}
	}
	return out
}
