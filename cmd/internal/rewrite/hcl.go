package rewrite

import (
	"errors"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/hashicorp/hcl/v2/hclwrite"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/zclconf/go-cty/cty"
)

// hclEdits turns edits into byte changes of a Terraform file. hclsyntax finds where
// each attribute and block is; hclwrite renders the new values and blocks in
// canonical style; the changes are spliced into the original bytes, because hclwrite
// re-spaces a whole file it writes, and nothing outside the fix may move. Keys are
// the Kubernetes names the graph uses, written in the provider's snake_case.
func hclEdits(src []byte, root *hclsyntax.Body, edits []lint.Edit) ([]span, error) {
	var out []span
	for _, e := range edits {
		s, err := hclEdit(src, root, e)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// parseHCL parses a .tf file for hclEdits.
func parseHCL(src []byte, file string) (*hclsyntax.Body, error) {
	f, diags := hclsyntax.ParseConfig(src, file, hcl.InitialPos)
	if diags.HasErrors() {
		return nil, errors.New("the file does not parse: " + diags.Error())
	}
	root, ok := f.Body.(*hclsyntax.Body)
	if !ok {
		return nil, errors.New("the file is not native HCL syntax")
	}
	return root, nil
}

func hclEdit(src []byte, root *hclsyntax.Body, e lint.Edit) (span, error) {
	if e.Node == nil || !e.Node.Range.IsValid() {
		return span{}, errors.New("the value has no position in the file")
	}
	start, end := startOf(e.Node.Range), endOf(e.Node.Range)
	switch e.Op {
	case lint.OpSet:
		x := findExpr(root, start, end)
		if x == nil && e.Parent != nil && e.Key != "" {
			// A provider default (volume_binding_mode unset): add the attribute.
			if b := findBody(root, startOf(e.Parent.Range), endOf(e.Parent.Range)); b != nil && b.Attributes[snake(e.Key)] == nil {
				return hclInsert(src, b, snake(e.Key), e.Value)
			}
		}
		if x == nil {
			return span{}, errors.New("the value is not written in this file (a variable, a local or a default)")
		}
		if !literal(x) {
			return span{}, errors.New("the value is an expression, not a literal")
		}
		r := x.Range()
		return span{r.Start.Byte, r.End.Byte, string(hclwrite.TokensForValue(ctyValue(e.Value)).Bytes())}, nil
	case lint.OpInsert, lint.OpDelete:
		b := findBody(root, start, end)
		if b == nil {
			return span{}, errors.New("the block is not written in this file (a dynamic block or a module's)")
		}
		name := snake(e.Key)
		if e.Op == lint.OpDelete {
			return hclDelete(src, b, name)
		}
		if b.Attributes[name] != nil || firstBlock(b, name) != nil {
			return span{}, errors.New(name + " is already set")
		}
		return hclInsert(src, b, name, e.Value)
	}
	return span{}, errors.New("unknown edit")
}

// hclInsert adds an attribute (a scalar value) or a block (a map value) as the last
// item of the body, on its own lines before the closing brace, indented as the body's
// first item.
func hclInsert(src []byte, b *hclsyntax.Body, name string, v *graph.Node) (span, error) {
	closing := b.SrcRange.End.Byte - 1
	ls := lineStart(src, closing)
	if closing < 0 || closing >= len(src) || src[closing] != '}' || strings.TrimLeft(string(src[ls:closing]), " \t") != "" {
		return span{}, errors.New("the block's closing brace does not start its line")
	}
	indent := string(src[ls:closing]) + "  "
	if first := firstItem(b); first >= 0 {
		fl := lineStart(src, first)
		indent = string(src[fl:first])
		if strings.TrimLeft(indent, " \t") != "" {
			return span{}, errors.New("the block's items do not start their lines")
		}
	}
	f := hclwrite.NewEmptyFile()
	if v.Is(graph.Map) {
		nb := f.Body().AppendNewBlock(name, nil)
		for _, fl := range v.Fields() {
			nb.Body().SetAttributeValue(snake(fl.Key), ctyValue(fl.Value))
		}
	} else {
		f.Body().SetAttributeValue(name, ctyValue(v))
	}
	var text strings.Builder
	for _, line := range strings.SplitAfter(string(hclwrite.Format(f.Bytes())), "\n") {
		if line != "" {
			text.WriteString(indent + line)
		}
	}
	return span{ls, ls, text.String()}, nil
}

// hclDelete removes an attribute or the first block of that type, with its lines.
func hclDelete(src []byte, b *hclsyntax.Body, name string) (span, error) {
	var from, to int
	if a := b.Attributes[name]; a != nil {
		from, to = a.NameRange.Start.Byte, a.Expr.Range().End.Byte
	} else if blk := firstBlock(b, name); blk != nil {
		from, to = blk.TypeRange.Start.Byte, blk.CloseBraceRange.End.Byte
	} else {
		return span{}, errors.New(name + " is not set in the block")
	}
	ls := lineStart(src, from)
	if strings.TrimLeft(string(src[ls:from]), " \t") != "" {
		return span{}, errors.New(name + " does not start its line")
	}
	return span{ls, lineAfter(src, to), ""}, nil
}

// findExpr returns the attribute value, or the element of a list attribute
// (access_modes = ["ReadWriteOnce"]), that spans exactly [start, end).
func findExpr(b *hclsyntax.Body, start, end int) hclsyntax.Expression {
	is := func(x hclsyntax.Expression) bool {
		r := x.Range()
		return r.Start.Byte == start && r.End.Byte == end
	}
	for _, a := range b.Attributes {
		if is(a.Expr) {
			return a.Expr
		}
		if t, ok := a.Expr.(*hclsyntax.TupleConsExpr); ok {
			for _, x := range t.Exprs {
				if is(x) {
					return x
				}
			}
		}
	}
	for _, blk := range b.Blocks {
		if x := findExpr(blk.Body, start, end); x != nil {
			return x
		}
	}
	return nil
}

// findBody returns the body of the block spanning [start, end) (from its type to its
// closing brace, as graph nodes of nested blocks do), or the body spanning it (its
// braces, as a resource's object does).
func findBody(b *hclsyntax.Body, start, end int) *hclsyntax.Body {
	if b.SrcRange.Start.Byte == start && b.SrcRange.End.Byte == end {
		return b
	}
	for _, blk := range b.Blocks {
		if blk.TypeRange.Start.Byte == start && blk.CloseBraceRange.End.Byte == end {
			return blk.Body
		}
		if found := findBody(blk.Body, start, end); found != nil {
			return found
		}
	}
	return nil
}

func firstBlock(b *hclsyntax.Body, typ string) *hclsyntax.Block {
	for _, blk := range b.Blocks {
		if blk.Type == typ {
			return blk
		}
	}
	return nil
}

// firstItem is the offset of the body's first attribute or block, or -1.
func firstItem(b *hclsyntax.Body) int {
	first := -1
	for _, a := range b.Attributes {
		if first < 0 || a.NameRange.Start.Byte < first {
			first = a.NameRange.Start.Byte
		}
	}
	for _, blk := range b.Blocks {
		if first < 0 || blk.TypeRange.Start.Byte < first {
			first = blk.TypeRange.Start.Byte
		}
	}
	return first
}

// literal reports whether an expression is a constant a fix may replace: a number,
// boolean or a string without interpolation.
func literal(e hclsyntax.Expression) bool {
	switch x := e.(type) {
	case *hclsyntax.LiteralValueExpr:
		return true
	case *hclsyntax.TemplateExpr:
		return x.IsStringLiteral()
	}
	return false
}

func ctyValue(v *graph.Node) cty.Value {
	switch {
	case v.Is(graph.Bool):
		b, _ := v.Bool()
		return cty.BoolVal(b)
	case v.Is(graph.Int):
		n, _ := v.Int()
		return cty.NumberIntVal(int64(n))
	}
	return cty.StringVal(v.Str())
}

// snake is the provider's name of a Kubernetes field: volumeBindingMode →
// volume_binding_mode (the inverse of the Terraform parser's camel).
func snake(s string) string {
	var b strings.Builder
	for i, r := range s {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}
