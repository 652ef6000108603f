// Package rules is pvlint's catalogue: the one explicit list of every rule, and the
// driver that runs them over a graph. Rules never import parsers or the CLI.
package rules

import (
	"errors"
	"fmt"
	"iter"
	"runtime"
	"runtime/debug"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
)

// ParseError is PVL000: an input that cannot be read or parsed. The driver reports it
// from the parsers' diagnostics; it has no Check of its own.
var ParseError = &lint.Rule{
	ID:          "PVL000",
	Name:        "parse-error",
	Severity:    lint.Error,
	Summary:     "an input cannot be read or parsed",
	Description: "pvlint could not read, parse or render an input (invalid YAML, HCL or JSON, a chart that fails to render, an unknown Terraform function, a limit that was hit). The finding is reported at the failing position; every other input is still linted.",
	Remediation: "Fix the file at the reported position; `kubectl apply --dry-run=client -f FILE`, `helm template` or `terraform validate` show the same error.",
	Doc:         docs.Page("PVL000"),
	Tags:        []string{"correctness"},
}

// All returns the catalogue in ID order. The slice is fresh; the rules are shared.
// PVL000 and PVL900 (suppress.Problem) have no Check: the driver reports parse
// errors, and package suppress reports problems with suppressions.
func All() []*lint.Rule {
	out := append([]*lint.Rule{ParseError, suppress.Problem}, catalogue()...)
	sort.SliceStable(out, func(i, j int) bool { return out[i].ID < out[j].ID })
	return out
}

// Find returns the rule with the given ID or name (case-insensitive for IDs), or nil.
func Find(idOrName string) *lint.Rule { return Lookup(All(), idOrName) }

// Lookup returns the rule of catalogue with the given ID (any case) or name, or nil.
func Lookup(catalogue []*lint.Rule, idOrName string) *lint.Rule {
	for _, r := range catalogue {
		if strings.EqualFold(r.ID, idOrName) || r.Name == idOrName {
			return r
		}
	}
	return nil
}

// WithCustom returns catalogue followed by custom, a user's policies. A custom rule may
// not take an ID or a name the catalogue already uses, as an ID or as a name: a
// suppression, --disable or configuration entry naming it would be ambiguous.
func WithCustom(catalogue, custom []*lint.Rule) ([]*lint.Rule, error) {
	out := slices.Clip(catalogue)
	for _, c := range custom {
		for _, key := range []string{c.ID, c.Name} {
			if r := Lookup(out, key); r != nil {
				return nil, fmt.Errorf("policy %s: rule %s %s takes %q, which %s %s already uses; set another custom.id or custom.name", c.Policy, c.ID, c.Name, key, r.ID, r.Name)
			}
		}
		out = append(out, c)
	}
	return out, nil
}

// Options select and configure the rules of a run.
type Options struct {
	// Target is the Kubernetes version being linted for (zero = lint.NewestKnown).
	Target lint.Version
	// Enabled, when non-nil, keeps only these rules (by pointer).
	Enabled map[*lint.Rule]bool
	// Disabled rules do not run.
	Disabled map[*lint.Rule]bool
	// RuleOptions are values of the rules' options (lint.Rule.Options), by rule and
	// option name, validated by ParseOption; unset options keep their defaults.
	RuleOptions map[*lint.Rule]map[string]string
	// Deadline, when set, ends the run's time budget: a world reached after it is not
	// linted (World.Unlinted), and a rule that watches time (a Rego policy) stops at it
	// (lint.Pass.Deadline).
	Deadline time.Time
}

// ParseOption reads RULE.NAME=VALUE (RULE an ID or name) and checks that the rule
// declares the option and accepts the value.
func ParseOption(s string) (r *lint.Rule, name, value string, err error) {
	key, value, ok := strings.Cut(s, "=")
	ruleRef, name, dotted := strings.Cut(key, ".")
	if !ok || !dotted || ruleRef == "" || name == "" {
		return nil, "", "", fmt.Errorf("rule option %q: want RULE.NAME=VALUE, e.g. missing-rwop.min-version=1.27", s)
	}
	if r = Find(ruleRef); r == nil {
		return nil, "", "", fmt.Errorf("rule option %q: unknown rule %q", s, ruleRef)
	}
	o := r.Option(name)
	if o == nil {
		var names []string
		for _, x := range r.Options {
			names = append(names, x.Name)
		}
		if len(names) == 0 {
			return nil, "", "", fmt.Errorf("rule option %q: rule %s has no options", s, r.ID)
		}
		return nil, "", "", fmt.Errorf("rule option %q: rule %s has no option %q (it has %s)", s, r.ID, name, strings.Join(names, ", "))
	}
	if o.Check != nil {
		if err := o.Check(value); err != nil {
			return nil, "", "", fmt.Errorf("rule option %q: %w", s, err)
		}
	}
	return r, name, value, nil
}

// Runs reports whether the options select rule r.
func (o Options) Runs(r *lint.Rule) bool {
	if o.Disabled[r] {
		return false
	}
	return o.Enabled == nil || o.Enabled[r]
}

// World is the linting of one world: the graph built from its resources and what the
// rules found in it.
type World struct {
	Name     string
	Graph    *graph.Graph
	Findings []lint.Finding
	// Errs are the rules that failed in this world (Run's internal errors).
	Errs []error
	// Unlinted is set when the run's time budget (Options.Deadline) was spent before
	// this world's rules ran: it has its graph and no findings.
	Unlinted bool
}

// RunWorlds is the one driver of "worlds → graph → rules", shared by the CLI (lint,
// fix, graph) and the fixture harness (rules/linttest): for each world, given by name
// and resources (a Helm values variant, a Kustomize build, the plain manifests), in
// order, its graph built with g and the selected rules run over it (Run).
func RunWorlds(worlds iter.Seq2[string, []*graph.Resource], g graph.Options, rules []*lint.Rule, opts Options) iter.Seq[World] {
	return func(yield func(World) bool) {
		for name, resources := range worlds {
			gr := graph.New(resources, g)
			if !opts.Deadline.IsZero() && !time.Now().Before(opts.Deadline) {
				if !yield(World{Name: name, Graph: gr, Unlinted: true}) {
					return
				}
				continue
			}
			fs, errs := Run(gr, rules, opts)
			if !yield(World{Name: name, Graph: gr, Findings: fs, Errs: errs}) {
				return
			}
		}
	}
}

// Run runs every selected rule over g and returns the findings in rule order, except
// those on cluster context resources (graph.Resource.IsContext). A rule
// that panics or records a failure (lint.Pass.Fail) becomes an internal error naming
// the rule; the others still run. Rules run concurrently, one per processor at a
// time: the graph is read-only once built, and each rule reports into its own list.
func Run(g *graph.Graph, rules []*lint.Rule, opts Options) (findings []lint.Finding, internal []error) {
	if opts.Target == (lint.Version{}) {
		opts.Target = lint.NewestKnown
	}
	var selected []*lint.Rule
	for _, r := range rules {
		if r.Check != nil && opts.Runs(r) {
			selected = append(selected, r)
		}
	}
	type result struct {
		findings []lint.Finding
		err      error
	}
	results := make([]result, len(selected))
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(selected)) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < len(selected); i = int(next.Add(1) - 1) {
				res := &results[i]
				r := selected[i]
				res.err = runOne(r, g, opts.Target, opts.RuleOptions[r], opts.Deadline, func(f lint.Finding) {
					// Cluster context (a platform profile's classes, a snapshot's
					// objects) resolves references but is not the user's to fix.
					if f.Resource.IsContext() {
						return
					}
					// A profile's class is in no file: a link to it has no place to
					// show (the chain in the message names it).
					if slices.ContainsFunc(f.Related, func(l lint.Related) bool { return l.Range.File == "" }) {
						var kept []lint.Related
						for _, l := range f.Related {
							if l.Range.File != "" {
								kept = append(kept, l)
							}
						}
						f.Related = kept
					}
					res.findings = append(res.findings, f)
				})
			}
		})
	}
	wg.Wait()
	// One allocation of the right size: the findings of a large run are thousands of
	// 200-byte values, and growing by appends leaves every smaller array as garbage.
	n := 0
	for _, res := range results {
		n += len(res.findings)
	}
	findings = slices.Grow(findings, n)
	for _, res := range results {
		findings = append(findings, res.findings...)
		if res.err != nil {
			internal = append(internal, res.err)
		}
	}
	return findings, internal
}

func runOne(r *lint.Rule, g *graph.Graph, target lint.Version, options map[string]string, deadline time.Time, report func(lint.Finding)) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in rule %s %s: %v\n%s", r.ID, r.Name, p, debug.Stack())
		}
	}()
	pass := lint.NewPass(r, g, target, report)
	pass.SetOptions(options)
	pass.Deadline = deadline
	r.Check(pass)
	if errs := pass.Errors(); len(errs) > 0 {
		return fmt.Errorf("rule %s %s: %w", r.ID, r.Name, errors.Join(errs...))
	}
	return nil
}

// Diagnostics turns parser diagnostics into PVL000 findings.
func Diagnostics(ds []graph.Diagnostic) []lint.Finding {
	out := make([]lint.Finding, 0, len(ds))
	for _, d := range ds {
		sev := ParseError.Severity
		if d.Note {
			sev = lint.Note
		}
		out = append(out, lint.Finding{Rule: ParseError, Severity: sev, Message: d.Message, Range: d.Range, Variant: d.Variant})
	}
	return out
}
