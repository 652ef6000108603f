package manifest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

// TestDocumentsAnyShape checks that every document comes back whatever its shape, with the
// same ranges Parse would give and diagnostics for the broken ones.
func TestDocumentsAnyShape(t *testing.T) {
	src := "# c\ngroups:\n  - name: a\n---\n[1, 2]\n---\nkind: [\n---\nplain\n"
	docs, ds := Documents("d.yaml", []byte(src), Options{})
	type doc struct {
		Index int
		Kind  graph.NodeKind
		Span  [4]int
	}
	var got []doc
	for _, d := range docs {
		got = append(got, doc{d.Index, d.Node.Kind, span(d.Node.Range)})
	}
	want := []doc{
		{0, graph.Map, rng(2, 1, 3, 12)},
		{1, graph.List, rng(5, 1, 5, 7)},
		{3, graph.String, rng(9, 1, 9, 6)},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("documents (-want +got):\n%s", d)
	}
	if len(ds) != 1 || ds[0].Range.File != "d.yaml" || ds[0].Range.Start.Line < 6 {
		t.Errorf("diagnostics = %v, want one for the third document", ds)
	}
	if _, ds := Documents("d.yaml", []byte("a: 1\n---\nb: 2\n"), Options{Limits: Limits{MaxNodes: 10, MaxDepth: 10, MaxDocs: 1}}); len(ds) != 1 {
		t.Errorf("document limit: diagnostics = %v, want one", ds)
	}
}
