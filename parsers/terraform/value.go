package terraform

import (
	"math/big"
	"sort"
	"strconv"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
)

// Bounds on one converted value, so a hostile expression cannot build an unbounded
// tree: beyond them the rest is unknown.
const (
	maxValueNodes = 1_000_000
	maxValueDepth = 256
)

// conv turns evaluated values into graph nodes. Ranges follow the expression as far
// as its structure matches the value (tuple and object constructors, JSON literals);
// a part computed by a function or reference gets the range of that expression.
type conv struct {
	sf     *srcFile
	budget int
}

// node converts the value of expr.
func (r *run) node(v cty.Value, expr hcl.Expression, sf *srcFile) *graph.Node {
	v, _ = v.UnmarkDeep()
	c := &conv{sf: sf, budget: maxValueNodes}
	var jn *graph.Node
	if sf != nil && sf.jsonIdx != nil && hcljson.IsJSONExpression(expr) {
		jn = sf.jsonIdx[expr.Range().Start.Byte]
	}
	return c.value(v, expr, jn, convRange(sf, expr.Range()), 0)
}

func unwrap(expr hcl.Expression) hcl.Expression {
	for {
		switch e := expr.(type) {
		case *hclsyntax.TemplateWrapExpr:
			expr = e.Wrapped
		case *hclsyntax.ParenthesesExpr:
			expr = e.Expression
		default:
			return expr
		}
	}
}

func (c *conv) value(v cty.Value, expr hcl.Expression, jn *graph.Node, rg graph.Range, depth int) *graph.Node {
	if expr != nil {
		expr = unwrap(expr)
		rg = convRange(c.sf, expr.Range())
	} else if jn != nil {
		rg = jn.Range
	}
	c.budget--
	if c.budget < 0 || depth > maxValueDepth || !v.IsKnown() {
		return &graph.Node{Kind: graph.Unknown, Range: rg}
	}
	if v.IsNull() {
		return &graph.Node{Kind: graph.Null, Range: rg}
	}
	ty := v.Type()
	switch {
	case ty == cty.String:
		return &graph.Node{Kind: graph.String, Scalar: v.AsString(), Range: rg}
	case ty == cty.Number:
		kind, scalar := number(v.AsBigFloat())
		return &graph.Node{Kind: kind, Scalar: scalar, Range: rg}
	case ty == cty.Bool:
		s := "false"
		if v.True() {
			s = "true"
		}
		return &graph.Node{Kind: graph.Bool, Scalar: s, Range: rg}
	case ty.IsListType() || ty.IsTupleType() || ty.IsSetType():
		n := &graph.Node{Kind: graph.List, Range: rg}
		var exprs []hclsyntax.Expression
		if tc, ok := expr.(*hclsyntax.TupleConsExpr); ok && !ty.IsSetType() && len(tc.Exprs) == v.LengthInt() {
			exprs = tc.Exprs
		}
		var jitems []*graph.Node
		if jn != nil && jn.Kind == graph.List && len(jn.Items()) == v.LengthInt() && !ty.IsSetType() {
			jitems = jn.Items()
		}
		i := 0
		for it := v.ElementIterator(); it.Next(); i++ {
			_, e := it.Element()
			var sub hcl.Expression
			var sj *graph.Node
			if exprs != nil {
				sub = exprs[i]
			}
			if jitems != nil {
				sj = jitems[i]
			}
			n.AddItems(c.value(e, sub, sj, rg, depth+1))
		}
		return n
	case ty.IsMapType() || ty.IsObjectType():
		return c.object(v, expr, jn, rg, depth)
	}
	return &graph.Node{Kind: graph.Unknown, Range: rg}
}

// object converts a map or object, keeping the source order of its keys when the
// expression is an object constructor or a JSON object.
func (c *conv) object(v cty.Value, expr hcl.Expression, jn *graph.Node, rg graph.Range, depth int) *graph.Node {
	n := &graph.Node{Kind: graph.Map, Range: rg}
	type src struct {
		key  graph.Range
		expr hcl.Expression
		json *graph.Node
	}
	srcs := map[string]src{}
	var order []string
	if oc, ok := expr.(*hclsyntax.ObjectConsExpr); ok {
		for _, item := range oc.Items {
			k, ok := literalKey(item.KeyExpr)
			if !ok {
				continue
			}
			if _, dup := srcs[k]; !dup {
				order = append(order, k)
			}
			srcs[k] = src{key: convRange(c.sf, item.KeyExpr.Range()), expr: item.ValueExpr}
		}
	} else if jn != nil && jn.Kind == graph.Map {
		for _, f := range jn.Fields() {
			if _, dup := srcs[f.Key]; !dup {
				order = append(order, f.Key)
			}
			srcs[f.Key] = src{key: f.KeyRange, json: f.Value}
		}
	}
	vals := v.AsValueMap()
	keys := make([]string, 0, len(vals))
	for _, k := range order {
		if _, ok := vals[k]; ok {
			keys = append(keys, k)
		}
	}
	var rest []string
	for k := range vals {
		if _, ok := srcs[k]; !ok {
			rest = append(rest, k)
		}
	}
	sort.Strings(rest)
	keys = append(keys, rest...)
	for _, k := range keys {
		s, ok := srcs[k]
		kr := rg
		if ok {
			kr = s.key
		}
		n.AddFields(graph.Field{Key: k, KeyRange: kr, Value: c.value(vals[k], s.expr, s.json, rg, depth+1)})
	}
	return n
}

// literalKey returns an object constructor key that needs no evaluation: a bare
// name or a constant string.
func literalKey(e hcl.Expression) (string, bool) {
	if kw := hcl.ExprAsKeyword(e); kw != "" {
		return kw, true
	}
	if len(e.Variables()) > 0 {
		return "", false
	}
	v, diags := e.Value(nil)
	if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
		return "", false
	}
	return v.AsString(), true
}

// toCty converts a node back into a value, for references to a resource: maps are
// objects, lists tuples, unknown nodes unknown values.
func toCty(n *graph.Node) cty.Value {
	if n == nil {
		return cty.NullVal(cty.DynamicPseudoType)
	}
	switch n.Kind {
	case graph.Map:
		attrs := make(map[string]cty.Value, len(n.Fields()))
		for _, f := range n.Fields() {
			attrs[f.Key] = toCty(f.Value)
		}
		return cty.ObjectVal(attrs)
	case graph.List:
		items := make([]cty.Value, len(n.Items()))
		for i, it := range n.Items() {
			items[i] = toCty(it)
		}
		return cty.TupleVal(items)
	case graph.String:
		return cty.StringVal(n.Scalar)
	case graph.Int, graph.Float:
		if v, err := cty.ParseNumberVal(n.Scalar); err == nil {
			return v
		}
		return cty.StringVal(n.Scalar)
	case graph.Bool:
		return cty.BoolVal(n.Scalar == "true")
	case graph.Null:
		return cty.NullVal(cty.DynamicPseudoType)
	}
	return cty.DynamicVal
}

// number is the node kind and text of a number: its shortest exact decimal form.
func number(bf *big.Float) (graph.NodeKind, string) {
	if !bf.IsInt() {
		return graph.Float, bf.Text('f', -1)
	}
	// Most numbers are small integers: strconv writes the digits big.Float's decimal
	// conversion would, without it (minus zero aside, which keeps its sign).
	if i, acc := bf.Int64(); acc == big.Exact && (i != 0 || !bf.Signbit()) {
		return graph.Int, strconv.FormatInt(i, 10)
	}
	return graph.Int, bf.Text('f', -1)
}
