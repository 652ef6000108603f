package storagegraph

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

func TestMermaidText(t *testing.T) {
	cases := map[string]string{
		"Deployment shop/web":    "Deployment shop/web",
		"replicas 25% (default)": "replicas 25#37; (default)",
		`a"] --> b["c`:           "a#34;#93; --#62; b#91;#34;c",
		"x|y;z#quot;":            "x#124;y#59;z#35;quot#59;",
		"<b>&amp;</b>":           "#60;b#62;#38;amp#59;#60;/b#62;",
		"`md` %%{init}%%":        "#96;md#96; #37;#37;#123;init#125;#37;#37;",
		"line\nbreak\ttab":       "line#10;break#9;tab",
		"données-é":              "données-é",
	}
	for in, want := range cases {
		if got := mermaidText(in); got != want {
			t.Errorf("mermaidText(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestDOTEscape(t *testing.T) {
	cases := map[string]string{
		"Deployment shop/web": "Deployment shop/web",
		`a"b`:                 `a\"b`,
		`c:\n`:                `c:\\n`,
		"x\ny\rz\x7f":         "x y z ",
		"a&amp;<b>":           "a&amp;amp;<b>",
	}
	for in, want := range cases {
		if got := dotEscape(in); got != want {
			t.Errorf("dotEscape(%q) = %q, want %q", in, got, want)
		}
	}
	if got := dotLabel([]string{`a"`, "b"}); got != `"a\"\nb"` {
		t.Errorf("dotLabel = %s", got)
	}
}

func TestContains(t *testing.T) {
	r := func(file string, l1, c1, l2, c2 int) graph.Range {
		return graph.Range{File: file, Start: graph.Pos{Line: l1, Column: c1}, End: graph.Pos{Line: l2, Column: c2}}
	}
	outer := r("a.yaml", 3, 1, 10, 1)
	cases := []struct {
		inner graph.Range
		want  bool
	}{
		{r("a.yaml", 3, 1, 3, 5), true},
		{r("a.yaml", 9, 40, 9, 41), true},
		{r("a.yaml", 10, 1, 10, 2), false}, // End is exclusive
		{r("a.yaml", 2, 9, 3, 2), false},
		{r("b.yaml", 5, 1, 5, 2), false},
		{graph.Range{File: "a.yaml"}, false},
	}
	for _, c := range cases {
		if got := contains(outer, c.inner); got != c.want {
			t.Errorf("contains(%v, %v) = %v, want %v", outer, c.inner, got, c.want)
		}
	}
}

// TestEmptyWorlds draws worlds without storage: a placeholder node per world keeps
// the diagram valid, and identifiers stay unique across subgraphs.
func TestEmptyWorlds(t *testing.T) {
	g := graph.New(nil, graph.Options{})
	p := Build([]World{{Name: "a", Graph: g}, {Name: `b"`, Graph: g}}, nil)
	var m, d bytes.Buffer
	if err := Mermaid(&m, p); err != nil {
		t.Fatal(err)
	}
	if err := DOT(&d, p); err != nil {
		t.Fatal(err)
	}
	wantM := "flowchart LR\n" +
		"  subgraph v0[\"a\"]\n    direction LR\n    v0_empty[\"no workload mounts a claim\"]\n  end\n" +
		"  subgraph v1[\"b#34;\"]\n    direction LR\n    v1_empty[\"no workload mounts a claim\"]\n  end\n" +
		"  classDef finding stroke:#d1242f,stroke-width:2px\n"
	if diff := cmp.Diff(wantM, m.String()); diff != "" {
		t.Errorf("Mermaid (-want +got):\n%s", diff)
	}
	if !bytes.Contains(d.Bytes(), []byte(`subgraph cluster_v1 {`+"\n"+`    label="b\"";`)) {
		t.Errorf("DOT lacks the escaped second cluster:\n%s", d.String())
	}
}
