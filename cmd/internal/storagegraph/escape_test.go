package storagegraph

import (
	"bytes"
	"strings"
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
	r := func(file string, l1, c1, l2, c2 int32) graph.Range {
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

// FuzzMermaidText checks that no input leaves a character in a label that Mermaid or
// HTML reads as syntax, and that DOT labels keep their quotes closed.
func FuzzMermaidText(f *testing.F) {
	for _, s := range []string{`a"] --> b["c`, "x|y", "%%{init}%%", "<script>", "`**x**`", "a\\\"b\n"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if got := mermaidText(s); strings.ContainsAny(got, "\"|<>%`[]{}\n\r\\&") {
			t.Errorf("mermaidText(%q) = %q keeps a syntax character", s, got)
		}
		got := dotEscape(s)
		if strings.ContainsAny(got, "\n\r") {
			t.Errorf("dotEscape(%q) = %q keeps a line break", s, got)
		}
		// Every quote is escaped: it follows an odd run of backslashes.
		for i := 0; i < len(got); i++ {
			if got[i] != '"' {
				continue
			}
			n := 0
			for j := i - 1; j >= 0 && got[j] == '\\'; j-- {
				n++
			}
			if n%2 == 0 {
				t.Errorf("dotEscape(%q) = %q has an unescaped quote at %d", s, got, i)
			}
		}
	})
}
