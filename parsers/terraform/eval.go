package terraform

import (
	"fmt"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// run evaluates one root module and the local modules it calls. Everything is
// evaluated lazily and at most once (locals, resources, module calls, outputs), so a
// reference pulls in exactly what it needs, in the order Terraform's graph would.
type run struct {
	ld     *loader
	dir    Dir
	mod    *module
	funcs  map[string]function.Function
	known  map[string]bool  // Terraform's function names
	bare   *hcl.EvalContext // functions only, for expressions without references
	diags  []graph.Diagnostic
	out    []*graph.Resource
	budget int // instances this run may still create
	calls  map[*callDecl]*module
	reads  []fileData // files read through file(), templatefile() and variable files
	used   []*module  // the modules calls resolved to, in the order first resolved
	// bounds is the state of the expression being evaluated against the bounds of
	// bounds.go; its functions and contexts find it through funcs.
	bounds exprBounds
}

func newRun(ld *loader, d Dir, m *module) *run {
	return &run{ld: ld, dir: d, mod: m, budget: maxRunInstances, calls: map[*callDecl]*module{}}
}

// evaluate produces the resources of the root module and its local modules.
func (r *run) evaluate() {
	defer func() {
		if p := recover(); p != nil {
			r.diags = append(r.diags, graph.Diagnostic{
				Range:   graph.Range{File: r.ld.display(r.dir.Path), Start: graph.Pos{Line: 1, Column: 1}},
				Message: fmt.Sprintf("internal error evaluating this Terraform module: %v\n%s", p, debug.Stack()),
			})
		}
	}()
	r.funcs = r.functions(r.mod)
	boundFuncs(r.funcs, &r.bounds)
	defer registerBounds(r.funcs, &r.bounds)()
	r.bare = &hcl.EvalContext{Functions: r.funcs}
	in := newInstance(r, r.mod, "", nil, 0)
	in.vars = r.rootVars(r.mod)
	in.collect()
}

func (r *run) diag(rg graph.Range, format string, args ...any) {
	r.diags = append(r.diags, graph.Diagnostic{Range: rg, Message: fmt.Sprintf(format, args...)})
}

// instance is one instantiation of a module: the root, or one call (one per count
// index or for_each key) with its own input variables.
type instance struct {
	run    *run
	mod    *module
	addr   string           // address prefix: "" or module.a or module.a["x"].module.b
	calls  []graph.Location // module call sites, innermost first
	depth  int
	parent *instance // the calling instance; nil for the root
	vars   map[string]cty.Value
	// deps are the addresses every resource of the instance depends on: the
	// depends_on of the module calls that lead to it.
	deps []string

	locals map[string]*slot
	res    map[*resDecl]*resSlot
	// foreign holds the values of other providers' resources (cty.NilVal while
	// one is being decided).
	foreign map[*resDecl]cty.Value
	kids    map[string]*callSlot
	outs    map[string]*slot
}

func newInstance(r *run, m *module, addr string, calls []graph.Location, depth int) *instance {
	return &instance{run: r, mod: m, addr: addr, calls: calls, depth: depth,
		locals: map[string]*slot{}, res: map[*resDecl]*resSlot{}, foreign: map[*resDecl]cty.Value{},
		kids: map[string]*callSlot{}, outs: map[string]*slot{}}
}

// slot memoises one lazily evaluated value; busy detects reference cycles.
type slot struct {
	busy, done bool
	val        cty.Value
}

// resInst is one instance of a resource block, in Terraform's shape.
type resInst struct {
	key    cty.Value // cty.NilVal without count or for_each
	each   cty.Value // each.value of a for_each instance
	addr   string
	tf     *graph.Node
	blocks map[*graph.Node]bool // list nodes that came from nested blocks
	deps   *depCollector        // the dependencies and references of its arguments
}

type resSlot struct {
	busy, done bool
	known      bool // whether count/for_each could be decided
	insts      []*resInst
	keyed      int // 0 single, 1 count, 2 for_each
	val        cty.Value
	valDone    bool
}

type callSlot struct {
	busy, done bool
	kids       []*instance
	keys       []cty.Value
	keyed      int
	val        cty.Value
	valDone    bool
}

// collect emits the resources of this instance and of the local modules it calls.
func (in *instance) collect() {
	for _, d := range in.mod.resources {
		if !emitted(d.typ) {
			// Only the count or for_each of another provider's resource is
			// evaluated, as terraform validate does, so that its errors and cycles
			// are reported even when nothing refers to it.
			if !strings.HasPrefix(d.typ, "kubernetes_") && (d.count != nil || d.forEach != nil) && in.mod.byAddr[d.typ+"."+d.name] == d {
				in.foreignValue(d)
			}
			continue
		}
		for _, ri := range in.resource(d).insts {
			in.emit(d, ri)
		}
	}
	for _, c := range in.mod.calls {
		for _, kid := range in.call(c).kids {
			kid.collect()
		}
	}
}

// local returns the value of local.name.
func (in *instance) local(name string) cty.Value {
	a := in.mod.locals[name]
	if a == nil {
		return cty.DynamicVal
	}
	s := in.locals[name]
	if s == nil {
		s = &slot{}
		in.locals[name] = s
	}
	if s.done {
		return s.val
	}
	if s.busy {
		in.run.diag(in.rangeOf(a.Expr.Range()), "local.%s refers to itself through a cycle", name)
		return cty.DynamicVal
	}
	s.busy = true
	s.val = scope{in: in}.evalMarked(a.Expr)
	s.busy, s.done = false, true
	return s.val
}

// resource evaluates every instance of a resource block.
func (in *instance) resource(d *resDecl) *resSlot {
	key := d.typ + "." + d.name
	s := in.res[d]
	if s != nil {
		if s.busy && !s.done {
			in.run.diag(in.rangeOf(d.block.DefRange), "%s refers to itself through a cycle", in.addr+key)
			return &resSlot{done: true, val: cty.DynamicVal, valDone: true}
		}
		return s
	}
	s = &resSlot{busy: true}
	in.res[d] = s
	sc := scope{in: in}
	keys, keyed, known := sc.expand(d.count, d.forEach)
	s.keyed, s.known = keyed, known
	for _, k := range keys {
		inst := sc.with(k)
		dc := newDepCollector()
		tf, blocks := inst.body(d.body, shapeOf(d.typ), true, d.file, dc)
		for _, a := range dependsOn(d.dependsOn, in.addr) {
			dc.deps[a] = true
		}
		s.insts = append(s.insts, &resInst{key: k.key, each: k.value, addr: in.addr + key + keySuffix(k.key), tf: tf, blocks: blocks, deps: dc})
	}
	s.busy, s.done = false, true
	return s
}

// resourceValue is what type.name evaluates to in an expression. For the
// Kubernetes provider's resources it is the object of the configuration (a tuple
// with count, an object by key with for_each), marked as read from a resource:
// attributes the configuration does not set are computed by the provider, and read
// as unknown. Resources of other providers are unknown as a whole: pvlint has no
// schema for them, and every attribute Terraform would show is the provider's.
func (in *instance) resourceValue(typ, name string) cty.Value {
	d := in.mod.byAddr[typ+"."+name]
	if d == nil {
		return cty.DynamicVal
	}
	if !strings.HasPrefix(typ, "kubernetes_") {
		return in.foreignValue(d)
	}
	s := in.resource(d)
	if s.valDone {
		return s.val
	}
	s.valDone = true
	switch {
	case !s.known:
		s.val = cty.DynamicVal
	case s.keyed == 0:
		s.val = cty.DynamicVal
		if len(s.insts) == 1 {
			s.val = toCty(s.insts[0].tf)
		}
	case s.keyed == 1:
		vals := make([]cty.Value, len(s.insts))
		for i, ri := range s.insts {
			vals[i] = toCty(ri.tf).Mark(depMark{ri.addr})
		}
		s.val = cty.TupleVal(vals)
	default:
		m := make(map[string]cty.Value, len(s.insts))
		for _, ri := range s.insts {
			m[ri.key.AsString()] = toCty(ri.tf).Mark(depMark{ri.addr})
		}
		s.val = cty.ObjectVal(m)
	}
	s.val = s.val.WithMarks(cty.NewValueMarks(resourceMark{}, depMark{in.addr + typ + "." + name}))
	return s.val
}

// foreignValue is what a resource of another provider evaluates to: its instances
// are known when its count or for_each is (so length() of it, or a for_each over it,
// is known), and each instance is unknown. Its body is never evaluated.
func (in *instance) foreignValue(d *resDecl) cty.Value {
	if v, ok := in.foreign[d]; ok {
		if v == cty.NilVal {
			in.run.diag(in.rangeOf(d.block.DefRange), "%s%s.%s refers to itself through a cycle", in.addr, d.typ, d.name)
			in.foreign[d] = cty.DynamicVal
			return cty.DynamicVal
		}
		return v
	}
	in.foreign[d] = cty.NilVal
	v := cty.DynamicVal
	max := in.run.ld.opts.MaxInstances
	switch {
	case d.count != nil:
		c := scope{in: in}.eval(d.count)
		if !c.IsKnown() {
			break
		}
		if n, ok := wholeNumber(c); ok && n >= 0 && n <= int64(max) {
			elems := make([]cty.Value, n)
			for i := range elems {
				elems[i] = cty.DynamicVal
			}
			v = cty.TupleVal(elems).Mark(resourceMark{})
		}
	case d.forEach != nil:
		c := scope{in: in}.eval(d.forEach)
		ty := c.Type()
		keysKnown := c.IsKnown() && !c.IsNull() && (ty.IsMapType() || ty.IsObjectType() || ty.IsSetType() && ty.ElementType() == cty.String && c.IsWhollyKnown())
		if keysKnown && c.LengthInt() <= max {
			attrs := make(map[string]cty.Value, c.LengthInt())
			for it := c.ElementIterator(); it.Next(); {
				k, e := it.Element()
				if ty.IsSetType() {
					k = e
				}
				attrs[k.AsString()] = cty.DynamicVal
			}
			v = cty.ObjectVal(attrs).Mark(resourceMark{})
		}
	}
	if in.foreign[d] == cty.NilVal {
		in.foreign[d] = v
	}
	return in.foreign[d]
}

// call evaluates a module call: its instances, each with the inputs evaluated in this
// module. Remote sources are never fetched: their outputs are unknown.
func (in *instance) call(c *callDecl) *callSlot {
	s := in.kids[c.name]
	if s != nil {
		if s.busy && !s.done {
			in.run.diag(in.rangeOf(c.block.DefRange), "module.%s refers to itself through a cycle", c.name)
			return &callSlot{done: true, val: cty.DynamicVal, valDone: true}
		}
		return s
	}
	s = &callSlot{busy: true}
	in.kids[c.name] = s
	defer func() { s.busy, s.done = false, true }()
	m := in.run.resolve(in, c)
	if m == nil {
		return s
	}
	for up := in; up != nil; up = up.parent {
		if up.mod == m {
			in.run.diag(in.rangeOf(c.srcRng), "module.%s calls a module that is already being evaluated: a cycle; not read", c.name)
			return s
		}
	}
	if max := in.run.ld.opts.MaxModuleDepth; in.depth >= max {
		in.run.diag(in.rangeOf(c.srcRng), "modules nest deeper than %d levels; module.%s is not read", max, c.name)
		return s
	}
	sc := scope{in: in}
	keys, keyed, known := sc.expand(c.count, c.forEach)
	if !known || keyed == 0 && !in.run.spend(1, in.rangeOf(c.block.DefRange)) {
		return s
	}
	s.keyed = keyed
	site := graph.Location{Range: in.rangeOf(c.block.DefRange), Message: "module." + c.name + " is called here"}
	for _, k := range keys {
		addr := in.addr + "module." + c.name + keySuffix(k.key)
		kid := newInstance(in.run, m, addr+".", append([]graph.Location{site}, in.calls...), in.depth+1)
		kid.parent = in
		kid.deps = append(slices.Clip(in.deps), dependsOn(c.dependsOn, in.addr)...)
		kid.vars = sc.with(k).childVars(c, m)
		s.kids = append(s.kids, kid)
		s.keys = append(s.keys, k.key)
	}
	return s
}

// resolve finds the module a call's local source names, once per run: nil for
// remote sources (never fetched) and for sources that cannot be read, which are
// reported.
func (r *run) resolve(in *instance, c *callDecl) *module {
	if m, ok := r.calls[c]; ok {
		return m
	}
	r.calls[c] = nil
	rel, local := localSource(c.source)
	if !local {
		return nil
	}
	dir := filepath.Join(in.mod.dir, rel)
	if _, ok := inside(r.dir.Root, dir); !ok {
		// Not read, and not an error: the call's outputs are unknown, as for a
		// registry module. Never silent: a note says so at the source.
		rg := in.rangeOf(c.srcRng)
		r.diags = append(r.diags, graph.Diagnostic{Range: rg, Note: true, Message: fmt.Sprintf(
			"module source %q leads outside the linted root (%s): pvlint does not read it, so the resources of module.%s are not linted (lint from a directory that holds both)",
			c.source, r.ld.display(r.dir.Root), c.name)})
		return nil
	}
	if !isDir(dir) {
		r.diag(in.rangeOf(c.srcRng), "module source %q is not a directory", c.source)
		return nil
	}
	m := r.ld.module(dir, r.dir.Root)
	r.unknownNames(m, r.funcs)
	r.calls[c] = m
	if !slices.Contains(r.used, m) {
		r.used = append(r.used, m)
	}
	return m
}

// callValue is what module.name evaluates to: an object of the call's outputs.
func (in *instance) callValue(name string) cty.Value {
	c := in.mod.callByKey[name]
	if c == nil {
		return cty.DynamicVal
	}
	s := in.call(c)
	if s.valDone {
		return s.val
	}
	s.valDone = true
	if !s.done || (len(s.kids) == 0 && s.keyed == 0) {
		s.val = cty.DynamicVal
		return s.val
	}
	objs := make([]cty.Value, len(s.kids))
	for i, kid := range s.kids {
		objs[i] = kid.outputsValue()
	}
	switch s.keyed {
	case 0:
		s.val = objs[0]
	case 1:
		s.val = cty.TupleVal(objs)
	default:
		m := make(map[string]cty.Value, len(objs))
		for i, k := range s.keys {
			m[k.AsString()] = objs[i]
		}
		s.val = cty.ObjectVal(m)
	}
	return s.val
}

// outputsValue evaluates every output of a module instance into one object.
func (in *instance) outputsValue() cty.Value {
	m := make(map[string]cty.Value, len(in.mod.outputs))
	for name, a := range in.mod.outputs {
		s := in.outs[name]
		if s == nil {
			s = &slot{}
			in.outs[name] = s
		}
		if !s.done {
			if s.busy {
				m[name] = cty.DynamicVal
				continue
			}
			s.busy = true
			s.val = scope{in: in}.evalMarked(a.Expr)
			s.busy, s.done = false, true
		}
		m[name] = s.val
	}
	return cty.ObjectVal(m)
}

// rangeOf converts an HCL range of this module's files.
func (in *instance) rangeOf(r hcl.Range) graph.Range {
	return convRange(in.mod.files[r.Filename], r)
}

// keySuffix renders an instance key as Terraform prints it in addresses.
func keySuffix(k cty.Value) string {
	if k == cty.NilVal || k.IsNull() || !k.IsKnown() {
		return ""
	}
	if k.Type() == cty.Number {
		return "[" + k.AsBigFloat().Text('f', -1) + "]"
	}
	return fmt.Sprintf("[%q]", k.AsString())
}
