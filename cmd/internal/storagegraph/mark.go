package storagegraph

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// mark records finding f on the edges between the nodes it is about, or on its one
// node. A finding is about the node of its resource, and about each node whose source
// contains its range or one of its related locations — unless several nodes of a kind
// do (resources a Helm template renders in a loop share their template's ranges), when
// the location says nothing about which. Findings about no node of the picture (a
// claim no workload mounts, a parse error) are not drawn.
func (b *builder) mark(f lint.Finding) {
	about := map[*node]bool{}
	spots := []graph.Range{f.Range}
	for _, r := range f.Related {
		spots = append(spots, r.Range)
	}
	for _, n := range b.nodes {
		if f.Resource != nil && n.res == f.Resource {
			about[n] = true
		}
	}
	for _, s := range spots {
		byKind := map[Kind][]*node{}
		for _, n := range b.nodes {
			for _, span := range n.spans {
				if contains(span, s) {
					byKind[n.Kind] = append(byKind[n.Kind], n)
					break
				}
			}
		}
		for _, ns := range byKind {
			if len(ns) == 1 {
				about[ns[0]] = true
			}
		}
	}
	onEdge := false
	for _, e := range b.edges {
		if about[e.from] && about[e.to] {
			e.rules[f.Rule.ID] = true
			onEdge = true
		}
	}
	if onEdge {
		return
	}
	for n := range about {
		n.rules[f.Rule.ID] = true
	}
}

// contains reports whether inner starts within outer, in the same file. A finding
// reported at a resource's first line starts there too.
func contains(outer, inner graph.Range) bool {
	if !outer.IsValid() || !inner.IsValid() || outer.File != inner.File {
		return false
	}
	if before(inner.Start, outer.Start) {
		return false
	}
	return !outer.End.IsValid() || before(inner.Start, outer.End)
}

// before reports whether a is strictly before b.
func before(a, b graph.Pos) bool {
	if a.Line != b.Line {
		return a.Line < b.Line
	}
	return a.Column < b.Column
}
