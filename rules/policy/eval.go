package policy

import (
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// Result is the documented shape of one element of a policy's deny, violation or
// warn set when it is an object rather than a plain message string.
type Result struct {
	// Msg is the finding's message ("message" is accepted too). Required.
	Msg string `json:"msg"`
	// Path is the field the finding is about, as an array of keys and list indexes
	// (["spec", "volumes", 0]) or a dotted string ("spec.volumes.0"; use the array
	// form for keys that contain dots). The finding is reported at the deepest node of
	// the path that exists (graph.Resource.Locate); without a path, at metadata.name.
	// The path is also the finding's lint.Finding.Path, which fingerprints use.
	Path any `json:"path,omitempty"`
	// Severity ("error", "warning", "note") overrides the rule's level for this
	// finding, for rules whose documentation defines levels by case.
	Severity string `json:"severity,omitempty"`
	// Related are other places of the chain the policy reasoned over.
	Related []RelatedRef `json:"related,omitempty"`
	// Fix is the finding's mechanical remedy, when the policy has a safe one.
	Fix *FixRef `json:"fix,omitempty"`
}

// FixRef is a result's remedy as data (lint.Fix): edits on the input resource, which
// pvlint writes in the syntax of the file the resource came from.
type FixRef struct {
	// Description says what the fix does, in one sentence. Required.
	Description string `json:"description"`
	// Unsafe fixes are applied only with --unsafe-fixes.
	Unsafe bool `json:"unsafe,omitempty"`
	// Edits are applied together or not at all.
	Edits []EditRef `json:"edits"`
}

// EditRef is one edit of a FixRef. Op "set" replaces the scalar at Path with Value;
// "insert" adds Key: Value to the map at Path (the object itself when Path is empty);
// "delete" removes Key from the map at Path. Value is a string, number, boolean or an
// object of those.
type EditRef struct {
	Op    string `json:"op"`
	Path  any    `json:"path,omitempty"`
	Key   string `json:"key,omitempty"`
	Value any    `json:"value,omitempty"`
}

// RelatedRef is a related location of a Result: a field of another resource of the
// graph (Kind and Name set; Namespace defaults to the input's for namespaced kinds),
// or of the input itself (Kind empty).
type RelatedRef struct {
	Msg       string `json:"msg"`
	Kind      string `json:"kind,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
	Path      any    `json:"path,omitempty"`
}

// resources returns the graph's resources the policy looks at, in input order. Cluster
// context (graph.Resource.IsContext) is in data.inventory but never an input: its
// findings would not be reported.
func (p *policy) resources(g *graph.Graph) []*graph.Resource {
	from := g.Resources
	if len(p.meta.kinds) == 1 {
		from = g.ByKind(p.meta.kinds[0])
	}
	var out []*graph.Resource
	for _, r := range from {
		if r.IsContext() {
			continue
		}
		if len(p.meta.kinds) == 0 {
			out = append(out, r)
			continue
		}
		if slices.Contains(p.meta.kinds, r.Kind) {
			out = append(out, r)
		}
	}
	return out
}

// EvalError is a policy that failed while evaluating a resource: it ran past its time
// budget, its process (Isolate) ran out of memory or died, OPA stopped on a run-time
// error (two values for a complete rule, a builtin error), or a result broke the
// result contract. Check records it with
// lint.Pass.Fail, so the driver returns it (wrapped) as the rule's failure; a user's
// policy (Rule.Policy set) that fails is the user's to fix, not a bug in pvlint.
type EvalError struct {
	Rule *lint.Rule
	File string // the policy's file
	// At is where in File the policy is, when it is not the whole file (a
	// Gatekeeper ConstraintTemplate among other documents); zero otherwise.
	At       graph.Range
	Resource string // the resource being evaluated, Kind/namespace/name
	// Budget is set when the policy ran out of time; it is the budget it had.
	Budget time.Duration
	// Memory is set when the policy's process (Isolate) ran out of memory; it is
	// the budget it had.
	Memory int64
	// Died is set when the policy's process died otherwise (nested too deeply, a
	// crash): why.
	Died string
	// RunSpent is set when the run's time budget (lint.Pass.Deadline) stopped the
	// policy before its own budget ran out.
	RunSpent bool
	Err      error // nil when a budget ran out
}

func (e *EvalError) Error() string {
	if e.Memory > 0 {
		return fmt.Sprintf("policy %s (%s) exceeded its memory budget of %d MiB on %s", e.Rule.ID, e.File, e.Memory>>20, e.Resource)
	}
	if e.Budget > 0 {
		return fmt.Sprintf("policy %s (%s) exceeded its time budget of %s on %s", e.Rule.ID, e.File, e.Budget, e.Resource)
	}
	if e.Died != "" {
		return fmt.Sprintf("policy %s (%s) stopped on %s: %s", e.Rule.ID, e.File, e.Resource, e.Died)
	}
	if e.RunSpent {
		return fmt.Sprintf("policy %s (%s) did not finish on %s: the run's time budget was spent", e.Rule.ID, e.File, e.Resource)
	}
	return fmt.Sprintf("policy %s (%s) failed on %s: %v", e.Rule.ID, e.File, e.Resource, e.Err)
}

func (e *EvalError) Unwrap() error { return e.Err }

// check evaluates the prepared query on each resource of the declared kinds within the
// policy's time budget, in another process when the policy is a user's and the run
// isolates them (Options.Isolate).
func (p *policy) check(pass *lint.Pass) {
	fail := func(r *graph.Resource) *EvalError {
		return &EvalError{Rule: p.self, File: p.file, Resource: r.String()}
	}
	// A result that breaks the contract is a failure of its own; the others are
	// still reported.
	emit := func(r *graph.Resource, b map[string]any) error {
		for _, o := range p.outputs {
			sev := o.sev
			if p.meta.severity != lint.SeverityNone {
				sev = p.meta.severity
			}
			for _, v := range values(b[o.name]) {
				if err := p.report(pass, r, sev, v); err != nil {
					e := fail(r)
					e.Err = fmt.Errorf("%s: %w", o.name, err)
					pass.Fail(e)
				}
			}
		}
		return nil
	}
	input := func(w *world, r *graph.Resource) ast.Value { return w.input(r) }
	p.run(pass, p.resources(pass.Graph), input, emit, fail)
}

// values flattens a binding: [set] when the rule is a set (the usual case), [value]
// for a complete rule, [] when the rule was undefined.
func values(binding any) []any {
	var out []any
	l, _ := binding.([]any)
	for _, v := range l {
		if set, ok := v.([]any); ok {
			out = append(out, set...)
		} else {
			out = append(out, v)
		}
	}
	return out
}

// report turns one result into a finding on r.
func (p *policy) report(pass *lint.Pass, r *graph.Resource, sev lint.Severity, v any) error {
	res, err := decode(v)
	if err != nil {
		return err
	}
	if res.Severity != "" {
		if sev, err = lint.ParseSeverity(res.Severity); err != nil {
			return err
		}
	}
	keys, err := fieldPath(res.Path)
	if err != nil {
		return err
	}
	var related []lint.Related
	for _, ref := range res.Related {
		rel, ok, err := p.related(pass.Graph, r, ref)
		if err != nil {
			return err
		}
		if ok {
			related = append(related, rel)
		}
	}
	fix, err := fixOf(r, res.Fix)
	if err != nil {
		return err
	}
	if fix != nil && len(fix.Edits) == 0 {
		fix = nil
	}
	f := lint.Finding{Severity: sev, Message: res.Msg, Resource: r, Range: locate(r, keys), Path: keys, Related: related, Fix: fix}
	if p.self.Policy != "" {
		// A user's results are often bare messages without a path: their text, numbers
		// masked so that a changed count is the same finding, tells them apart.
		f.Key = digits.ReplaceAllString(res.Msg, "#")
	}
	pass.Emit(f)
	return nil
}

var digits = regexp.MustCompile(`[0-9]+`)

// related resolves a RelatedRef; ok is false when the resource is not in the graph.
func (p *policy) related(g *graph.Graph, r *graph.Resource, ref RelatedRef) (lint.Related, bool, error) {
	target := r
	if ref.Kind != "" {
		ns := ref.Namespace
		if ns == "" && !graph.IsClusterScoped(ref.Kind) {
			ns = r.Namespace
		}
		if target = g.Lookup(ref.Kind, ns, ref.Name); target == nil {
			return lint.Related{}, false, nil
		}
	}
	if ref.Path == nil {
		return lint.Link(target, ref.Msg), true, nil
	}
	keys, err := fieldPath(ref.Path)
	if err != nil {
		return lint.Related{}, false, err
	}
	return lint.Related{Range: locate(target, keys), Message: ref.Msg}, true, nil
}

// decode reads a result value: a message string or a Result object.
func decode(v any) (Result, error) {
	switch x := v.(type) {
	case string:
		return Result{Msg: x}, nil
	case map[string]any:
		if _, ok := x["msg"]; !ok {
			if m, ok := x["message"]; ok {
				x["msg"] = m
			}
		}
		b, err := json.Marshal(x)
		if err != nil {
			return Result{}, fmt.Errorf("result %v: %w", x, err)
		}
		var res Result
		if err := json.Unmarshal(b, &res); err != nil {
			return Result{}, fmt.Errorf("result %s: %w", b, err)
		}
		if res.Msg == "" {
			return Result{}, fmt.Errorf("result %s has no msg", b)
		}
		return res, nil
	}
	return Result{}, fmt.Errorf("result %v is neither a string nor an object with msg", v)
}

// locate maps a field path to the range of the deepest existing node along it, or
// metadata.name when there is no path.
func locate(r *graph.Resource, keys []string) graph.Range {
	if len(keys) == 0 {
		return r.Locate("metadata", "name")
	}
	return r.Locate(keys...)
}

// fieldPath reads a path: an array of strings and integers, or a dotted string.
func fieldPath(p any) ([]string, error) {
	switch x := p.(type) {
	case nil:
		return nil, nil
	case string:
		if x == "" {
			return nil, nil
		}
		return strings.Split(x, "."), nil
	case []any:
		keys := make([]string, 0, len(x))
		for _, k := range x {
			switch k := k.(type) {
			case string:
				keys = append(keys, k)
			case json.Number:
				if _, err := k.Int64(); err != nil {
					return nil, fmt.Errorf("path %v: index %s is not an integer", x, k)
				}
				keys = append(keys, k.String())
			case float64:
				if k != float64(int(k)) {
					return nil, fmt.Errorf("path %v: index %v is not an integer", x, k)
				}
				keys = append(keys, fmt.Sprint(int(k)))
			default:
				return nil, fmt.Errorf("path %v: element %v is neither a key nor an index", x, k)
			}
		}
		return keys, nil
	}
	return nil, errors.New("path must be an array of keys and indexes or a dotted string")
}
