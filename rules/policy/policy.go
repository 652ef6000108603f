// Package policy turns Rego policies into pvlint rules: pvlint's own (embedded,
// Builtin) and users' (--policy, Options.Custom), through the same Compile.
//
// A policy is a Rego package with output rules; its `# METADATA` block is the one
// place its rule metadata lives (title, description, custom: id, name, severity,
// remediation, kinds, tags). Compile parses the modules (users' in Rego v1 or v0),
// checks them against capabilities without network builtins, prepares one query per
// policy and returns a *lint.Rule per policy whose Check evaluates that prepared query
// on every resource of the kinds the policy declares. Test runs a policy directory's
// Rego tests under the same conditions.
//
// What a policy sees (documented for users in rules/docs/policies):
//   - input: one resource as a Kubernetes-shaped object (graph.Node.Interface()).
//   - data.inventory: the whole graph in Gatekeeper's layout,
//     data.inventory.namespace[ns][apiVersion][kind][name] and
//     data.inventory.cluster[apiVersion][kind][name], built once per graph and only if
//     a policy reads it.
//   - data.pvlint.provisioners[name]: the run's provisioner table ({backend, topology,
//     csi, in_tree, csi_name}), so policies share the Go rules' one source of backend
//     knowledge.
//   - data.pvlint.classes[name]: what the graph derives for each StorageClass
//     ({provisioner, backend, topology, local_path, config}: graph.Graph.ClassBackend
//     and PlacementOf), so policies read the Go rules' verdict rather than re-derive it.
//   - data.pvlint.resource: where input came from (format, file, document, variant,
//     address, source), its effective namespace, and the paths of unknown values.
//
// What a policy reports: the rules deny and violation (errors) and warn (warnings),
// and Conftest's deny_<name>, violation_<name>, warn_<name>, each a set of results. A
// result is a message string or an object {msg, path, severity, related}; see Result
// for the fields.
package policy

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"

	"regexp"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
)

// Module is one Rego source file.
type Module struct {
	// Name is the file name shown in errors and used by OPA for locations.
	Name string
	// Source is the Rego text.
	Source string
}

// Options configure how policies are compiled and evaluated.
type Options struct {
	// Budget bounds one policy's evaluation over one graph; DefaultBudget when zero.
	// A policy that runs out of time records an *EvalError (lint.Pass.Fail) and keeps
	// the findings it already made.
	Budget time.Duration
	// Doc returns the explain page for a rule ID. When it is nil or returns "", the
	// page is built from the METADATA block.
	Doc func(id string) string
	// Custom compiles a user's policies (--policy) rather than pvlint's own: Rego v0
	// modules are accepted next to v1, METADATA is optional (a policy without custom.id
	// is CustomIDPrefix + its package), IDs starting with PVL and a digit are refused,
	// so are the packages pvlint's documents live in (pvlint, inventory), and each
	// rule's Policy field names the file that declares it.
	Custom bool
	// Isolate, for a user's policies, evaluates them in another process (see
	// Isolate); nil evaluates them in this one. pvlint's own policies always run in
	// this process.
	Isolate Isolate
}

// DefaultBudget is the time one policy may spend on one graph. It is generous for
// real inputs (pvlint's policies take microseconds per resource) and stops a policy
// that loops over a huge inventory from hanging a CI job.
const DefaultBudget = 10 * time.Second

// Output rules are the rules of a package whose results become findings: deny and
// violation (errors) and warn (warnings), and Conftest's deny_<name>,
// violation_<name> and warn_<name> (the same patterns Conftest matches).
var (
	errorRule   = regexp.MustCompile(`^(deny|violation)(_[a-zA-Z0-9]+)*$`)
	warningRule = regexp.MustCompile(`^warn(_[a-zA-Z0-9]+)*$`)
)

// outputSeverity is the default level of an output rule; ok is false for other rules.
func outputSeverity(name string) (sev lint.Severity, ok bool) {
	switch {
	case errorRule.MatchString(name):
		return lint.Error, true
	case warningRule.MatchString(name):
		return lint.Warning, true
	}
	return lint.SeverityNone, false
}

// reservedPackages hold pvlint's documents (data.pvlint.resource, data.inventory); a
// user's package there would hide them.
var reservedPackages = []string{"pvlint", "inventory"}

// Compile parses and compiles modules together and prepares one query per policy.
// A package that defines an output rule is a policy; other packages are helper
// libraries. pvlint's own policies must carry METADATA with custom.id and
// custom.name; see Options.Custom for a user's. Policies that call network builtins
// (http.send, net.lookup_ip_addr), opa.runtime or the JSON-schema builtins
// (json.verify_schema, json.match_schema, whose $ref opens files) do not compile. Every error is a
// *CompileError naming the file and line. Rules are returned in ID order.
func Compile(modules []Module, opts Options) ([]*lint.Rule, error) {
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	caps := capabilities()
	parsed, order, err := parseAll(modules, caps, opts.Custom)
	if err != nil {
		return nil, err
	}
	compiler := ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false)
	if compiler.Compile(parsed); compiler.Failed() {
		return nil, compileError("", compiler.Errors)
	}

	pols, err := policies(order, parsed, opts.Custom)
	if err != nil {
		return nil, err
	}
	isolate := opts.Isolate
	if !opts.Custom {
		isolate = nil // pvlint's own policies are trusted code
	}
	readsInv := isolate != nil && readsInventory(parsed)
	ids := map[string]string{}
	names := map[string]string{}
	var out []*lint.Rule
	for _, p := range pols {
		key := strings.ToUpper(p.meta.id)
		if prev, dup := ids[key]; dup {
			return nil, problemAt(p.meta.at, p.file, "%s and %s both declare id %s", prev, p.file, p.meta.id)
		}
		if prev, dup := names[p.meta.name]; dup {
			return nil, problemAt(p.meta.at, p.file, "%s and %s both declare name %s", prev, p.file, p.meta.name)
		}
		ids[key], names[p.meta.name] = p.file, p.file
		if err := p.prepare(compiler, caps); err != nil {
			return nil, err
		}
		p.budget = opts.Budget
		if isolate != nil {
			p.isolate, p.readsInv = isolate, readsInv
			p.batch = Batch{Modules: modules, Query: p.queryText()}
		}
		out = append(out, p.rule(opts.Doc, opts.Custom))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// policies groups the compiled modules by package and keeps the packages that define
// an output rule, with their metadata.
func policies(order []string, parsed map[string]*ast.Module, custom bool) ([]*policy, error) {
	byPkg := map[string]*policy{}
	var pkgs []string
	for _, name := range order {
		mod := parsed[name]
		pkg := mod.Package.Path.String()
		p := byPkg[pkg]
		if p == nil {
			p = &policy{pkg: pkg, file: name}
			byPkg[pkg] = p
			pkgs = append(pkgs, pkg)
		}
		for _, r := range mod.Rules {
			if err := p.addOutput(name, r); err != nil {
				return nil, err
			}
		}
		meta, ok, err := metadataOf(name, mod, custom)
		if err != nil {
			return nil, err
		}
		if ok {
			if p.hasMeta {
				return nil, problemAt(meta.at, name, "package %s already has METADATA in %s", strings.TrimPrefix(pkg, "data."), p.file)
			}
			p.meta, p.file, p.hasMeta = meta, name, true
		}
	}
	var out []*policy
	for _, pkg := range pkgs {
		p := byPkg[pkg]
		if len(p.outputs) == 0 {
			continue
		}
		sort.Slice(p.outputs, func(i, j int) bool { return p.outputs[i].name < p.outputs[j].name })
		switch {
		case custom:
			if err := p.meta.derive(p.file, pkg); err != nil {
				return nil, err
			}
		case !p.hasMeta:
			return nil, problemAt(nil, p.file, "package %s defines deny, violation or warn but has no METADATA block with custom.id and custom.name", strings.TrimPrefix(pkg, "data."))
		}
		out = append(out, p)
	}
	return out, nil
}

// policy is one compiled policy: a Rego package with output rules and metadata.
type policy struct {
	pkg     string // data.pvlint.immediate_binding
	file    string // the module carrying the METADATA block
	meta    metadata
	hasMeta bool
	outputs []output // sorted by name
	runner
	self *lint.Rule
}

// output is one output rule of a policy.
type output struct {
	name string
	sev  lint.Severity
}

// addOutput records r when it is an output rule. A rule written `deny[msg] if {...}`
// in Rego v1 defines an object, not the set of messages its author meant (Rego v0
// read it as a set): it is refused rather than silently reporting nothing.
func (p *policy) addOutput(file string, r *ast.Rule) error {
	ref := r.Head.Ref()
	name, isVar := ref[0].Value.(ast.Var)
	if !isVar || len(r.Head.Args) > 0 {
		return nil
	}
	sev, ok := outputSeverity(string(name))
	if !ok {
		return nil
	}
	if len(ref) > 1 {
		return problemAt(r.Head.Location, file, "rule %s defines an object in Rego v1; write `%s contains msg if { ... }` for a set of results", ref, name)
	}
	for _, o := range p.outputs {
		if o.name == string(name) {
			return nil
		}
	}
	p.outputs = append(p.outputs, output{string(name), sev})
	return nil
}

// prepare compiles the policy's query once: one binding per output rule, each a list
// that is empty when the rule is undefined, so one undefined output never hides another.
func (p *policy) prepare(compiler *ast.Compiler, caps *ast.Capabilities) error {
	q, err := rego.New(
		rego.Compiler(compiler),
		rego.Capabilities(caps),
		rego.Store(newDocuments()),
		rego.Query(p.queryText()),
	).PrepareForEval(context.Background())
	if err != nil {
		return problemAt(p.meta.at, p.file, "prepare policy %s: %v", p.meta.id, err)
	}
	p.query = q
	return nil
}

// queryText is the policy's query: one binding per output rule.
func (p *policy) queryText() string {
	var parts []string
	for _, o := range p.outputs {
		parts = append(parts, fmt.Sprintf("%s := [x | x := %s.%s]", o.name, p.pkg, o.name))
	}
	return strings.Join(parts, "; ")
}

// rule builds the catalogue entry of the policy; its Check evaluates the prepared query.
func (p *policy) rule(doc func(string) string, custom bool) *lint.Rule {
	m := p.meta
	r := &lint.Rule{
		ID:          m.id,
		Name:        m.name,
		Severity:    m.severity,
		Summary:     m.title,
		Description: m.description,
		Remediation: m.remediation,
		Tags:        m.tags,
		Kinds:       m.kinds,
		Check:       p.check,
	}
	if custom {
		r.Policy = p.file
	}
	if r.Severity == lint.SeverityNone {
		r.Severity = p.defaultSeverity()
	}
	if doc != nil {
		r.Doc = doc(m.id)
	}
	if r.Doc == "" {
		r.Doc = m.page()
	}
	p.self = r
	return r
}

// defaultSeverity is the rule's level when METADATA sets none: the highest level its
// output rules produce.
func (p *policy) defaultSeverity() lint.Severity {
	best := lint.SeverityNone
	for _, o := range p.outputs {
		best = max(best, o.sev)
	}
	return best
}

// capabilities are OPA's current builtins minus those that reach the network, the
// file system or the process environment through their arguments: linting must be
// hermetic and reproducible, and a policy comes from the pull request being linted.
func capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if _, denied := forbidden[b.Name]; !denied {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	caps.AllowNet = []string{} // empty, not nil: no host at all (remote schema refs)
	return caps
}

// forbidden builtins, each with what it would reach. A policy calling one does not
// compile: the compiler reports it undefined at the call, and compileError adds the
// reason. json.verify_schema and json.match_schema resolve a schema's $ref with a
// loader that opens file:// URLs (and relative refs against a file:// $id) whatever
// AllowNet says, so they are denied whole rather than trusted to a sandbox OPA does not
// offer. The JWT, X.509 and crypto builtins take their keys and certificates as
// arguments and fetch nothing (io.jwt.* never follows jku or x5u); time.* reads only
// the time zone database, by a name Go refuses when it holds "..": they stay.
// Schema annotations (METADATA schemas:) compile a $ref too, but only when the
// compiler type-checks annotations, which pvlint's compilers never do
// (WithUseTypeCheckAnnotations stays false).
var forbidden = map[string]string{
	"http.send":          "it reaches the network",
	"net.lookup_ip_addr": "it reaches the network (DNS)",
	"opa.runtime":        "it reads the process's environment",
	"json.verify_schema": "it opens the files and URLs a schema's $ref names",
	"json.match_schema":  "it opens the files and URLs a schema's $ref names",
}

//go:embed policies/*.rego
var embedded embed.FS

var builtin = sync.OnceValues(func() ([]*lint.Rule, error) {
	sub, err := fs.Sub(embedded, "policies")
	if err != nil {
		return nil, err
	}
	return Load([]fs.FS{sub}, Options{Doc: docs.Page})
})

// Builtin returns pvlint's embedded policies as rules, compiled once per process and
// documented by the rules/docs pages; the slice is fresh, the rules are shared. It
// panics if an embedded policy does not compile, which this package's tests rule out
// (as regexp.MustCompile does for literal patterns).
func Builtin() []*lint.Rule {
	rs, err := builtin()
	if err != nil {
		panic(errors.New("pvlint: embedded policies: " + err.Error()))
	}
	return slices.Clone(rs)
}
