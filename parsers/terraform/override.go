package terraform

import (
	"maps"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
)

// addOverride merges an override file (override.tf, *_override.tf) into the
// module, as Terraform does once every other file is read: each block replaces, in
// the block of the same type and labels, the attributes it sets and every nested
// block of the types it has (nested blocks are replaced, not merged); a local,
// variable or output is replaced by name. A block that overrides nothing is an
// error Terraform reports. Only native-syntax blocks are merged: a resource of a
// .tf.json file keeps its own body.
func (m *module) addOverride(sf *srcFile, diags hcl.Diagnostics) {
	m.hclDiags(sf, diags)
	m.files[sf.name] = sf
	if sf.file == nil || sf.file.Body == nil || diags.HasErrors() {
		sf.file = nil
		return
	}
	if sb, ok := sf.file.Body.(*hclsyntax.Body); ok {
		m.scanCalls(sb, false)
	}
	content, _, diags := sf.file.Body.PartialContent(rootSchema)
	m.hclDiags(sf, diags)
	for _, b := range content.Blocks {
		switch b.Type {
		case "resource":
			addr := b.Labels[0] + "." + b.Labels[1]
			d := m.byAddr[addr]
			if d == nil {
				m.diag(sf, b.DefRange, "override of resource %s, which no other file of the module declares (Terraform refuses the module)", addr)
				continue
			}
			merged, ok := mergeBodies(d.body, b.Body)
			if !ok {
				continue
			}
			c, rest, diags := merged.PartialContent(metaSchema)
			m.hclDiags(sf, diags)
			if a := c.Attributes["count"]; a != nil {
				d.count = a.Expr
			}
			if a := c.Attributes["for_each"]; a != nil {
				d.forEach = a.Expr
			}
			d.body = rest
		case "locals":
			attrs, diags := b.Body.JustAttributes()
			m.hclDiags(sf, diags)
			for n, a := range attrs {
				if m.locals[n] == nil {
					m.diag(sf, a.NameRange, "override of local.%s, which no other file of the module declares (Terraform refuses the module)", n)
					continue
				}
				m.locals[n] = a
			}
		case "variable":
			v := m.vars[b.Labels[0]]
			if v == nil {
				m.diag(sf, b.DefRange, "override of variable %q, which no other file of the module declares (Terraform refuses the module)", b.Labels[0])
				continue
			}
			c, _, diags := b.Body.PartialContent(varSchema)
			m.hclDiags(sf, diags)
			m.setVariable(sf, v, c)
		case "output":
			if m.outputs[b.Labels[0]] == nil {
				continue
			}
			c, _, diags := b.Body.PartialContent(outputSchema)
			m.hclDiags(sf, diags)
			if a := c.Attributes["value"]; a != nil {
				m.outputs[b.Labels[0]] = a
			}
		case "module":
			call := m.callByKey[b.Labels[0]]
			if call == nil {
				m.diag(sf, b.DefRange, "override of module %q, which no other file of the module declares (Terraform refuses the module)", b.Labels[0])
				continue
			}
			c, rest, diags := b.Body.PartialContent(callOverrideSchema)
			m.hclDiags(sf, diags)
			if a := c.Attributes["source"]; a != nil {
				if v, d := a.Expr.Value(nil); !d.HasErrors() && v.Type().Equals(cty.String) && v.IsKnown() && !v.IsNull() {
					call.source, call.srcRng = v.AsString(), a.Expr.Range()
				}
			}
			if a := c.Attributes["count"]; a != nil {
				call.count = a.Expr
			}
			if a := c.Attributes["for_each"]; a != nil {
				call.forEach = a.Expr
			}
			inputs, diags := rest.JustAttributes()
			m.hclDiags(sf, diags)
			merged := make(hcl.Attributes, len(call.inputs)+len(inputs))
			maps.Copy(merged, call.inputs)
			maps.Copy(merged, inputs)
			call.inputs = merged
		}
	}
}

// mergeBodies is base with override's attributes, and with override's nested
// blocks in place of base's blocks of those types (a dynamic block counts as a
// block of its label's type). It reports false when either body is not native
// syntax.
func mergeBodies(base, override hcl.Body) (*hclsyntax.Body, bool) {
	b, ok := base.(*hclsyntax.Body)
	o, ok2 := override.(*hclsyntax.Body)
	if !ok || !ok2 {
		return nil, false
	}
	out := &hclsyntax.Body{Attributes: hclsyntax.Attributes{}, SrcRange: b.SrcRange, EndRange: b.EndRange}
	maps.Copy(out.Attributes, b.Attributes)
	maps.Copy(out.Attributes, o.Attributes)
	replaced := map[string]bool{}
	for _, blk := range o.Blocks {
		replaced[blockType(blk)] = true
	}
	for _, blk := range b.Blocks {
		if !replaced[blockType(blk)] {
			out.Blocks = append(out.Blocks, blk)
		}
	}
	out.Blocks = append(out.Blocks, o.Blocks...)
	return out, true
}

func blockType(b *hclsyntax.Block) string {
	if b.Type == "dynamic" && len(b.Labels) == 1 {
		return b.Labels[0]
	}
	return b.Type
}
