package terraform

import (
	"maps"
	"math/big"
	"path/filepath"
	"runtime/debug"
	"strings"

	"github.com/hashicorp/hcl/v2"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
)

// scope is where an expression is evaluated: a module instance, plus the names a
// block binds (count, each, a dynamic block's iterator).
type scope struct {
	in    *instance
	extra map[string]cty.Value
}

// instKey is one instance of a count or for_each: its key and each.value.
type instKey struct {
	key, value cty.Value
}

// with returns the scope of one instance of a counted or for_each block.
func (s scope) with(k instKey) scope {
	switch {
	case k.key == cty.NilVal:
		return s
	case k.key.Type() == cty.Number:
		return s.bind("count", cty.ObjectVal(map[string]cty.Value{"index": k.key}))
	default:
		return s.bind("each", cty.ObjectVal(map[string]cty.Value{"key": k.key, "value": k.value}))
	}
}

// bind returns a scope where name means v.
func (s scope) bind(name string, v cty.Value) scope {
	extra := make(map[string]cty.Value, len(s.extra)+1)
	maps.Copy(extra, s.extra)
	extra[name] = v
	return scope{in: s.in, extra: extra}
}

// eval evaluates an expression, recording its errors as diagnostics. A failed
// expression is unknown. The value carries no marks.
func (s scope) eval(expr hcl.Expression) cty.Value {
	v, _ := s.evalMarked(expr).UnmarkDeep()
	return v
}

// resourceMark marks the values read from a resource's attributes. pvlint knows
// only what the configuration sets: the attributes the provider computes (id, uid,
// status...) are missing from these objects, so a lookup that fails on a value
// with this mark is unknown, not an error. The mark follows the value through
// locals, outputs and module inputs.
type resourceMark struct{}

// defaultMark marks the value of a root module variable that takes its default:
// terraform validate sees an unknown value there, and a run may give another one
// (-var, a variables file pvlint was not told about), so an error that only this
// value causes is not the module's: the expression is unknown.
type defaultMark struct{}

// lookupErrors are the diagnostics of a step into an attribute or element that a
// value lacks.
var lookupErrors = map[string]bool{
	"Unsupported attribute": true, "Invalid index": true, "Missing map element": true,
	"Attempt to get attribute from null value": true, "Attempt to index null value": true,
}

// valueErrors are the diagnostics that depend on the values of an expression, not
// on its form: with another value of the same type it could succeed.
var valueErrors = map[string]bool{
	"Error in function call": true, "Invalid function argument": true,
	"Null condition": true, "Condition is null": true, "Incorrect condition type": true,
	"Iteration over null value": true, "Splat of null value": true,
	"Invalid template interpolation value": true, "Invalid 'for' condition": true,
}

// assumed reports whether an error of an expression comes only from what pvlint
// does not know as Terraform would: attributes a provider computes, or variable
// defaults.
func assumed(d *hcl.Diagnostic, ctx *hcl.EvalContext) bool {
	switch {
	case d.Summary == "Call to unknown function" && strings.Contains(d.Detail, `"provider::`):
		// A provider-defined function in a .tf.json template (native files have
		// theirs declared unknown before evaluation): its provider computes it.
		return true
	case lookupErrors[d.Summary]:
		return carries(ctx, resourceMark{}) || carries(ctx, defaultMark{})
	case valueErrors[d.Summary]:
		return carries(ctx, defaultMark{})
	}
	return false
}

// evalMarked is eval keeping the marks, for the values other expressions read
// (locals, outputs, module inputs).
func (s scope) evalMarked(expr hcl.Expression) (v cty.Value) {
	defer func() {
		if p := recover(); p != nil {
			s.in.run.diag(s.in.rangeOf(expr.Range()), "internal error evaluating this expression: %v\n%s", p, debug.Stack())
			v = cty.DynamicVal
		}
	}()
	ctx := s.ctx(expr)
	// The bounds count this expression alone: an expression that others read (a
	// local) has been evaluated by now, within bounds of its own.
	b := &s.in.run.bounds
	saved := *b
	*b = exprBounds{}
	var diags hcl.Diagnostics
	if hcljson.IsJSONExpression(expr) {
		v, diags = jsonBounded{expr}.Value(ctx)
	} else {
		v, diags = expr.Value(ctx)
	}
	if b.exceeded == "" && (b.steps > 0 || b.calls > 0) {
		// Without a step or a call, the value is made of literals and of values
		// measured when they were built.
		if why := measure(v); why != "" {
			b.exceed(why, expr.Range())
		}
	}
	if b.exceeded != "" {
		at := b.at
		if at.Filename == "" {
			at = expr.Range() // a function's result: the expression that called it
		}
		s.in.run.diag(s.in.rangeOf(at), "this expression %s, past pvlint's bounds on Terraform evaluation; its value is unknown", b.exceeded)
		*b = saved
		return cty.DynamicVal
	}
	*b = saved
	failed := false
	for _, d := range diags {
		if d.Severity != hcl.DiagError {
			continue
		}
		failed = true
		if assumed(d, ctx) {
			continue
		}
		s.in.run.diags = append(s.in.run.diags, toDiag(s.in.mod.fileOf(nil, d.Subject), d))
	}
	if failed || v == cty.NilVal {
		// Unknown, but still read from what it refers to: Terraform orders the
		// resources by the references, whatever their values.
		return cty.DynamicVal.WithMarks(depMarksOf(ctx))
	}
	return v
}

// depMarksOf collects the depMarks of the values an evaluation context holds.
func depMarksOf(ctx *hcl.EvalContext) cty.ValueMarks {
	if ctx == nil {
		return nil
	}
	var out cty.ValueMarks
	for _, v := range ctx.Variables {
		_, pvms := v.UnmarkDeepWithPaths()
		for _, pvm := range pvms {
			for m := range pvm.Marks {
				if _, ok := m.(depMark); ok {
					if out == nil {
						out = cty.ValueMarks{}
					}
					out[m] = struct{}{}
				}
			}
		}
	}
	return out
}

// carries reports whether an evaluation context holds a value with a mark.
func carries(ctx *hcl.EvalContext, mark any) bool {
	if ctx == nil {
		return false
	}
	for _, v := range ctx.Variables {
		if v.HasMarkDeep(mark) {
			return true
		}
	}
	return false
}

// ctx builds the evaluation context an expression needs: only the names it refers
// to are evaluated.
func (s scope) ctx(expr hcl.Expression) *hcl.EvalContext {
	trs := expr.Variables()
	if len(trs) == 0 {
		return s.in.run.bare
	}
	byRoot := map[string][]hcl.Traversal{}
	for _, t := range trs {
		byRoot[t.RootName()] = append(byRoot[t.RootName()], t)
	}
	vars := make(map[string]cty.Value, len(byRoot))
	in := s.in
	for root, trs := range byRoot {
		if v, ok := s.extra[root]; ok {
			vars[root] = augment(v, rests(trs, 1))
			continue
		}
		switch root {
		case "var":
			vars[root] = namespace(trs, false, func(n string) cty.Value {
				if v, ok := in.vars[n]; ok {
					return v
				}
				return cty.DynamicVal
			})
		case "local":
			vars[root] = namespace(trs, false, in.local)
		case "module":
			vars[root] = namespace(trs, false, in.callValue)
		case "path":
			rel, err := filepath.Rel(in.run.dir.Path, in.mod.dir)
			if err != nil {
				rel = in.mod.dir
			}
			vars[root] = cty.ObjectVal(map[string]cty.Value{
				"module": cty.StringVal(filepath.ToSlash(rel)),
				"root":   cty.StringVal("."),
				"cwd":    cty.StringVal(filepath.ToSlash(cleanAbs(in.run.dir.Path))),
			})
		case "terraform":
			vars[root] = cty.ObjectVal(map[string]cty.Value{"workspace": cty.StringVal("default")})
		case "data", "count", "each", "self", "ephemeral":
			// Data sources are read from the cluster at plan time; count, each and self
			// outside their blocks are errors Terraform reports itself.
			vars[root] = cty.DynamicVal
		default:
			typ := root
			vars[root] = namespace(trs, true, func(n string) cty.Value { return in.resourceValue(typ, n) })
		}
	}
	return &hcl.EvalContext{Variables: vars, Functions: in.run.funcs}
}

// rests drops the first n steps of each traversal.
func rests(trs []hcl.Traversal, n int) []hcl.Traversal {
	out := make([]hcl.Traversal, 0, len(trs))
	for _, t := range trs {
		if len(t) >= n {
			out = append(out, t[n:])
		}
	}
	return out
}

// namespace builds the object for a root name such as var, local, module or a
// resource type, holding only the names the traversals use. For resources
// (computed), an attribute the value lacks is added as unknown.
func namespace(trs []hcl.Traversal, computed bool, get func(string) cty.Value) cty.Value {
	names := map[string][]hcl.Traversal{}
	for _, t := range trs {
		if len(t) < 2 {
			return cty.DynamicVal
		}
		n, ok := stepName(t[1])
		if !ok {
			return cty.DynamicVal
		}
		names[n] = append(names[n], t[2:])
	}
	attrs := make(map[string]cty.Value, len(names))
	for n, rest := range names {
		if computed {
			attrs[n] = augment(get(n), rest)
		} else {
			attrs[n] = get(n)
		}
	}
	return cty.ObjectVal(attrs)
}

func stepName(t hcl.Traverser) (string, bool) {
	switch s := t.(type) {
	case hcl.TraverseAttr:
		return s.Name, true
	case hcl.TraverseIndex:
		if s.Key.Type() == cty.String && s.Key.IsKnown() && !s.Key.IsNull() {
			return s.Key.AsString(), true
		}
	}
	return "", false
}

// augment adds an unknown value wherever a traversal steps into an object attribute
// the value lacks: those are attributes the provider computes, and reading them must
// yield unknown rather than an error.
func augment(v cty.Value, trs []hcl.Traversal) cty.Value {
	if !v.IsKnown() || v.IsNull() || len(trs) == 0 {
		return v
	}
	if v.IsMarked() {
		v, marks := v.Unmark()
		return augment(v, trs).WithMarks(marks)
	}
	ty := v.Type()
	switch {
	case ty.IsObjectType():
		groups := map[string][]hcl.Traversal{}
		for _, t := range trs {
			if len(t) == 0 {
				continue
			}
			if n, ok := stepName(t[0]); ok {
				groups[n] = append(groups[n], t[1:])
			}
		}
		if len(groups) == 0 {
			return v
		}
		attrs := make(map[string]cty.Value, len(ty.AttributeTypes())+len(groups))
		for n := range ty.AttributeTypes() {
			attrs[n] = v.GetAttr(n)
		}
		for n, rest := range groups {
			if cur, ok := attrs[n]; ok {
				attrs[n] = augment(cur, rest)
			} else {
				attrs[n] = cty.DynamicVal
			}
		}
		return cty.ObjectVal(attrs)
	case ty.IsTupleType() || ty.IsListType():
		groups := map[int][]hcl.Traversal{}
		for _, t := range trs {
			if len(t) == 0 {
				continue
			}
			if ix, ok := t[0].(hcl.TraverseIndex); ok && ix.Key.Type() == cty.Number && ix.Key.IsKnown() {
				if i, acc := ix.Key.AsBigFloat().Int64(); acc == big.Exact && i >= 0 && i < int64(v.LengthInt()) {
					groups[int(i)] = append(groups[int(i)], t[1:])
				}
			}
		}
		if len(groups) == 0 {
			return v
		}
		elems := v.AsValueSlice()
		for i, rest := range groups {
			elems[i] = augment(elems[i], rest)
		}
		return cty.TupleVal(elems)
	}
	return v
}

// expand decides the instances of a block with count or for_each. keyed is 0 for a
// single instance, 1 for count and 2 for for_each; known is false when the count or
// collection cannot be known, and then there are no instances: whether and how often
// the block exists is undecided.
func (s scope) expand(count, forEach hcl.Expression) (keys []instKey, keyed int, known bool) {
	r := s.in.run
	max := r.ld.opts.MaxInstances
	switch {
	case count != nil:
		v := s.eval(count)
		if !v.IsKnown() {
			return nil, 1, false
		}
		n, ok := wholeNumber(v)
		if !ok || n < 0 {
			r.diag(s.in.rangeOf(count.Range()), "count must be a whole number of zero or more, not %s", describe(v))
			return nil, 1, true
		}
		if n > int64(max) || !r.spend(int(n), s.in.rangeOf(count.Range())) {
			if n > int64(max) {
				r.diag(s.in.rangeOf(count.Range()), "count is %d, more than the limit of %d instances; the block is not expanded", n, max)
			}
			return nil, 1, true
		}
		for i := range n {
			keys = append(keys, instKey{key: cty.NumberIntVal(i)})
		}
		return keys, 1, true
	case forEach != nil:
		v, marks := s.evalMarked(forEach).UnmarkDeep()
		// The keys decide the instances: a map whose values are unknown still has
		// them (each.value is then unknown), a set needs all of its elements.
		if !v.IsKnown() || v.Type().IsSetType() && !v.IsWhollyKnown() {
			return nil, 2, false
		}
		if v.IsNull() || !(v.Type().IsMapType() || v.Type().IsObjectType() || v.Type().IsSetType() && v.Type().ElementType() == cty.String) {
			r.diag(s.in.rangeOf(forEach.Range()), "for_each must be a map, or a set of strings, not %s", describe(v))
			return nil, 2, true
		}
		n := v.LengthInt()
		if n > max || !r.spend(n, s.in.rangeOf(forEach.Range())) {
			if n > max {
				r.diag(s.in.rangeOf(forEach.Range()), "for_each has %d elements, more than the limit of %d instances; the block is not expanded", n, max)
			}
			return nil, 2, true
		}
		for it := v.ElementIterator(); it.Next(); {
			k, e := it.Element()
			if v.Type().IsSetType() {
				k = e
			}
			// each.value keeps the marks of the collection: an instance of a resource
			// read from another resource may miss its computed attributes too.
			keys = append(keys, instKey{key: k, value: e.WithMarks(marks)})
		}
		return keys, 2, true
	}
	return []instKey{{key: cty.NilVal}}, 0, true
}

// spend takes n instances from the run's budget, reporting once when it runs out.
func (r *run) spend(n int, at graph.Range) bool {
	if r.budget < 0 {
		return false
	}
	r.budget -= n
	if r.budget < 0 {
		r.diag(at, "this configuration expands to more than %d instances; the rest is not expanded", maxRunInstances)
		return false
	}
	return true
}

func wholeNumber(v cty.Value) (int64, bool) {
	if v.IsNull() || v.Type() != cty.Number {
		if v.Type() == cty.String && !v.IsNull() {
			f, ok := new(big.Float).SetString(v.AsString())
			if !ok {
				return 0, false
			}
			v = cty.NumberVal(f)
		} else {
			return 0, false
		}
	}
	n, acc := v.AsBigFloat().Int64()
	return n, acc == big.Exact
}

// describe names a value's type for messages.
func describe(v cty.Value) string {
	if v.IsNull() {
		return "null"
	}
	return v.Type().FriendlyName()
}
