package cli

import (
	"fmt"
	"path/filepath"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/output"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/baseline"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
)

// accepted is what a run reports after suppressions and the baseline.
type accepted struct {
	// findings are the run's findings, merged and sorted once: those reported
	// (Suppression nil), which decide the exit code, and those accepted with a reason
	// (shown, never failing). Baselined findings are left out.
	findings []lint.Finding
	baseline *output.Baseline // nil without --baseline or --write-baseline
}

// reported are the findings that are not suppressed, in order.
func (a *accepted) reported() []lint.Finding {
	out := make([]lint.Finding, 0, len(a.findings))
	for _, f := range a.findings {
		if f.Suppression == nil {
			out = append(out, f)
		}
	}
	return out
}

// addDiagnostic adds a PVL000 finding at line 1 of file (absolute, or relative to
// dir) to the reported findings, in their order.
func (a *accepted) addDiagnostic(dir, file, msg string) {
	a.addDiagnosticAt(dir, file, 1, msg)
}

// addDiagnosticAt adds a PVL000 finding at a line of file.
func (a *accepted) addDiagnosticAt(dir, file string, line int, msg string) {
	if filepath.IsAbs(file) {
		if rel, err := filepath.Rel(dir, file); err == nil {
			file = rel
		}
	}
	d := graph.Diagnostic{Range: graph.Range{File: filepath.ToSlash(file), Start: graph.NewPos(line, 1, 0)}, Message: msg}
	a.findings = merge(append(a.findings, rules.Diagnostics([]graph.Diagnostic{d})...))
}

// accept takes the findings of every world (and the diagnostics) and applies, in
// order: suppressions (inline unless --no-inline-suppressions,
// then the configuration's ignore entries), which add PVL900 findings for wrong
// ones; the configuration's rule levels, to every finding of a rule, PVL900 and
// custom rules included; and the baseline, written first with --write-baseline.
// Baselined findings are left out of every format, since a baseline exists to report
// only what is new; suppressed ones are kept, since each says why. The findings are
// merged once (merge), after suppressions, which add PVL900 findings.
func (e *Env) accept(p *plan, findings []lint.Finding, res *load.Result, now time.Time) (*accepted, error) {
	c, opts, rs := p.c, p.opts, p.resolved
	resources := append([]*graph.Resource(nil), res.Base...)
	for _, v := range res.Variants {
		resources = append(resources, v.Resources...)
	}
	// PVL900, like PVL000, is reported by the engine rather than run: only --disable
	// (or off in the configuration) silences it.
	ran := func(r *lint.Rule) bool {
		if r == suppress.Problem || r == rules.ParseError {
			return !opts.Disabled[r]
		}
		return opts.Runs(r)
	}
	findings = suppress.Apply(findings, resources, res.Sources, suppress.Options{
		Rules: p.catalogue, Ran: ran, Today: now, Inline: !c.NoInline, Ignores: rs.Ignores, Dir: p.dir,
	})
	kept := findings[:0]
	for _, f := range findings {
		if sev, ok := rs.Severity[f.Rule]; ok {
			f.Severity = sev
		}
		if f.Reachable != "" {
			// What only an explored combination of values reaches: a note unless
			// explore.levels says otherwise (off drops it).
			sev, ok := rs.Explore[f.Rule]
			if !ok {
				sev = lint.Note
			}
			if sev == lint.SeverityNone {
				continue
			}
			f.Severity = sev
		}
		kept = append(kept, f)
	}
	findings = kept
	out := &accepted{findings: merge(findings)}
	var b *baseline.Baseline
	var file string
	switch {
	case c.WriteBaseline != "":
		b, file = baseline.New(out.findings), c.WriteBaseline
		if err := b.WriteFile(file); err != nil {
			return nil, err
		}
		fmt.Fprintf(e.Stderr, "pvlint: wrote %d findings to baseline %s\n", len(b.Entries), file)
	case c.Baseline != "":
		var err error
		if b, err = baseline.ReadFile(c.Baseline); err != nil {
			return nil, err
		}
		file = c.Baseline
	default:
		return out, nil
	}
	kept, r := b.Filter(out.findings)
	out.findings = kept
	out.baseline = &output.Baseline{File: file, Matched: r.Matched, Stale: len(r.Stale)}
	return out, nil
}
