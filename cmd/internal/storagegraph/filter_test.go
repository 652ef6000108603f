package storagegraph

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestFindingsOnly keeps the connected groups with a finding on a node or an edge,
// whole, and drops worlds without one.
func TestFindingsOnly(t *testing.T) {
	n := func(id string, rules ...string) *Node { return &Node{ID: id, Kind: Workload, Rules: rules} }
	e := func(from, to string, rules ...string) *Edge { return &Edge{From: from, To: to, Rules: rules} }
	p := &Picture{Subgraphs: []*Subgraph{
		{ID: "v0", Name: "prod",
			Nodes: []*Node{n("w1"), n("c1"), n("k1"), n("w2"), n("c2"), n("k2", "PVL001"), n("w3"), n("c3")},
			Edges: []*Edge{e("w1", "c1", "PVL002"), e("c1", "k1"), e("w2", "c2"), e("c2", "k2"), e("w3", "c3")}},
		{ID: "v1", Name: "staging", Nodes: []*Node{n("w9"), n("c9")}, Edges: []*Edge{e("w9", "c9")}},
	}}
	got := p.FindingsOnly()
	var ids []string
	var edges []string
	for _, s := range got.Subgraphs {
		ids = append(ids, "["+s.Name+"]")
		for _, x := range s.Nodes {
			ids = append(ids, x.ID)
		}
		for _, x := range s.Edges {
			edges = append(edges, x.From+">"+x.To)
		}
	}
	if d := cmp.Diff([]string{"[prod]", "w1", "c1", "k1", "w2", "c2", "k2"}, ids); d != "" {
		t.Errorf("nodes (-want +got):\n%s", d)
	}
	if d := cmp.Diff([]string{"w1>c1", "c1>k1", "w2>c2", "c2>k2"}, edges); d != "" {
		t.Errorf("edges (-want +got):\n%s", d)
	}
	if clean := (&Picture{Subgraphs: []*Subgraph{{Nodes: []*Node{n("w")}}}}).FindingsOnly(); len(clean.Subgraphs) != 0 {
		t.Errorf("a picture without findings keeps %d subgraphs", len(clean.Subgraphs))
	}
}
