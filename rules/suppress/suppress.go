// Package suppress applies the suppressions users write to a run's findings:
// `# pvlint:ignore RULE reason` comments, `ignore.pvlint.io/RULE: reason` annotations
// and the configuration file's ignore entries. A suppressed finding is kept, marked
// with why, so reports can show it as accepted rather than lose it.
//
// Every suppression must say why, and none may rot silently: a suppression without a
// reason, naming an unknown rule, past its expiry date or matching nothing is itself
// reported as PVL900, the way staticcheck treats its own ignore directives. That is
// what lets a team audit its ignores.
package suppress

import (
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
)

// Problem is PVL900, reported by Apply itself rather than by a Check over the graph.
var Problem = &lint.Rule{
	ID:       "PVL900",
	Name:     "suppression-problem",
	Severity: lint.Warning,
	Summary:  "a suppression has no reason, names an unknown rule, has expired or matches nothing",
	Description: "A `# pvlint:ignore` comment, an `ignore.pvlint.io/...` annotation or a configuration ignore entry is wrong: it gives no reason, " +
		"names a rule that does not exist, is past its `exp:` date, or matches no finding (the hazard was fixed, or the comment is in the wrong place). " +
		"A suppression without a reason, with a bad date or past its date does not apply, so the finding it meant to hide is reported too.",
	Remediation: "Write the reason after the rule (`# pvlint:ignore PVL003 single replica by design`), fix the rule ID or name, renew or remove an expired suppression, and delete suppressions that match nothing.",
	Doc:         docs.Page("PVL900"),
	Tags:        []string{"suppression"},
}

// Ignore is a configuration file's ignore entry: an external suppression.
type Ignore struct {
	// Rule is the rule ignored; nil means every rule.
	Rule *lint.Rule
	// Paths are globs (see MatchPath) relative to Root; a finding is in scope when its
	// file or its resource's file matches one. Empty means every file.
	Paths []string
	// Resources are Kind/namespace/name patterns (see MatchResource). Empty means
	// every resource.
	Resources []string
	// Reason is the justification; the configuration requires one.
	Reason string
	// Expires is the last day the entry applies; zero means never.
	Expires time.Time
	// Root is the directory Paths are relative to: the configuration file's.
	Root string
	// Location is the entry in the configuration file.
	Location graph.Range
}

// Options configure Apply.
type Options struct {
	// Rules resolves the rule IDs and names suppressions use: the whole catalogue,
	// custom rules included.
	Rules []*lint.Rule
	// Ran reports whether a rule ran in this invocation; a suppression of a rule that
	// did not run is not reported as unused. Nil means every rule ran.
	Ran func(*lint.Rule) bool
	// Today decides expiry (a suppression applies through its exp: date).
	Today time.Time
	// Inline reads comments and annotations; false ignores them all, for audits
	// (--no-inline-suppressions).
	Inline bool
	// Ignores are the configuration file's entries.
	Ignores []Ignore
	// Dir is the working directory that finding file names are relative to.
	Dir string
}

// Apply marks the findings that a suppression covers and appends a PVL900 finding
// for every wrong suppression. sources are the input texts comments are read from
// (load.Result.Sources); resources carry the annotations. Findings of rules that
// ran in several worlds may repeat; a suppression is used if it covers any of them.
func Apply(findings []lint.Finding, resources []*graph.Resource, sources map[string][]byte, opts Options) []lint.Finding {
	ran := opts.Ran
	if ran == nil {
		ran = func(*lint.Rule) bool { return true }
	}
	today := date(opts.Today)
	idx := &index{byLine: map[fileLine][]*directive{}, byResource: map[*graph.Resource][]*directive{}}
	if opts.Inline {
		idx.collect(findings, resources, sources, opts.Rules)
	}
	out := make([]lint.Finding, 0, len(findings))
	for _, f := range findings {
		if f.Rule != Problem && f.Suppression == nil {
			f.Suppression = idx.suppress(f, today)
		}
		out = append(out, f)
	}
	if ran(Problem) {
		out = append(out, idx.problems(today, ran, opts.Rules)...)
	}
	for i := range out {
		if out[i].Suppression == nil {
			out[i].Suppression = external(out[i], opts, today)
		}
	}
	if ran(Problem) {
		for _, ig := range opts.Ignores {
			if expired(ig.Expires, today) {
				out = append(out, lint.Finding{Rule: Problem, Severity: Problem.Severity, Range: ig.Location,
					Message: "ignore entry for " + ruleLabel(ig.Rule) + " expired on " + ig.Expires.Format(time.DateOnly) + " and no longer applies"})
			}
		}
	}
	return out
}

// suppress returns the suppression of the first valid directive covering f, and
// marks every directive that names f's rule as used.
func (idx *index) suppress(f lint.Finding, today time.Time) *lint.Suppression {
	var s *lint.Suppression
	for _, d := range idx.covering(f) {
		named := false
		for _, t := range d.tokens {
			if t.names(f.Rule) {
				t.used, named = true, true
			}
		}
		if named && s == nil && d.broken == "" && !expired(d.expires, today) {
			s = &lint.Suppression{Kind: d.kind, Justification: d.reason, Expires: d.expires, Location: d.at}
		}
	}
	return s
}

// problems reports each wrong directive once: broken, expired, then per rule unknown
// or unused. A suppression of a rule that did not run is not unused; neither is "all"
// when some rule did not run.
func (idx *index) problems(today time.Time, ran func(*lint.Rule) bool, rules []*lint.Rule) []lint.Finding {
	allRan := true
	for _, r := range rules {
		if r.Check != nil && !ran(r) {
			allRan = false
		}
	}
	var out []lint.Finding
	report := func(d *directive, msg string) {
		f := lint.Finding{Rule: Problem, Severity: Problem.Severity, Range: d.at, Resource: d.resource, Message: d.label + " " + msg}
		out = append(out, f)
	}
	for _, d := range idx.all {
		switch {
		case d.broken != "":
			report(d, d.broken+", so it does not apply")
			continue
		case expired(d.expires, today):
			report(d, "expired on "+d.expires.Format(time.DateOnly)+" and no longer applies")
			continue
		}
		for _, t := range d.tokens {
			switch {
			case !t.all && t.rule == nil:
				report(d, "names unknown rule "+strconv.Quote(t.text))
			case t.used:
			case t.all && allRan, t.rule != nil && ran(t.rule):
				what := "matches no finding"
				if len(d.tokens) > 1 {
					what = "matches no finding of " + t.text
				}
				report(d, what)
			}
		}
	}
	return out
}

// external returns the suppression of the first configuration entry covering f.
func external(f lint.Finding, opts Options, today time.Time) *lint.Suppression {
	for _, ig := range opts.Ignores {
		if ig.Rule != nil && ig.Rule != f.Rule || expired(ig.Expires, today) {
			continue
		}
		if len(ig.Paths) > 0 && !inPaths(f, ig, opts.Dir) {
			continue
		}
		if len(ig.Resources) > 0 && !anyResource(f.Resource, ig.Resources) {
			continue
		}
		return &lint.Suppression{Kind: lint.External, Justification: ig.Reason, Expires: ig.Expires, Location: ig.Location}
	}
	return nil
}

func anyResource(r *graph.Resource, patterns []string) bool {
	for _, p := range patterns {
		if MatchResource(p, r) {
			return true
		}
	}
	return false
}

func ruleLabel(r *lint.Rule) string {
	if r == nil {
		return "all rules"
	}
	return r.ID
}

// date drops the time of day, in t's own location, so expiry is decided by the
// calendar day where pvlint runs.
func date(t time.Time) time.Time {
	y, m, d := t.Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// expired reports whether a suppression valid through exp no longer applies today.
func expired(exp, today time.Time) bool { return !exp.IsZero() && today.After(exp) }

// inPaths reports whether f's file, or its resource's, matches one of ig's globs.
func inPaths(f lint.Finding, ig Ignore, dir string) bool {
	files := []string{f.Range.File}
	if r := f.Resource; r != nil {
		files = append(files, r.Origin.File, r.Range.File)
	}
	for _, file := range files {
		rel, ok := relative(file, ig.Root, dir)
		if !ok {
			continue
		}
		for _, p := range ig.Paths {
			if MatchPath(p, rel) {
				return true
			}
		}
	}
	return false
}

// trimDot removes a leading "./" users often write in globs.
func trimDot(p string) string {
	for strings.HasPrefix(p, "./") {
		p = p[2:]
	}
	return p
}
