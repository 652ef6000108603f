// Package policy turns Rego policies into pvlint rules.
//
// A policy is a Rego module whose `# METADATA` block is the one place its rule
// metadata lives (title, description, custom: id, name, severity, remediation, kinds,
// tags). Compile parses the modules, checks them against capabilities without network
// builtins, prepares one query per policy and returns a *lint.Rule per policy whose
// Check evaluates that prepared query on every resource of the kinds the policy
// declares. pvlint's own policies are embedded (Builtin); users' policy directories go
// through the same Load/Compile path.
//
// What a policy sees:
//   - input: one resource as a Kubernetes-shaped object (graph.Node.Interface()).
//   - data.inventory: the whole graph in Gatekeeper's layout,
//     data.inventory.namespace[ns][apiVersion][kind][name] and
//     data.inventory.cluster[apiVersion][kind][name], built once per graph and only if
//     a policy reads it.
//   - data.pvlint.provisioners[name]: the run's provisioner table ({backend, topology,
//     csi, in_tree, csi_name}), so policies share the Go rules' one source of backend
//     knowledge.
//
// What a policy reports: the rules deny and violation (errors) and warn (warnings),
// each a set of results. A result is a message string or an object
// {msg, path, severity, related}; see Result for the fields.
package policy

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
	"github.com/open-policy-agent/opa/v1/storage/inmem"

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
	// A policy that runs out of time records an internal error (lint.Pass.Fail) and
	// keeps the findings it already made.
	Budget time.Duration
	// Doc returns the explain page for a rule ID. When it is nil or returns "", the
	// page is built from the METADATA block.
	Doc func(id string) string
}

// DefaultBudget is the time one policy may spend on one graph. It is generous for
// real inputs (pvlint's policies take microseconds per resource) and stops a policy
// that loops over a huge inventory from hanging a CI job.
const DefaultBudget = 10 * time.Second

// outputs are the rule names whose results become findings, with their default
// severities (rules.md Decision 11).
var outputs = []struct {
	name string
	sev  lint.Severity
}{
	{"deny", lint.Error},
	{"violation", lint.Error},
	{"warn", lint.Warning},
}

// Load reads every .rego file of each file system (test files *_test.rego excluded)
// and compiles them together, so a policy may import a helper library from another
// directory.
func Load(fsyss []fs.FS, opts Options) ([]*lint.Rule, error) {
	var mods []Module
	for _, fsys := range fsyss {
		ms, err := ReadModules(fsys)
		if err != nil {
			return nil, err
		}
		mods = append(mods, ms...)
	}
	return Compile(mods, opts)
}

// ReadModules returns the .rego files of fsys (excluding *_test.rego) in lexical
// order, named by their path within fsys.
func ReadModules(fsys fs.FS) ([]Module, error) {
	var mods []Module
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read policies: %w", err)
		}
		if d.IsDir() || path.Ext(p) != ".rego" || strings.HasSuffix(p, "_test.rego") {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("read policy %s: %w", p, err)
		}
		mods = append(mods, Module{Name: p, Source: string(b)})
		return nil
	})
	return mods, err
}

// Compile parses and compiles modules together and prepares one query per policy.
// A module that defines deny, violation or warn is a policy and must carry METADATA
// with custom.id and custom.name; other modules are helper libraries. Policies that
// call network builtins (http.send, net.lookup_ip_addr) or opa.runtime do not compile.
// Rules are returned in ID order.
func Compile(modules []Module, opts Options) ([]*lint.Rule, error) {
	if opts.Budget <= 0 {
		opts.Budget = DefaultBudget
	}
	caps := capabilities()
	parsed := make(map[string]*ast.Module, len(modules))
	var order []string
	for _, m := range modules {
		if _, dup := parsed[m.Name]; dup {
			return nil, fmt.Errorf("compile policies: module %q given twice", m.Name)
		}
		mod, err := ast.ParseModuleWithOpts(m.Name, m.Source, ast.ParserOptions{
			ProcessAnnotation: true,
			RegoVersion:       ast.RegoV1,
			Capabilities:      caps,
		})
		if err != nil {
			return nil, fmt.Errorf("parse policy %s: %w", m.Name, err)
		}
		parsed[m.Name] = mod
		order = append(order, m.Name)
	}
	compiler := ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false)
	if compiler.Compile(parsed); compiler.Failed() {
		return nil, fmt.Errorf("compile policies: %w", compiler.Errors)
	}

	pols, err := policies(order, parsed)
	if err != nil {
		return nil, err
	}
	ids := map[string]string{}
	names := map[string]string{}
	var out []*lint.Rule
	for _, p := range pols {
		if prev, dup := ids[p.meta.id]; dup {
			return nil, fmt.Errorf("compile policies: %s and %s both declare id %s", prev, p.file, p.meta.id)
		}
		if prev, dup := names[p.meta.name]; dup {
			return nil, fmt.Errorf("compile policies: %s and %s both declare name %s", prev, p.file, p.meta.name)
		}
		ids[p.meta.id], names[p.meta.name] = p.file, p.file
		if err := p.prepare(compiler, caps); err != nil {
			return nil, err
		}
		p.budget = opts.Budget
		out = append(out, p.rule(opts.Doc))
	}
	sort.Slice(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out, nil
}

// policies groups the compiled modules by package and keeps the packages that define
// an output rule, with their metadata.
func policies(order []string, parsed map[string]*ast.Module) ([]*policy, error) {
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
			ref := r.Head.Ref()
			if len(ref) != 1 {
				continue
			}
			for i, o := range outputs {
				if ref[0].Value.Compare(ast.Var(o.name)) == 0 {
					p.outputs[i] = true
				}
			}
		}
		meta, ok, err := metadataOf(name, mod)
		if err != nil {
			return nil, err
		}
		if ok {
			if p.meta.id != "" {
				return nil, fmt.Errorf("policy %s: package %s already has METADATA in %s", name, pkg, p.file)
			}
			p.meta, p.file = meta, name
		}
	}
	var out []*policy
	for _, pkg := range pkgs {
		p := byPkg[pkg]
		if !p.hasOutput() {
			continue
		}
		if p.meta.id == "" {
			return nil, fmt.Errorf("policy %s: package %s defines deny, violation or warn but has no METADATA block with custom.id and custom.name", p.file, pkg)
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
	outputs [3]bool // which of deny, violation, warn the package defines
	query   rego.PreparedEvalQuery
	budget  time.Duration
	self    *lint.Rule
}

func (p *policy) hasOutput() bool { return p.outputs[0] || p.outputs[1] || p.outputs[2] }

// prepare compiles the policy's query once: one binding per output rule, each a list
// that is empty when the rule is undefined, so one undefined output never hides another.
func (p *policy) prepare(compiler *ast.Compiler, caps *ast.Capabilities) error {
	var parts []string
	for i, o := range outputs {
		if p.outputs[i] {
			parts = append(parts, fmt.Sprintf("%s := [x | x := %s.%s]", o.name, p.pkg, o.name))
		}
	}
	q, err := rego.New(
		rego.Compiler(compiler),
		rego.Capabilities(caps),
		rego.Store(inmem.New()),
		rego.Query(strings.Join(parts, "; ")),
	).PrepareForEval(context.Background())
	if err != nil {
		return fmt.Errorf("prepare policy %s (%s): %w", p.meta.id, p.file, err)
	}
	p.query = q
	return nil
}

// rule builds the catalogue entry of the policy; its Check evaluates the prepared query.
func (p *policy) rule(doc func(string) string) *lint.Rule {
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
	for i, o := range outputs {
		if p.outputs[i] && o.sev > best {
			best = o.sev
		}
	}
	return best
}

// capabilities are OPA's current builtins minus those that reach the network or the
// process environment: linting must be hermetic and reproducible.
func capabilities() *ast.Capabilities {
	caps := ast.CapabilitiesForThisVersion()
	kept := caps.Builtins[:0]
	for _, b := range caps.Builtins {
		if !forbidden[b.Name] {
			kept = append(kept, b)
		}
	}
	caps.Builtins = kept
	caps.AllowNet = []string{} // empty, not nil: no host at all (remote schema refs)
	return caps
}

// forbidden builtins: network access and the runtime's environment variables.
var forbidden = map[string]bool{
	"http.send":          true,
	"net.lookup_ip_addr": true,
	"opa.runtime":        true,
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
