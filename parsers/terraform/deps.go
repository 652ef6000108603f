package terraform

import (
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
)

// Dependencies.
//
// Terraform creates resources in parallel unless one refers to another (or names it in
// depends_on): only then does it wait for the first before it creates the second.
// Whether a workload waits for its claim decides whether a claim that waits to be
// bound (wait_until_bound) hangs the apply (docs/rules.md#pvl016). So every value read
// from a resource carries a depMark naming it, the mark follows the value through
// locals, module inputs and outputs as the evaluator's other marks do, and each
// emitted resource records the addresses its arguments carried (graph.FactDependsOn),
// plus its own depends_on and that of the module calls around it. A value whose marks
// name exactly one resource is a reference to it (graph.FactReferences): a workload's
// claim_name read from a claim names that claim by address, whatever its name
// evaluates to.

// depMark marks a value read from the resource (block or instance) at addr, relative
// to the root module.
type depMark struct{ addr string }

// depCollector gathers the dependencies and references of one resource instance
// while its body is evaluated.
type depCollector struct {
	deps map[string]bool
	refs map[string]string // graph.RefKey → address; "" when two addresses meet there
}

func newDepCollector() *depCollector {
	return &depCollector{deps: map[string]bool{}, refs: map[string]string{}}
}

// depAddrs returns the addresses of the depMarks among marks.
func depAddrs(marks cty.ValueMarks) []string {
	var out []string
	for m := range marks {
		if d, ok := m.(depMark); ok {
			out = append(out, d.addr)
		}
	}
	sort.Strings(out)
	return out
}

// add records marks that apply to a whole block (a dynamic block's for_each).
func (dc *depCollector) add(marks cty.ValueMarks) {
	if dc == nil {
		return
	}
	for _, a := range depAddrs(marks) {
		dc.deps[a] = true
	}
}

// note records the marks of an attribute's value, found at paths of the value, and
// the references of the nodes at those paths.
func (dc *depCollector) note(n *graph.Node, pvms []cty.PathValueMarks) {
	if dc == nil {
		return
	}
	for _, pvm := range pvms {
		addrs := depAddrs(pvm.Marks)
		if len(addrs) == 0 {
			continue
		}
		for _, a := range addrs {
			dc.deps[a] = true
		}
		sub := nodeAt(n, pvm.Path)
		if sub == nil || sub.Kind == graph.Map || sub.Kind == graph.List {
			continue
		}
		addr := mostSpecific(addrs)
		key := graph.RefKey(sub.Range)
		if prev, seen := dc.refs[key]; seen && prev != addr {
			addr = "" // two references meet at one position: neither is certain
		}
		dc.refs[key] = addr
	}
}

// mostSpecific is the one address among addrs that no other one refines (a block's
// address is refined by its instances'), or "" when there are several.
func mostSpecific(addrs []string) string {
	var out string
	for _, a := range addrs {
		refined := false
		for _, b := range addrs {
			if b != a && (strings.HasPrefix(b, a+"[") || strings.HasPrefix(b, a+".")) {
				refined = true
				break
			}
		}
		if refined {
			continue
		}
		if out != "" {
			return ""
		}
		out = a
	}
	return out
}

// nodeAt follows a cty path into the node converted from the value.
func nodeAt(n *graph.Node, p cty.Path) *graph.Node {
	for _, step := range p {
		if n == nil {
			return nil
		}
		switch s := step.(type) {
		case cty.GetAttrStep:
			n = n.Get(s.Name)
		case cty.IndexStep:
			switch {
			case !s.Key.IsKnown() || s.Key.IsNull():
				return nil
			case s.Key.Type() == cty.String:
				n = n.Get(s.Key.AsString())
			case s.Key.Type() == cty.Number:
				i, acc := s.Key.AsBigFloat().Int64()
				items := n.Items()
				if acc != 0 || i < 0 || i >= int64(len(items)) {
					return nil
				}
				n = items[i]
			default:
				return nil
			}
		default:
			return nil
		}
	}
	return n
}

// facts stores what dc collected, with the module instance's own dependencies.
func (dc *depCollector) facts(facts map[string]*graph.Node, inherited []string, at graph.Range) {
	if dc == nil {
		return
	}
	all := map[string]bool{}
	for a := range dc.deps {
		all[a] = true
	}
	for _, a := range inherited {
		all[a] = true
	}
	if len(all) > 0 {
		list := &graph.Node{Kind: graph.List, Range: at}
		addrs := make([]string, 0, len(all))
		for a := range all {
			addrs = append(addrs, a)
		}
		sort.Strings(addrs)
		for _, a := range addrs {
			list.AddItems(&graph.Node{Kind: graph.String, Scalar: a, Range: at})
		}
		facts[graph.FactDependsOn] = list
	}
	keys := make([]string, 0, len(dc.refs))
	for k, a := range dc.refs {
		if a != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) == 0 {
		return
	}
	sort.Strings(keys)
	m := &graph.Node{Kind: graph.Map, Range: at}
	for _, k := range keys {
		m.AddFields(graph.Field{Key: k, KeyRange: at, Value: &graph.Node{Kind: graph.String, Scalar: dc.refs[k], Range: at}})
	}
	facts[graph.FactReferences] = m
}

// dependsOn reads a depends_on list into addresses under prefix (a module
// instance's address). Data sources are read at plan time and order nothing pvlint
// checks; what is not a reference is Terraform's error to report.
func dependsOn(expr hcl.Expression, prefix string) []string {
	if expr == nil {
		return nil
	}
	items, diags := hcl.ExprList(expr)
	if diags.HasErrors() {
		return nil
	}
	var out []string
	for _, it := range items {
		tr, diags := hcl.AbsTraversalForExpr(it)
		if diags.HasErrors() || len(tr) < 2 {
			continue
		}
		name, ok := stepName(tr[1])
		if !ok {
			continue
		}
		switch root := tr.RootName(); root {
		case "data", "var", "local", "each", "count", "path", "terraform", "self":
		default:
			out = append(out, prefix+root+"."+name)
		}
	}
	return out
}
