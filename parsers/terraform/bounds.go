package terraform

import (
	"fmt"
	"reflect"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
	"github.com/zclconf/go-cty/cty/function"
)

// Bounds of one expression's evaluation (issue 27's Terraform bombs). A local that
// doubles a string forty times, or for expressions over range(1024) three deep, are
// a few lines that build gigabytes or a billion elements: evaluated as written they
// held the module's worker until its budget ran out, and every other resource of
// the module was lost with it. Values are bounded as they are built instead: the
// elements of for expressions and the parts of templates are counted as steps, and
// the strings and collections that functions, templates, for expressions and
// whole expressions produce are measured. An expression past a bound is unknown,
// with a diagnostic at the part of it that crossed the bound, and the module's other
// expressions are evaluated as usual. The bounds are far above what real
// configurations build: file() reads at most the file-size limit (32 MiB), which
// one value may hold. A chain of locals that each double the last keeps them all,
// and builds the next before it is measured: the bound is small enough that the
// chain stays within a worker's memory budget (under 400 MiB of peak RSS for
// testdata/bombs/tf-doubling).
const (
	// MaxExprSteps bounds the for-expression elements and template parts one
	// expression evaluates.
	MaxExprSteps = 1 << 18
	// MaxValueBytes bounds one string, and the strings of one value together.
	MaxValueBytes = 32 << 20
	// MaxValueElements bounds the elements of one value, nested ones included.
	MaxValueElements = 1 << 20
)

// exprBounds is the state of one expression's evaluation against the bounds.
type exprBounds struct {
	steps    int
	calls    int       // function calls
	exceeded string    // why, once a bound is crossed
	at       hcl.Range // where
}

// exceed records the first bound crossed.
func (b *exprBounds) exceed(why string, at hcl.Range) {
	if b.exceeded == "" {
		b.exceeded, b.at = why, at
	}
}

// boundsOf finds the bounds of the evaluation ctx belongs to: the run registers
// the function table of its contexts (registerBounds), which every child context
// (a for expression's) reaches through its parents.
var boundsByFuncs sync.Map // map pointer → *exprBounds

func funcsKey(f map[string]function.Function) uintptr {
	return reflect.ValueOf(f).Pointer()
}

func registerBounds(f map[string]function.Function, b *exprBounds) (unregister func()) {
	k := funcsKey(f)
	boundsByFuncs.Store(k, b)
	return func() { boundsByFuncs.Delete(k) }
}

func boundsOf(ctx *hcl.EvalContext) *exprBounds {
	for ctx != nil && ctx.Parent() != nil {
		ctx = ctx.Parent()
	}
	if ctx == nil || ctx.Functions == nil {
		return nil
	}
	if b, ok := boundsByFuncs.Load(funcsKey(ctx.Functions)); ok {
		return b.(*exprBounds)
	}
	return nil
}

// measure reports why v is past the value bounds ("" when it is not), walking no
// further than the bounds.
func measure(v cty.Value) string {
	elems, bytes := 0, 0
	var walk func(v cty.Value) bool
	walk = func(v cty.Value) bool {
		v, _ = v.Unmark()
		if !v.IsKnown() || v.IsNull() {
			return true
		}
		ty := v.Type()
		switch {
		case ty == cty.String:
			bytes += len(v.AsString())
			return bytes <= MaxValueBytes
		case ty.IsListType() || ty.IsSetType() || ty.IsTupleType() || ty.IsMapType() || ty.IsObjectType():
			elems += v.LengthInt()
			if elems > MaxValueElements {
				return false
			}
			for it := v.ElementIterator(); it.Next(); {
				_, e := it.Element()
				if !walk(e) {
					return false
				}
			}
		}
		return true
	}
	if walk(v) {
		return ""
	}
	if bytes > MaxValueBytes {
		return fmt.Sprintf("builds more than %d bytes of strings", MaxValueBytes)
	}
	return fmt.Sprintf("builds more than %d elements", MaxValueElements)
}

// stepExpr is an expression counted as a step of the evaluation it is part of, and
// whose value is measured: the element of a for expression, the part of a template.
// Once the evaluation is past a bound, it is unknown without being evaluated, so
// what remains of an enclosing loop costs a call each.
type stepExpr struct {
	hclsyntax.Expression
}

func (e stepExpr) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	b := boundsOf(ctx)
	if b == nil {
		return e.Expression.Value(ctx)
	}
	if b.exceeded != "" {
		return cty.DynamicVal, nil
	}
	if b.steps++; b.steps > MaxExprSteps {
		b.exceed(fmt.Sprintf("takes more than %d steps", MaxExprSteps), e.Range())
		return cty.DynamicVal, nil
	}
	v, diags := e.Expression.Value(ctx)
	if b.exceeded != "" {
		return cty.DynamicVal, nil
	}
	if why := measure(v); why != "" {
		b.exceed(why, e.Range())
		return cty.DynamicVal, nil
	}
	return v, diags
}

// boundExprs makes the for-expression elements and non-literal template parts of
// a parsed body or expression steps (stepExpr).
func boundExprs(n hclsyntax.Node) {
	if n == nil {
		return
	}
	wrap := func(e hclsyntax.Expression) hclsyntax.Expression {
		switch x := e.(type) {
		case nil, stepExpr, *hclsyntax.LiteralValueExpr:
			return e
		case *hclsyntax.ScopeTraversalExpr:
			// Expression.Variables finds references by their node type, and a
			// walk does not show it the node a stepExpr wraps, only its children:
			// parentheses keep the reference a child.
			return stepExpr{&hclsyntax.ParenthesesExpr{Expression: x, SrcRange: x.SrcRange}}
		}
		return stepExpr{e}
	}
	var visit func(n hclsyntax.Node) hcl.Diagnostics
	visit = func(n hclsyntax.Node) hcl.Diagnostics {
		switch x := n.(type) {
		case stepExpr:
			// VisitAll goes on with the wrapped expression's children, not the
			// expression itself: visit it here.
			visit(x.Expression)
		case *hclsyntax.ForExpr:
			x.KeyExpr, x.ValExpr, x.CondExpr = wrap(x.KeyExpr), wrap(x.ValExpr), wrap(x.CondExpr)
		case *hclsyntax.TemplateExpr:
			for i, p := range x.Parts {
				x.Parts[i] = wrap(p)
			}
		}
		return nil
	}
	hclsyntax.VisitAll(n, visit)
}

// jsonBounded is an expression of a .tf.json file evaluated within the bounds. In
// JSON syntax a string is a template that HCL parses only when it evaluates it
// (hcl/v2/json's expression.Value), so boundExprs, which marks the steps of a parsed
// file, never sees its for directives and interpolations: `%{ for ... }` three deep
// over range(1024) ran unbounded. jsonBounded evaluates the JSON value as HCL does
// (arrays to tuples, objects to objects with template keys, strings to templates),
// parsing each string template itself and marking its steps before evaluating it.
type jsonBounded struct {
	hcl.Expression
}

func (e jsonBounded) Value(ctx *hcl.EvalContext) (cty.Value, hcl.Diagnostics) {
	if ctx == nil || boundsOf(ctx) == nil {
		// Without a context a string is returned verbatim: nothing is evaluated.
		return e.Expression.Value(ctx)
	}
	if l, ok := e.Expression.(interface{ ExprList() []hcl.Expression }); ok {
		if items := l.ExprList(); items != nil {
			var diags hcl.Diagnostics
			vals := make([]cty.Value, 0, len(items))
			for _, item := range items {
				v, ds := jsonBounded{item}.Value(ctx)
				vals = append(vals, v)
				diags = append(diags, ds...)
			}
			return cty.TupleVal(vals), diags
		}
	}
	if m, ok := e.Expression.(interface{ ExprMap() []hcl.KeyValuePair }); ok {
		if pairs := m.ExprMap(); pairs != nil {
			return jsonObjectValue(ctx, e.Expression, pairs)
		}
	}
	lit, diags := e.Expression.Value(nil)
	if diags.HasErrors() || lit.Type() != cty.String || lit.IsNull() {
		return e.Expression.Value(ctx) // a number, a bool, null
	}
	r := e.Range()
	// The template starts after the opening quote; as in HCL, escapes the JSON
	// parser removed shift the columns after them.
	tmpl, diags := hclsyntax.ParseTemplate([]byte(lit.AsString()), r.Filename,
		hcl.Pos{Line: r.Start.Line, Column: r.Start.Column + 1, Byte: r.Start.Byte + 1})
	if diags.HasErrors() {
		return cty.DynamicVal, diags
	}
	boundExprs(tmpl)
	v, evalDiags := tmpl.Value(ctx)
	return v, append(diags, evalDiags...)
}

// jsonObjectValue evaluates a JSON object expression as hcl/v2/json does: keys are
// templates too, a key that is not a string, null or a duplicate is an error, and an
// unknown key makes the whole object unknown.
func jsonObjectValue(ctx *hcl.EvalContext, whole hcl.Expression, pairs []hcl.KeyValuePair) (cty.Value, hcl.Diagnostics) {
	var diags hcl.Diagnostics
	attrs := map[string]cty.Value{}
	ranges := map[string]hcl.Range{}
	known := true
	for _, kv := range pairs {
		name, nameDiags := jsonBounded{kv.Key}.Value(ctx)
		val, valDiags := jsonBounded{kv.Value}.Value(ctx)
		diags = append(append(diags, nameDiags...), valDiags...)
		keyRange := kv.Key.Range()
		name, err := convert.Convert(name, cty.String)
		switch {
		case err != nil:
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid object key expression",
				Detail: fmt.Sprintf("Cannot use this expression as an object key: %s.", err), Subject: &keyRange, Expression: kv.Value, EvalContext: ctx})
			continue
		case name.IsNull():
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Invalid object key expression",
				Detail: "Cannot use null value as an object key.", Subject: &keyRange, Expression: kv.Value, EvalContext: ctx})
			continue
		case !name.IsKnown():
			known = false
			continue
		}
		key := name.AsString()
		if _, dup := attrs[key]; dup {
			diags = append(diags, &hcl.Diagnostic{Severity: hcl.DiagError, Summary: "Duplicate object attribute",
				Detail: fmt.Sprintf("An attribute named %q was already defined at %s.", key, ranges[key]), Subject: &keyRange, Expression: whole, EvalContext: ctx})
			continue
		}
		attrs[key], ranges[key] = val, keyRange
	}
	if !known {
		return cty.DynamicVal, diags
	}
	return cty.ObjectVal(attrs), diags
}

// boundFuncs wraps every function so that a result past the value bounds is an
// error of the call, recorded on the evaluation's bounds.
func boundFuncs(f map[string]function.Function, b *exprBounds) {
	for name, fn := range f {
		switch name {
		case "try", "can", "core::try", "core::can":
			// They build nothing themselves, and compute their result twice (type,
			// then value): a wrapper would make nested calls cost more.
			continue
		}
		f[name] = boundFunc(fn, b)
	}
}

func boundFunc(fn function.Function, b *exprBounds) function.Function {
	return function.New(&function.Spec{
		Description: fn.Description(),
		Params:      fn.Params(),
		VarParam:    fn.VarParam(),
		Type:        fn.ReturnTypeForValues,
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			if b.exceeded != "" {
				return cty.DynamicVal, nil
			}
			b.calls++
			// The arguments first: a string referenced a thousand times is one string
			// in memory and a thousand in what join or format would build from it.
			if why := measure(cty.TupleVal(args)); why != "" {
				b.exceed("passes "+strings.TrimPrefix(why, "builds ")+" to a function", hcl.Range{})
				return cty.DynamicVal, nil
			}
			v, err := fn.Call(args)
			if err != nil {
				return v, err
			}
			if why := measure(v); why != "" {
				b.exceed(why, hcl.Range{})
				return cty.DynamicVal, nil
			}
			return v, nil
		},
	})
}
