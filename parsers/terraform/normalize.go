package terraform

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// normalizer turns a resource in Terraform's shape (snake_case, nested blocks as
// lists of objects) into the Kubernetes object the provider sends. HCL and plan JSON
// share it: only how a block is recognised differs.
type normalizer struct {
	// isBlock reports whether a list node came from nested blocks.
	isBlock func(*graph.Node) bool
	// facts collects Terraform-only facts met on the way.
	facts map[string]*graph.Node
}

// object normalises one Terraform-shaped map. anchor is where the block starts (its
// header): provider defaults the configuration leaves out are placed there, so a
// finding about one points at the block that omits it.
func (z *normalizer) object(tf *graph.Node, sh *shape, anchor graph.Range) *graph.Node {
	if sh != nil && sh.podSpecOnly && len(tf.Fields()) > 0 && tf.Field("spec") == nil && tf.Field("metadata") == nil {
		spec := z.object(tf, podSpec, anchor)
		return &graph.Node{Kind: graph.Map, Range: tf.Range, Contents: &graph.Contents{Fields: []graph.Field{{Key: "spec", KeyRange: anchor, Value: spec}}}}
	}
	out := &graph.Node{Kind: graph.Map, Range: tf.Range}
	add := func(key string, kr graph.Range, v *graph.Node) {
		out.AddFields(graph.Field{Key: key, KeyRange: kr, Value: v})
	}
	for _, f := range tf.Fields() {
		if sh != nil && sh.drop[f.Key] {
			continue
		}
		v := f.Value
		b := sh.block(f.Key)
		if (b != nil || z.isBlock(v)) && !sh.isMap(f.Key) && (v.Kind == graph.List || v.Kind == graph.Unknown) {
			name := b.fieldName(f.Key)
			var child *shape
			if b != nil {
				child = b.shape
			}
			switch {
			case v.Kind == graph.Unknown:
				add(name, f.KeyRange, v)
			case b != nil && b.inline:
				for _, it := range v.Items() {
					if it.Kind == graph.Map {
						out.AddFields(z.object(it, child, f.KeyRange).Fields()...)
					}
				}
			case b != nil && b.list:
				l := &graph.Node{Kind: graph.List, Range: v.Range}
				for _, it := range v.Items() {
					l.AddItems(z.item(it, child, f.KeyRange))
				}
				add(name, f.KeyRange, l)
			case len(v.Items()) > 0:
				add(name, f.KeyRange, z.item(v.Items()[0], child, f.KeyRange))
			}
			continue
		}
		switch {
		case v.Kind == graph.Null:
			continue
		case v.Kind == graph.String && v.Scalar == "":
			// The provider treats "" as unset; for storage_class_name that silently
			// changes the meaning (docs/storage-facts.md#f8), which PVL014 reports.
			if f.Key == "storage_class_name" && z.facts[graph.FactEmptyClassName] == nil {
				z.facts[graph.FactEmptyClassName] = v
			}
			continue
		case sh != nil && sh.strs[f.Key] && (v.Kind == graph.Int || v.Kind == graph.Float):
			cp := *v
			cp.Kind = graph.String
			v = &cp
		}
		add(camel(f.Key), f.KeyRange, v)
	}
	if sh != nil {
		for _, d := range sh.defaults {
			if out.Field(d.key) == nil {
				add(d.key, anchor, &graph.Node{Kind: d.kind, Scalar: d.scalar, Range: anchor})
			}
		}
	}
	return out
}

func (z *normalizer) item(it *graph.Node, sh *shape, anchor graph.Range) *graph.Node {
	if it.Kind != graph.Map {
		return it
	}
	return z.object(it, sh, anchor)
}

// resourceOf builds the graph resource of a normalised object.
func resourceOf(k *kindInfo, obj *graph.Node, anchor graph.Range, origin graph.Origin, rg graph.Range, unknown func(*graph.Node) string) *graph.Resource {
	head := []graph.Field{
		{Key: "apiVersion", KeyRange: anchor, Value: &graph.Node{Kind: graph.String, Scalar: k.apiVersion, Range: anchor}},
		{Key: "kind", KeyRange: anchor, Value: &graph.Node{Kind: graph.String, Scalar: k.kind, Range: anchor}},
	}
	obj.SetFields(append(head, obj.Fields()...))
	name := obj.Get("metadata", "name")
	if name == nil {
		name = obj.Get("metadata", "generateName")
	}
	return &graph.Resource{
		APIVersion: k.apiVersion,
		Kind:       k.kind,
		Namespace:  ident(obj.Get("metadata", "namespace"), unknown),
		Name:       ident(name, unknown),
		Origin:     origin,
		Range:      rg,
		Object:     obj,
	}
}

// ident is a name or namespace as the graph indexes it. An unknown one gets a
// placeholder naming the expression that decides it: resources whose namespace comes
// from the same expression meet, and nothing else matches it.
func ident(n *graph.Node, unknown func(*graph.Node) string) string {
	if n.IsUnknown() {
		return unknown(n)
	}
	return n.Str()
}

// exprText is the source of an unknown value's expression, as a placeholder.
func exprText(sf *srcFile, n *graph.Node) string {
	if sf == nil || n.Range.File != sf.name {
		return "(known after apply)"
	}
	s, e := int(n.Range.Start.Byte), int(n.Range.End.Byte)
	if s < 0 || e > len(sf.lines.data) || s >= e {
		return "(known after apply)"
	}
	t := strings.Join(strings.Fields(string(sf.lines.data[s:e])), " ")
	quoted := len(t) >= 2 && strings.HasPrefix(t, `"`) && strings.HasSuffix(t, `"`)
	if quoted {
		t = t[1 : len(t)-1]
	}
	if r := []rune(t); len(r) > 120 {
		t = string(r[:120]) + "…"
	}
	if quoted {
		// A template: its text already shows the interpolations.
		return t
	}
	return "${" + t + "}"
}
