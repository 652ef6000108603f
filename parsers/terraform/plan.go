package terraform

import (
	"bytes"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// LooksLikePlan is a cheap test for Terraform plan or state JSON (`terraform show
// -json`), so a loader sends only likely files to ParsePlan.
func LooksLikePlan(data []byte) bool {
	return bytes.Contains(data, []byte(`"planned_values"`)) ||
		bytes.Contains(data, []byte(`"format_version"`)) && bytes.Contains(data, []byte(`"terraform_version"`))
}

// ParsePlan reads the output of `terraform show -json` for a plan (planned_values)
// or a state (values): the managed kubernetes_* resources of the root module and
// every child module, each located at its object in the file and named by its
// address. Values the plan marks as known only after apply are unknown. isPlan is
// false when the document is not Terraform JSON; the caller then reads it as a
// manifest.
func ParsePlan(name string, data []byte) (rs []*graph.Resource, diags []graph.Diagnostic, isPlan bool) {
	l := newLines(name, data)
	top, err := decodeJSON(l)
	if err != nil {
		if je, ok := err.(*jsonError); ok && LooksLikePlan(data) {
			return nil, []graph.Diagnostic{{Range: l.rng(je.off, je.off), Message: "invalid JSON: " + je.msg}}, true
		}
		return nil, nil, false
	}
	if top.Kind != graph.Map {
		return nil, nil, false
	}
	values := top.Get("planned_values")
	if values == nil && top.Get("format_version") != nil && top.Get("terraform_version") != nil {
		values = top.Get("values")
	}
	if values == nil {
		if top.Get("format_version") != nil && top.Get("terraform_version") != nil {
			return nil, nil, true
		}
		return nil, nil, false
	}
	unknown := map[string]*graph.Node{}
	for _, rc := range top.Get("resource_changes").List() {
		if au := rc.Get("change", "after_unknown"); au != nil {
			unknown[rc.Get("address").Str()] = au
		}
	}
	p := &planReader{name: name, unknown: unknown}
	p.module(values.Get("root_module"), 0)
	return p.out, nil, true
}

type planReader struct {
	name    string
	unknown map[string]*graph.Node // address → change.after_unknown
	out     []*graph.Resource
}

func (p *planReader) module(m *graph.Node, depth int) {
	if m == nil || depth > DefaultMaxModuleDepth {
		return
	}
	for _, r := range m.Get("resources").List() {
		p.resource(r)
	}
	for _, c := range m.Get("child_modules").List() {
		p.module(c, depth+1)
	}
}

func (p *planReader) resource(r *graph.Node) {
	typ := r.Get("type").Str()
	if r.Get("mode").Str() != "managed" || !emitted(typ) {
		return
	}
	addr := r.Get("address").Str()
	values := r.Get("values")
	if values == nil || values.Kind != graph.Map {
		return
	}
	markUnknown(values, p.unknown[addr])
	origin := graph.Origin{Format: graph.FormatPlan, File: p.name, Address: addr}
	if typ == manifestType {
		if m := values.Get("manifest"); m != nil && m.Kind == graph.Map {
			for _, res := range manifest.Objects(m, origin) {
				res.Range = r.Range
				nameByAddress(res)
				p.out = append(p.out, res)
			}
		}
		return
	}
	anchor := r.Range
	if a := r.Get("address"); a != nil {
		anchor = a.Range
	}
	z := &normalizer{isBlock: isBlockList, facts: map[string]*graph.Node{}}
	obj := z.object(values, shapeOf(typ), anchor)
	res := resourceOf(kinds[typ], obj, anchor, origin, r.Range, func(*graph.Node) string { return "(known after apply)" })
	nameByAddress(res)
	waitFact(z.facts, res, values, anchor)
	if len(z.facts) > 0 {
		res.Facts = z.facts
	}
	p.out = append(p.out, res)
}

// nameByAddress names a resource whose name the plan knows only after apply by its
// Terraform address ("kubernetes_storage_class_v1.fast"), which Go rules and policies
// alike then print: the plan's "(known after apply)" told the reader nothing, and as a
// graph name it made every such resource of a kind and namespace the same one. An
// address is unique in a plan and meets no reference, as nothing can name the
// object statically (a reference to its name is unknown too). The name is the
// generateName when there is no name, as for the graph.
func nameByAddress(res *graph.Resource) {
	n := res.Object.Get("metadata", "name")
	if n == nil {
		n = res.Object.Get("metadata", "generateName")
	}
	if (n.IsUnknown() || res.Name == "") && res.Origin.Address != "" {
		res.Name = res.Origin.Address
	}
}

// isBlockList recognises nested blocks in plan values: the kubernetes provider's
// nested blocks are lists of objects, and its maps are plain objects.
func isBlockList(n *graph.Node) bool { return n.Kind == graph.List && allMaps(n.Items()) }

// markUnknown replaces the values a plan's after_unknown marks true with unknown
// nodes (at the closest value the plan has), and adds the ones the plan omits.
func markUnknown(values, au *graph.Node) {
	if au == nil || values == nil {
		return
	}
	switch {
	case au.Kind == graph.Map && values.Kind == graph.Map:
		for _, f := range au.Fields() {
			cur := values.Field(f.Key)
			if b, ok := f.Value.Bool(); ok && b && f.Value.Kind == graph.Bool {
				u := &graph.Node{Kind: graph.Unknown, Range: values.Range}
				if cur != nil {
					u.Range = cur.Value.Range
					cur.Value = u
				} else {
					values.AddFields(graph.Field{Key: f.Key, KeyRange: values.Range, Value: u})
				}
				continue
			}
			if cur != nil {
				markUnknown(cur.Value, f.Value)
			}
		}
	case au.Kind == graph.List && values.Kind == graph.List:
		for i, it := range au.Items() {
			if i >= len(values.Items()) {
				break
			}
			if b, ok := it.Bool(); ok && b && it.Kind == graph.Bool {
				values.Items()[i] = &graph.Node{Kind: graph.Unknown, Range: values.Items()[i].Range}
				continue
			}
			markUnknown(values.Items()[i], it)
		}
	}
}
