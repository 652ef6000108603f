package cli

import (
	"fmt"
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
	findings   []lint.Finding   // reported, and decide the exit code
	suppressed []lint.Finding   // accepted with a reason; shown, never failing
	baseline   *output.Baseline // nil without --baseline or --write-baseline
}

// accept applies, in order: suppressions (inline unless --no-inline-suppressions,
// then the configuration's ignore entries), which add PVL900 findings for wrong
// ones; the configuration's rule levels, to every finding of a rule, PVL900 and
// custom rules included; and the baseline, written first with --write-baseline.
// Baselined findings are left out of every format, since a baseline exists to report
// only what is new; suppressed ones are kept, since each says why.
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
	out := &accepted{}
	for _, f := range findings {
		if sev, ok := rs.Severity[f.Rule]; ok {
			f.Severity = sev
		}
		if f.Suppression != nil {
			out.suppressed = append(out.suppressed, f)
		} else {
			out.findings = append(out.findings, f)
		}
	}
	out.findings, out.suppressed = merge(out.findings), merge(out.suppressed)
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
