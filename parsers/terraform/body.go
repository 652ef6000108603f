package terraform

import (
	"sort"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
)

// Names a resource body holds that configure Terraform rather than the object.
var metaNames = map[string]bool{
	"count": true, "for_each": true, "provider": true, "depends_on": true,
	"lifecycle": true, "provisioner": true, "connection": true,
}

// built collects the list nodes made from nested blocks while a body is evaluated:
// the normaliser treats them as blocks (flattened or renamed), not as values.
type built struct {
	blocks map[*graph.Node]bool
	sf     *srcFile
	deps   *depCollector // nil: not collected
}

// body evaluates a block body into Terraform's own shape: attributes as values,
// nested blocks as lists of objects (blocks of one type together, in source order),
// dynamic blocks expanded. Every node carries its range.
func (s scope) body(b hcl.Body, sh *shape, meta bool, sf *srcFile, deps *depCollector) (*graph.Node, map[*graph.Node]bool) {
	bt := &built{blocks: map[*graph.Node]bool{}, sf: sf, deps: deps}
	return s.walk(b, sh, meta, bt, bodyRange(b, sf)), bt.blocks
}

func (s scope) walk(b hcl.Body, sh *shape, meta bool, bt *built, rg graph.Range) *graph.Node {
	n := &graph.Node{Kind: graph.Map, Range: rg}
	attrs, blocks := s.content(b, sh, bt.sf)
	type entry struct {
		at    int
		attr  *hcl.Attribute
		typ   string
		block []*hcl.Block
	}
	var entries []entry
	for _, a := range attrs {
		if meta && metaNames[a.Name] {
			continue
		}
		entries = append(entries, entry{at: a.NameRange.Start.Byte, attr: a})
	}
	byType := map[string]int{}
	for _, blk := range blocks {
		typ := blk.Type
		if typ == "dynamic" && len(blk.Labels) == 1 {
			typ = blk.Labels[0]
		}
		if meta && metaNames[typ] {
			continue
		}
		if i, ok := byType[typ]; ok {
			entries[i].block = append(entries[i].block, blk)
			continue
		}
		byType[typ] = len(entries)
		entries = append(entries, entry{at: blk.TypeRange.Start.Byte, typ: typ, block: []*hcl.Block{blk}})
	}
	sort.SliceStable(entries, func(i, j int) bool { return entries[i].at < entries[j].at })
	for _, e := range entries {
		if e.attr != nil {
			v, pvms := s.evalMarked(e.attr.Expr).UnmarkDeepWithPaths()
			val := s.in.run.node(v, e.attr.Expr, bt.sf)
			bt.deps.note(val, pvms)
			n.AddFields(graph.Field{Key: e.attr.Name, KeyRange: convRange(bt.sf, e.attr.NameRange), Value: val})
			continue
		}
		list := &graph.Node{Kind: graph.List}
		child := sh.child(e.typ)
		for _, blk := range e.block {
			if blk.Type == "dynamic" {
				list.AddItems(s.dynamic(blk, child, bt)...)
				continue
			}
			list.AddItems(s.walk(blk.Body, child, false, bt, blockRange(blk, bt.sf)))
		}
		first, last := blockRange(e.block[0], bt.sf), blockRange(e.block[len(e.block)-1], bt.sf)
		list.Range = graph.Range{File: first.File, Start: first.Start, End: last.End}
		bt.blocks[list] = true
		n.AddFields(graph.Field{Key: e.typ, KeyRange: convRange(bt.sf, e.block[0].TypeRange), Value: list})
	}
	return n
}

var dynamicSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "for_each", Required: true}, {Name: "iterator"}, {Name: "labels"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "content"}},
}

// dynamic expands a dynamic block into the blocks it generates. An unknown for_each
// yields one unknown item: the blocks exist, their number and content do not.
func (s scope) dynamic(blk *hcl.Block, sh *shape, bt *built) []*graph.Node {
	rg := blockRange(blk, bt.sf)
	c, diags := blk.Body.Content(dynamicSchema)
	s.in.run.hclDiags(bt.sf, diags)
	if diags.HasErrors() || len(c.Blocks) != 1 {
		return []*graph.Node{{Kind: graph.Unknown, Range: rg}}
	}
	iter := blk.Labels[0]
	if a := c.Attributes["iterator"]; a != nil {
		if kw := hcl.ExprAsKeyword(a.Expr); kw != "" {
			iter = kw
		}
	}
	coll, marks := s.evalMarked(c.Attributes["for_each"].Expr).UnmarkDeep()
	bt.deps.add(marks)
	if !coll.IsWhollyKnown() || coll.IsNull() || !coll.CanIterateElements() {
		return []*graph.Node{{Kind: graph.Unknown, Range: rg}}
	}
	if n := coll.LengthInt(); n > s.in.run.ld.opts.MaxInstances || !s.in.run.spend(n, rg) {
		if n > s.in.run.ld.opts.MaxInstances {
			s.in.run.diag(rg, "dynamic %q has %d elements, more than the limit of %d; not expanded", blk.Labels[0], n, s.in.run.ld.opts.MaxInstances)
		}
		return []*graph.Node{{Kind: graph.Unknown, Range: rg}}
	}
	content := c.Blocks[0]
	var out []*graph.Node
	for it := coll.ElementIterator(); it.Next(); {
		k, v := it.Element()
		if coll.Type().IsSetType() {
			k = v
		}
		inner := s.bind(iter, cty.ObjectVal(map[string]cty.Value{"key": k, "value": v.WithMarks(marks)}))
		out = append(out, inner.walk(content.Body, sh, false, bt, blockRange(content, bt.sf)))
	}
	return out
}

// content lists a body's attributes and nested blocks. Native syntax says which is
// which; JSON does not, so a key is a block when the shape says so, or when its value
// is an object (or array of objects) and the name is not a known map attribute.
func (s scope) content(b hcl.Body, sh *shape, sf *srcFile) ([]*hcl.Attribute, []*hcl.Block) {
	if sb, ok := b.(*hclsyntax.Body); ok {
		attrs := make([]*hcl.Attribute, 0, len(sb.Attributes))
		for _, a := range sb.Attributes {
			attrs = append(attrs, a.AsHCLAttribute())
		}
		sort.Slice(attrs, func(i, j int) bool { return attrs[i].NameRange.Start.Byte < attrs[j].NameRange.Start.Byte })
		blocks := make([]*hcl.Block, 0, len(sb.Blocks))
		for _, blk := range sb.Blocks {
			blocks = append(blocks, blk.AsHCLBlock())
		}
		return attrs, blocks
	}
	schema := &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{{Type: "dynamic", LabelNames: []string{"type"}}}}
	seen := map[string]bool{"dynamic": true}
	for _, name := range jsonBlockNames(b, sh, sf) {
		if !seen[name] {
			seen[name] = true
			schema.Blocks = append(schema.Blocks, hcl.BlockHeaderSchema{Type: name})
		}
	}
	c, rest, diags := b.PartialContent(schema)
	s.in.run.hclDiags(sf, diags)
	am, diags := rest.JustAttributes()
	s.in.run.hclDiags(sf, diags)
	attrs := make([]*hcl.Attribute, 0, len(am))
	for _, a := range am {
		attrs = append(attrs, a)
	}
	sort.Slice(attrs, func(i, j int) bool { return attrs[i].NameRange.Start.Byte < attrs[j].NameRange.Start.Byte })
	return attrs, c.Blocks
}

// jsonBlockNames finds the keys of a JSON body that are nested blocks.
func jsonBlockNames(b hcl.Body, sh *shape, sf *srcFile) []string {
	obj := jsonObject(b, sf)
	var out []string
	for _, f := range obj.Fields() {
		if mapAttrs[f.Key] || sh.isMap(f.Key) || metaNames[f.Key] || f.Key == "//" {
			continue
		}
		if sh.isBlock(f.Key) {
			out = append(out, f.Key)
			continue
		}
		v := f.Value
		if v.Kind == graph.Map || v.Kind == graph.List && len(v.Items()) > 0 && allMaps(v.Items()) {
			out = append(out, f.Key)
		}
	}
	return out
}

func allMaps(items []*graph.Node) bool {
	for _, it := range items {
		if it.Kind != graph.Map {
			return false
		}
	}
	return true
}

// jsonObject finds the decoded JSON object of a body. HCL's JSON bodies report their
// closing brace as MissingItemRange, and each object ends at its own brace.
func jsonObject(b hcl.Body, sf *srcFile) *graph.Node {
	if sf == nil || sf.jsonEnd == nil {
		return nil
	}
	return sf.jsonEnd[b.MissingItemRange().Start.Byte+1]
}

// blockRange is a block's whole span: from its type keyword to its closing brace.
func blockRange(blk *hcl.Block, sf *srcFile) graph.Range {
	if sb, ok := blk.Body.(*hclsyntax.Body); ok {
		return convRange(sf, hcl.RangeBetween(blk.TypeRange, sb.SrcRange))
	}
	if obj := jsonObject(blk.Body, sf); obj != nil {
		start := blk.DefRange
		if len(blk.LabelRanges) > 0 {
			start = blk.LabelRanges[len(blk.LabelRanges)-1]
		} else if blk.TypeRange.Filename != "" {
			start = blk.TypeRange
		}
		r := convRange(sf, start)
		r.End = obj.Range.End
		return r
	}
	return convRange(sf, blk.DefRange)
}

// bodyRange is the span of a body on its own.
func bodyRange(b hcl.Body, sf *srcFile) graph.Range {
	if sb, ok := b.(*hclsyntax.Body); ok {
		return convRange(sf, sb.SrcRange)
	}
	if obj := jsonObject(b, sf); obj != nil {
		return obj.Range
	}
	return convRange(sf, b.MissingItemRange())
}
