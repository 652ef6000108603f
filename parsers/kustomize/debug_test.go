package kustomize

import (
	"fmt"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

func TestDebugBuild(t *testing.T) {
	for _, d := range []string{"prod", "staging", "remote"} {
		res := Build("../../testdata/kustomize/overlays/"+d, Env{})
		for _, d := range res.Diagnostics {
			fmt.Println("DIAG", d.Error())
		}
		fmt.Println("== build", res.Variant)
		for _, r := range res.Resources {
			fmt.Println(r.String(), r.Origin.File, r.Origin.Doc, r.Range)
			for _, l := range r.Related {
				fmt.Println("   related", l.Range, l.Message)
			}
			dump(r.Object, "  ")
		}
	}
	p := NewPlan([]string{"../../testdata/kustomize/base", "../../testdata/kustomize/overlays/prod", "../../testdata/kustomize/overlays/staging", "../../testdata/kustomize/components/backup"}, Env{})
	fmt.Println(p.Builds)
	for k := range p.Consumed {
		fmt.Println(" consumed", k)
	}
}

func dump(n *graph.Node, ind string) {
	for _, f := range n.Fields {
		fmt.Printf("%s%s @%s val@%s %q\n", ind, f.Key, f.KeyRange, f.Value.Range, f.Value.Scalar)
		dump(f.Value, ind+"  ")
	}
	for i, it := range n.Items {
		fmt.Printf("%s[%d] @%s %q\n", ind, i, it.Range, it.Scalar)
		dump(it, ind+"  ")
	}
}
