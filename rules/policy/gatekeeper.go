package policy

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// Gatekeeper's API groups: a ConstraintTemplate defines a constraint kind in the
// constraints group; constraints of that kind say where its Rego applies.
const (
	TemplateGroup   = "templates.gatekeeper.sh"
	ConstraintGroup = "constraints.gatekeeper.sh"
	// admissionTarget is the only target Gatekeeper evaluates Kubernetes objects with.
	admissionTarget = "admission.k8s.gatekeeper.sh"
)

// IsGatekeeper reports whether r is a Gatekeeper ConstraintTemplate or constraint.
// They configure the admission controller; they are not workloads to lint.
func IsGatekeeper(r *graph.Resource) bool {
	switch r.Group() {
	case TemplateGroup:
		return r.Kind == "ConstraintTemplate"
	case ConstraintGroup:
		return true
	}
	return false
}

// GatekeeperOptions configure how Gatekeeper constraints are compiled and evaluated.
type GatekeeperOptions struct {
	// Budget bounds one constraint's evaluation over one graph (DefaultBudget when
	// zero), as for a custom policy: past it, the constraint records an *EvalError
	// with At set to its template.
	Budget time.Duration
	// Isolate evaluates templates in another process, as Options.Isolate does a
	// user's policies; nil evaluates them in this one.
	Isolate Isolate
	// Context are resources that are never linted but join data.inventory beside
	// every graph's own (a cluster snapshot, a test case's inventory). A graph's own
	// resource wins over a context resource of the same key.
	Context []*graph.Resource
}

// GatekeeperProblem is a template or constraint pvlint cannot evaluate: a template
// whose Rego does not compile (a forbidden builtin, a syntax error), a constraint
// without a template, or a template pvlint does not support (CEL only). The CLI
// reports each as a PVL000 finding at Range.
type GatekeeperProblem struct {
	graph.Diagnostic
	// Unsupported is set for a template whose only code is an engine pvlint does not
	// run (CEL); it is a warning rather than an error, since the template is valid.
	Unsupported bool
}

// Gatekeeper compiles the ConstraintTemplates among objects (other resources are
// ignored) and returns one rule per constraint whose template compiled, in ID order.
// A rule's ID is the constraint's Kind/name (K8sRequiredLabels/must-have-owner), its
// Policy the template's file; its Check evaluates the template's violation rule on
// every resource of the graph the constraint's match selects, as Gatekeeper's audit
// would. Each template is compiled once, with its libs, in a compiler of its own.
// The first definition of a template kind or constraint wins: duplicates are the
// duplicate-resource rule's business.
func Gatekeeper(objects []*graph.Resource, opts GatekeeperOptions) ([]*lint.Rule, []GatekeeperProblem) {
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	inv := &inventorySet{resources: opts.Context}
	var problems []GatekeeperProblem
	fail := func(at graph.Range, unsupported bool, format string, args ...any) {
		problems = append(problems, GatekeeperProblem{Diagnostic: graph.Diagnostic{Range: at, Message: fmt.Sprintf(format, args...)}, Unsupported: unsupported})
	}
	templates := map[string]*template{} // by constraint kind; nil when it failed
	for _, r := range objects {
		if r.Kind != "ConstraintTemplate" || r.Group() != TemplateGroup {
			continue
		}
		kind := r.Get("spec", "crd", "spec", "names", "kind").Str()
		if kind == "" {
			fail(r.Locate("spec", "crd", "spec", "names", "kind"), false, "ConstraintTemplate %s sets no spec.crd.spec.names.kind: it defines no constraint kind", r.Name)
			continue
		}
		if _, seen := templates[kind]; seen {
			continue
		}
		t, err := compileTemplate(r, kind)
		templates[kind] = t
		var ce *CompileError
		var un *unsupportedError
		switch {
		case errors.As(err, &un):
			templates[kind] = nil
			fail(r.Locate("metadata", "name"), true, "ConstraintTemplate %s: %s", r.Name, un.msg)
		case errors.As(err, &ce):
			templates[kind] = nil
			for _, p := range ce.Problems {
				fail(rangeOf(r, p), false, "ConstraintTemplate %s: %s", r.Name, p.Msg)
			}
		case err != nil:
			templates[kind] = nil
			fail(r.Locate("metadata", "name"), false, "ConstraintTemplate %s: %v", r.Name, err)
		}
	}
	var out []*lint.Rule
	seen := map[string]bool{}
	for _, r := range objects {
		if r.Group() != ConstraintGroup || r.Kind == "" {
			continue
		}
		id := r.Kind + "/" + r.Name
		if seen[id] {
			continue
		}
		seen[id] = true
		t, ok := templates[r.Kind]
		if !ok {
			fail(r.Locate("kind"), false, "constraint %s: no ConstraintTemplate defines kind %s in the inputs or the --policy paths", id, r.Kind)
			continue
		}
		if t == nil {
			continue // the template's problem is reported once, at the template
		}
		c, err := newConstraint(t, r, opts, inv)
		if err != nil {
			fail(err.at, false, "constraint %s: %s", id, err.msg)
			continue
		}
		out = append(out, c.rule())
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, problems
}

// template is one compiled ConstraintTemplate.
type template struct {
	res   *graph.Resource
	kind  string
	query rego.PreparedEvalQuery
	// batch is the template's Rego as another process compiles it (Isolate), and
	// readsInv whether it may read data.inventory.
	batch    Batch
	readsInv bool
}

// unsupportedError is a template with no code pvlint can run.
type unsupportedError struct{ msg string }

func (e *unsupportedError) Error() string { return e.msg }

// regoSource is a template's Rego: its main module, its libs, and the Rego version
// it is written in, each with the node it came from for positions.
type regoSource struct {
	rego    *graph.Node
	libs    []*graph.Node
	version string
}

// templateSource finds the admission target's Rego: spec.targets[].rego and libs, or
// a code entry of engine Rego (source.rego, source.libs, source.version). Gatekeeper
// runs every engine a template carries; pvlint runs the Rego one, and a template whose
// only code is another engine (K8sNativeValidation, CEL) is unsupported.
func templateSource(r *graph.Resource) (regoSource, error) {
	var engines []string
	for _, t := range r.Get("spec", "targets").List() {
		if tgt := t.Get("target").Str(); tgt != "" && tgt != admissionTarget {
			continue
		}
		if n := t.Get("rego"); n.IsString() && strings.TrimSpace(n.Str()) != "" {
			return regoSource{rego: n, libs: t.Get("libs").List()}, nil
		}
		for _, c := range t.Get("code").List() {
			engine := c.Get("engine").Str()
			src := c.Get("source")
			if engine == "Rego" && src.Get("rego").IsString() {
				return regoSource{rego: src.Get("rego"), libs: src.Get("libs").List(), version: src.Get("version").Str()}, nil
			}
			if engine != "" {
				engines = append(engines, engine)
			}
		}
	}
	if len(engines) > 0 {
		return regoSource{}, &unsupportedError{fmt.Sprintf("its only code is %s (CEL), which pvlint does not evaluate; its constraints are not checked (add a Rego version of the template to check them)", strings.Join(engines, ", "))}
	}
	return regoSource{}, &unsupportedError{"no Rego for target " + admissionTarget + " in spec.targets; its constraints are not checked"}
}

// compileTemplate parses and compiles a template's Rego and libs together, against
// the same capabilities as custom policies (no network, no process environment),
// and prepares its query: the violation set of the template's package.
func compileTemplate(r *graph.Resource, kind string) (*template, error) {
	src, err := templateSource(r)
	if err != nil {
		return nil, err
	}
	caps := capabilities()
	v := ast.RegoV0 // Gatekeeper's default; source.version: v1 opts into Rego v1
	if src.version == "v1" {
		v = ast.RegoV1
	}
	mods := map[string]*ast.Module{}
	bad := &CompileError{}
	batch := Batch{Template: true, Version: src.version}
	parseOne := func(name string, n *graph.Node) *ast.Module {
		if !n.IsString() {
			bad.Problems = append(bad.Problems, Problem{File: name, Msg: "not a string of Rego"})
			return nil
		}
		batch.Modules = append(batch.Modules, Module{Name: name, Source: n.Str()})
		m, err := ast.ParseModuleWithOpts(name, n.Str(), ast.ParserOptions{RegoVersion: v, Capabilities: caps})
		if err != nil {
			bad.Problems = append(bad.Problems, compileError(name, err).Problems...)
			return nil
		}
		mods[name] = m
		return m
	}
	main := parseOne("rego", src.rego)
	for i, l := range src.libs {
		parseOne(fmt.Sprintf("libs/%d", i), l)
	}
	if len(bad.Problems) > 0 {
		return nil, bad
	}
	compiler := ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false)
	if compiler.Compile(mods); compiler.Failed() {
		return nil, compileError("rego", compiler.Errors)
	}
	pkg := main.Package.Path.String()
	hasViolation := false
	for _, rule := range main.Rules {
		if n, ok := rule.Head.Ref()[0].Value.(ast.Var); ok && n == "violation" {
			hasViolation = true
		}
	}
	if !hasViolation {
		return nil, problemAt(main.Package.Location, "rego", "package %s has no violation rule: Gatekeeper reports violation[{\"msg\": ...}]", strings.TrimPrefix(pkg, "data."))
	}
	batch.Query = fmt.Sprintf("violation := [x | x := %s.violation[_]]", pkg)
	q, err := rego.New(
		rego.Compiler(compiler),
		rego.Capabilities(caps),
		rego.Store(newDocuments()),
		rego.Query(batch.Query),
	).PrepareForEval(context.Background())
	if err != nil {
		return nil, problemAt(main.Package.Location, "rego", "prepare: %v", err)
	}
	return &template{res: r, kind: kind, query: q, batch: batch, readsInv: readsInventory(mods)}, nil
}

// rangeOf maps a problem in a template's Rego (module "rego" or "libs/N", line and
// column within the string) to where it is in the template's file. A literal block
// scalar (rego: |) maps line for line, the block's indentation added to the column;
// any other string (quoted, with escapes) is reported at its start.
func rangeOf(r *graph.Resource, p Problem) graph.Range {
	src, err := templateSource(r)
	if err != nil {
		return r.Locate("metadata", "name")
	}
	n := src.rego
	if idx, ok := strings.CutPrefix(p.File, "libs/"); ok {
		for i, l := range src.libs {
			if fmt.Sprint(i) == idx {
				n = l
			}
		}
	}
	rg := n.Range
	if !rg.IsValid() || p.Line == 0 {
		return rg
	}
	text := strings.TrimRight(n.Str(), "\n")
	lines := strings.Split(text, "\n")
	if int(rg.End.Line-rg.Start.Line) != len(lines) || p.Line > len(lines) {
		return rg
	}
	last := lines[len(lines)-1]
	indent := int(rg.End.Column) - 1 - utf8.RuneCountInString(last)
	if indent < 0 {
		return rg
	}
	col := max(p.Column, 1)
	at := graph.NewPos(int(rg.Start.Line)+p.Line, indent+col, 0)
	return graph.Range{File: rg.File, Start: at, End: at}
}

// matchError is a constraint whose spec pvlint cannot read.
type matchError struct {
	at  graph.Range
	msg string
}

// constraint is one constraint resource bound to its compiled template.
type constraint struct {
	t      *template
	res    *graph.Resource
	id     string
	sev    lint.Severity
	params ast.Value
	match  matcher
	runner
	self *lint.Rule
}

// levels maps a constraint's enforcementAction to a finding level.
var levels = map[string]lint.Severity{"deny": lint.Error, "warn": lint.Warning, "dryrun": lint.Note}

func newConstraint(t *template, r *graph.Resource, opts GatekeeperOptions, inv *inventorySet) (*constraint, *matchError) {
	c := &constraint{t: t, res: r, id: r.Kind + "/" + r.Name,
		runner: runner{query: t.query, budget: opts.Budget, inv: inv}}
	if opts.Isolate != nil {
		c.isolate, c.batch, c.readsInv = opts.Isolate, t.batch, t.readsInv
	}
	action := r.Get("spec", "enforcementAction")
	switch a := action.Str(); {
	case action == nil || a == "":
		c.sev = lint.Error // Gatekeeper's default is deny
	case a == "scoped":
		// Per enforcement point: the audit's (or every point's, "*") actions apply;
		// the strictest one is the level.
		for _, s := range r.Get("spec", "scopedEnforcementActions").List() {
			points := s.Get("enforcementPoints").List()
			applies := len(points) == 0
			for _, p := range points {
				if n := p.Get("name").Str(); n == "*" || n == "audit.gatekeeper.sh" {
					applies = true
				}
			}
			if sev, ok := levels[strings.ToLower(s.Get("action").Str())]; ok && applies {
				c.sev = max(c.sev, sev)
			}
		}
		if c.sev == lint.SeverityNone {
			return nil, &matchError{action.Range, "scoped enforcement names no deny, warn or dryrun action for the audit"}
		}
	default:
		sev, ok := levels[strings.ToLower(a)]
		if !ok {
			return nil, &matchError{action.Range, fmt.Sprintf("enforcementAction %q is none of deny, warn, dryrun, scoped", a)}
		}
		c.sev = sev
	}
	c.params = ast.NewObject()
	if p := r.Get("spec", "parameters"); p != nil {
		c.params = value(p)
	}
	m, err := newMatcher(r.Get("spec", "match"))
	if err != nil {
		return nil, err
	}
	c.match = m
	return c, nil
}

// rule is the catalogue entry of the constraint.
func (c *constraint) rule() *lint.Rule {
	t := c.t.res
	title, _ := t.Annotation("metadata.gatekeeper.sh/title")
	desc, _ := t.Annotation("description")
	summary := title.Str()
	if summary == "" {
		summary = "Gatekeeper constraint " + c.id
	}
	r := &lint.Rule{
		ID:          c.id,
		Name:        strings.ToLower(c.res.Kind) + "-" + c.res.Name,
		Severity:    c.sev,
		Summary:     summary,
		Description: strings.TrimSpace(desc.Str()),
		Tags:        []string{"gatekeeper"},
		Check:       c.check,
		Policy:      t.Origin.File,
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n%s\n", r.ID, r.Name, summary)
	if r.Description != "" {
		fmt.Fprintf(&b, "\n%s\n", r.Description)
	}
	fmt.Fprintf(&b, "\nGatekeeper constraint %s of kind %s (%s), defined by ConstraintTemplate %s (%s). "+
		"pvlint evaluates the template's Rego on every linted resource the constraint's spec.match selects, as Gatekeeper's audit would; "+
		"its enforcementAction sets the level (deny: error, warn: warning, dryrun: note).\n",
		c.res.Name, c.res.Kind, c.res.Range, t.Name, t.Range)
	r.Doc = b.String()
	c.self = r
	return r
}

// check evaluates the template on every resource the constraint matches, within the
// constraint's time budget.
func (c *constraint) check(pass *lint.Pass) {
	g := pass.Graph
	var rs []*graph.Resource
	for _, r := range g.Resources {
		// Context resources (a cluster snapshot, a platform's classes) are what the
		// cluster already holds: never reviewed, only looked up in data.inventory.
		if r.Kind != "" && !r.IsContext() && !IsGatekeeper(r) && c.match.matches(r, g, c.inv) {
			rs = append(rs, r)
		}
	}
	fail := func(r *graph.Resource) *EvalError {
		return &EvalError{Rule: c.self, File: c.self.Policy, At: c.t.res.Locate("metadata", "name"), Resource: r.String()}
	}
	emit := func(r *graph.Resource, b map[string]any) error {
		vs, _ := b["violation"].([]any)
		for _, v := range vs {
			res, err := decode(v)
			if err != nil {
				return fmt.Errorf("violation: %w", err)
			}
			pass.Emit(lint.Finding{Severity: c.sev, Message: res.Msg, Resource: r, Range: locate(r, nil), Key: digits.ReplaceAllString(res.Msg, "#")})
		}
		return nil
	}
	c.run(pass, rs, c.input, emit, fail)
}

// input is what Gatekeeper's audit gives a template: input.review (the object, its
// group/version/kind, name, namespace and operation CREATE) and input.parameters.
func (c *constraint) input(w *world, r *graph.Resource) ast.Value {
	group, version := r.Group(), r.APIVersion
	if i := strings.IndexByte(version, '/'); i >= 0 {
		version = version[i+1:]
	}
	ns := r.Namespace
	if graph.IsClusterScoped(r.Kind) {
		ns = ""
	}
	review := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("object"), ast.NewTerm(w.input(r))},
		[2]*ast.Term{ast.StringTerm("kind"), ast.ObjectTerm(
			[2]*ast.Term{ast.StringTerm("group"), ast.StringTerm(group)},
			[2]*ast.Term{ast.StringTerm("version"), ast.StringTerm(version)},
			[2]*ast.Term{ast.StringTerm("kind"), ast.StringTerm(r.Kind)},
		)},
		[2]*ast.Term{ast.StringTerm("name"), ast.StringTerm(r.Name)},
		[2]*ast.Term{ast.StringTerm("operation"), ast.StringTerm("CREATE")},
	)
	if ns != "" {
		review.Insert(ast.StringTerm("namespace"), ast.StringTerm(ns))
	}
	return ast.NewObject(
		[2]*ast.Term{ast.StringTerm("review"), ast.NewTerm(review)},
		[2]*ast.Term{ast.StringTerm("parameters"), ast.NewTerm(c.params)},
	)
}
