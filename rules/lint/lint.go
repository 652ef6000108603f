// Package lint defines what a rule is and what it reports. Rules are values in one
// explicit list (package rules); the driver runs them over a graph and collects
// Findings; output formats take rules and findings as arguments.
package lint

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Severity is a finding's level. The zero value is SeverityNone ("use the rule's default").
type Severity int

// Severities, lowest to highest.
const (
	SeverityNone Severity = iota
	Note
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Note:
		return "note"
	case Warning:
		return "warning"
	case Error:
		return "error"
	}
	return "none"
}

// ParseSeverity reads "error", "warning" or "note" (and "info" as note).
func ParseSeverity(s string) (Severity, error) {
	switch strings.ToLower(s) {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "note", "info":
		return Note, nil
	}
	return SeverityNone, fmt.Errorf("unknown severity %q (want error, warning or note)", s)
}

// Rule is one check of the catalogue. IDs and names are a public contract.
type Rule struct {
	ID       string   // "PVL003"
	Name     string   // "rwo-rolling-update"
	Severity Severity // default level; findings may pick another level the rule documents
	Summary  string   // one line, shown in `pvlint rules` and SARIF shortDescription
	// Description is a paragraph: what the rule detects and why it matters.
	Description string
	// Remediation says how to fix a finding; it lives here, not in messages.
	Remediation string
	// Doc is the explain page (Markdown): what happens in a cluster, why, how to fix it
	// with before/after examples.
	Doc string
	// Tags for SARIF and filtering.
	Tags []string
	// Kinds the rule looks at (documentation, and which resources a Rego policy sees).
	Kinds []string
	// Check runs the rule over one graph. Nil for rules the engine reports itself
	// (PVL000 parse errors).
	Check func(*Pass)
	// Options are the rule's documented settings, for verdicts its definition says are
	// configurable; a Check reads them with Pass.Option.
	Options []Option
	// Policy is the file of a user's Rego policy (--policy) the rule was loaded from;
	// empty for pvlint's own rules. Outputs mark custom rules by it, and a custom rule
	// that fails at run time is the user's to fix rather than a bug in pvlint.
	Policy string
}

// Option is one setting of a rule, given per run as RULE.NAME=VALUE (the CLI's
// --rule-option). Its Default applies when the run sets none.
type Option struct {
	Name    string // kebab-case, unique within the rule
	Default string
	Usage   string // one line: what the value changes and which values are valid
	// Check validates a value; nil accepts any.
	Check func(value string) error
}

// Option returns the rule's option with the given name, or nil.
func (r *Rule) Option(name string) *Option {
	for i := range r.Options {
		if r.Options[i].Name == name {
			return &r.Options[i]
		}
	}
	return nil
}

// Version is a Kubernetes minor version such as 1.29.
type Version struct{ Major, Minor int }

// ParseVersion reads "1.29", "v1.29" or "1.29.3".
func ParseVersion(s string) (Version, error) {
	t := strings.TrimPrefix(strings.TrimSpace(s), "v")
	parts := strings.Split(t, ".")
	if len(parts) < 2 {
		return Version{}, fmt.Errorf("invalid Kubernetes version %q (want MAJOR.MINOR, e.g. 1.31)", s)
	}
	maj, err1 := strconv.Atoi(parts[0])
	min, err2 := strconv.Atoi(parts[1])
	if err1 != nil || err2 != nil || maj < 1 || min < 0 {
		return Version{}, fmt.Errorf("invalid Kubernetes version %q (want MAJOR.MINOR, e.g. 1.31)", s)
	}
	return Version{maj, min}, nil
}

// Less reports whether v is older than o.
func (v Version) Less(o Version) bool {
	return v.Major < o.Major || v.Major == o.Major && v.Minor < o.Minor
}

// AtLeast reports whether v is o or newer.
func (v Version) AtLeast(major, minor int) bool { return !v.Less(Version{major, minor}) }

func (v Version) String() string { return strconv.Itoa(v.Major) + "." + strconv.Itoa(v.Minor) }

// NewestKnown is the newest Kubernetes minor the rule data knows (the facts in
// docs/storage-facts.md were checked against k8s.io/api v0.37 = Kubernetes 1.37);
// it is the default target.
var NewestKnown = Version{1, 37}

// Related is a secondary location of a finding: a link of the chain it reasoned over.
type Related struct {
	Range   graph.Range
	Message string
}

// Finding is one reported problem.
type Finding struct {
	Rule     *Rule
	Severity Severity
	Message  string
	// Resource is the object the finding is about; nil for file-level parse errors.
	Resource *graph.Resource
	// Range is where the finding is reported.
	Range graph.Range
	// Path is the field path the finding is about (for fingerprints and fixes), if any.
	Path []string
	// Key tells apart findings of one rule on one field of one resource when the path
	// cannot: a custom Rego policy's results, which often have no path, are told apart
	// by their messages. It is part of the fingerprint when set.
	Key string
	// Related locations: every link of the chain, the rendered output...
	Related []Related
	// Variant is the Helm values variant, Kustomize build or directory world the
	// finding was seen in (the first one, when it holds in several).
	Variant string
	// AlsoIn are the other variants in which the same finding (same rule, place and
	// message) holds: the driver merges those into one finding that names them all.
	AlsoIn []string
	// Suppression is set when a comment, annotation or configuration entry accepts
	// the finding (package suppress); nil otherwise.
	Suppression *Suppression
	// Fix is the rule's mechanical remedy, when it has a safe one for this case.
	Fix *Fix
	// Reachable is set on a finding a chart's defaults do not have but one of the
	// combinations of its values explored with --explore-values does: the --set
	// assignments ("a=b,c=d") that reach it.
	Reachable string
}

// Pass is what a rule's Check receives: one graph, the run's settings, and Report.
type Pass struct {
	Rule   *Rule
	Graph  *graph.Graph
	Target Version // the Kubernetes version being targeted
	// Deadline, when set, is the end of the run's time budget: a rule whose work
	// grows with untrusted code (a Rego policy) stops by then.
	Deadline time.Time
	report   func(Finding)
	errs     []error
	// options are the run's values of the rule's options, by name.
	options map[string]string
}

// SetOptions gives the pass the run's values of its rule's options; the driver calls
// it with values it has validated (rules.ParseOption).
func (p *Pass) SetOptions(values map[string]string) { p.options = values }

// Option returns the run's value of one of the rule's options, or its default. It
// panics on a name the rule does not declare: that is a bug in the rule.
func (p *Pass) Option(name string) string {
	if v, ok := p.options[name]; ok {
		return v
	}
	o := p.Rule.Option(name)
	if o == nil {
		panic("rule " + p.Rule.ID + " reads undeclared option " + name)
	}
	return o.Default
}

// NewPass builds a pass that hands findings to report. The driver and tests use it.
func NewPass(rule *Rule, g *graph.Graph, target Version, report func(Finding)) *Pass {
	return &Pass{Rule: rule, Graph: g, Target: target, report: report}
}

// Fail records that the rule itself could not finish on this graph (a policy that
// exceeded its time budget or failed at run time). It is not a finding about the
// input: the driver returns it as an internal error, and the rule's other findings
// still count.
func (p *Pass) Fail(err error) { p.errs = append(p.errs, err) }

// Errors returns what Fail recorded, for the driver and test harnesses.
func (p *Pass) Errors() []error { return p.errs }

// Report records a finding on resource r at the range at (the resource's own range
// when at is invalid). sev SeverityNone means the rule's default. The resource's
// producer-supplied related locations are appended to the given ones.
func (p *Pass) Report(r *graph.Resource, at graph.Range, sev Severity, msg string, related ...Related) {
	p.ReportPath(r, at, nil, sev, msg, related...)
}

// ReportPath is Report for a finding that its range alone does not identify: when a
// rule reports several findings at one field (one per claim at a workload's replicas),
// each names the field path it is about, so their fingerprints differ.
func (p *Pass) ReportPath(r *graph.Resource, at graph.Range, path []string, sev Severity, msg string, related ...Related) {
	p.Emit(Finding{Severity: sev, Message: msg, Resource: r, Range: at, Path: path, Related: related})
}

// Emit records a finding the rule built itself, for fields Report does not take
// (Key). As Report does, it sets the rule, the default severity when f has none, the
// resource's range when f's is invalid, and the resource's variant and related
// locations.
func (p *Pass) Emit(f Finding) {
	f.Rule = p.Rule
	if f.Severity == SeverityNone {
		f.Severity = p.Rule.Severity
	}
	if r := f.Resource; r != nil {
		if !f.Range.IsValid() {
			f.Range = r.Range
		}
		f.Variant = r.Origin.Variant
		for _, l := range r.Related {
			if l.For.IsValid() && l.For != f.Range {
				continue
			}
			f.Related = append(f.Related, Related{Range: l.Range, Message: l.Message})
		}
	}
	p.report(f)
}

// Link is a related location for a resource of the chain, at its start.
func Link(r *graph.Resource, msg string) Related {
	return Related{Range: r.Range, Message: msg}
}

// Variants returns every variant the finding holds in: Variant, then AlsoIn; nil for
// a finding outside any variant.
func (f Finding) Variants() []string {
	if f.Variant == "" {
		return nil
	}
	return append([]string{f.Variant}, f.AlsoIn...)
}
