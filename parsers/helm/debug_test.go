package helm

import (
	"fmt"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

func TestDebugRender(t *testing.T) {
	res := Render("../../testdata/helm/app", Options{}, Env{})
	for _, d := range res.Diagnostics {
		fmt.Println("DIAG", d.Variant, d.Error())
	}
	for _, v := range res.Variants {
		fmt.Println("== variant", v.Name)
		for _, r := range v.Resources {
			fmt.Println(r.String(), r.Origin.File, r.Origin.Doc, r.Origin.Source, r.Range)
			for _, l := range r.Related {
				fmt.Println("   related", l.Range, l.Message)
			}
			dump(r.Object, "  ")
		}
	}
}

func dump(n *graph.Node, ind string) {
	for _, f := range n.Fields {
		fmt.Printf("%s%s @%d:%d val@%d:%d %q\n", ind, f.Key, f.KeyRange.Start.Line, f.KeyRange.Start.Column, f.Value.Range.Start.Line, f.Value.Range.Start.Column, f.Value.Scalar)
		dump(f.Value, ind+"  ")
	}
	for i, it := range n.Items {
		fmt.Printf("%s[%d] @%d:%d %q\n", ind, i, it.Range.Start.Line, it.Range.Start.Column, it.Scalar)
		dump(it, ind+"  ")
	}
}
