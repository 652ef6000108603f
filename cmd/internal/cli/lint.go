package cli

import (
	"bufio"
	"fmt"
	"github.com/pvlint/pvlint/parsers/load/scan"
	"github.com/pvlint/pvlint/parsers/worker"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/output"
	"github.com/pvlint/pvlint/cmd/internal/storagegraph"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/parsers/terraform"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

// lint is a lint run: analyse the inputs, resolve the findings' fixes against the
// files (for SARIF), write the report and turn it into an exit code.
func (e *Env) lint(c *Config) int {
	an, err := e.analyze(c)
	if err != nil {
		return e.fail(err)
	}
	p := an.plan
	c = p.c // the command line with the configuration file's settings
	acc, res, internal, dir := an.acc, an.res, an.internal, p.dir
	if c.NewFromPatch != "" {
		if err := keepNew(c.NewFromPatch, dir, acc); err != nil {
			return e.fail(err)
		}
	}
	if c.NewFromRev != "" {
		if err := e.keepNewSinceRev(c, dir, acc); err != nil {
			return e.fail(err)
		}
		an.stages.done("revision")
	}
	if e.backstop != nil {
		e.backstop.Stop() // the analyses are done: what is left is writing the reports
	}
	reported := acc.reported()
	rep := &output.Report{
		Tool:     output.Tool{Name: "pvlint", Version: Version(), InformationURI: Home},
		Rules:    p.catalogue,
		Findings: acc.findings,
		Baseline: acc.baseline,
		Sources:  res.Sources,
		Fixes:    resolveFixes(reported, res.Sources, c.UnsafeFixes),
		Dir:      dir,
		Quiet:    c.Quiet,
		Explored: exploreSummary(res.Explorations),
	}
	if rs := res.Releases; rs.Rendered+rs.Unrendered > 0 {
		rep.Releases = &output.Releases{Rendered: rs.Rendered, Unrendered: rs.Unrendered}
	}
	for _, err := range internal {
		rep.InternalErrors = append(rep.InternalErrors, err.Error())
	}
	code := exitCode(reported, c.FailOn)
	if an.noObjects && code == ExitOK {
		code = ExitFindings // --fail-if-no-objects
	}
	if an.unfinished > 0 {
		// A report the run's budget cut short must not pass as clean, nor as an
		// ordinary failure: CI learns the result is incomplete.
		fmt.Fprintf(e.Stderr, "pvlint: the run's time budget of %s (--limit run-time) was spent: %d input%s not linted, each a PVL000; the report is incomplete\n",
			runTime(c.Limits), an.unfinished, plural(an.unfinished))
		code = ExitIncomplete
	}
	var pic *storagegraph.Picture
	if drawsGraph(p.outputs) {
		// The pictures (--format mermaid or dot) draw the parts of the storage graph
		// that carry a reported finding, as pvlint graph --findings-only does.
		pic = storagegraph.Build(an.worlds, reported).FindingsOnly()
	}
	for _, err := range e.write(p, rep, pic) {
		fmt.Fprintf(e.Stderr, "pvlint: %v\n", err)
		code = ExitError
	}
	if c.Verbose {
		an.stages.done("report")
		e.verbose(c, p.cfg, res, an.stages)
		verboseExplore(e.Stderr, res.Explorations)
	}
	if len(internal) > 0 {
		reportRunErrors(e.Stderr, internal)
		code = ExitError
	}
	return code
}

// backstopGrace is how long a run may go on after its time budget is spent before
// the backstop stops the process without a report: inputs and policies stop at the
// budget themselves, and the grace covers what cannot be cut where it runs (a
// kustomize build, a YAML parse of the largest file allowed) while the report of
// what was done is assembled. A tenth of the budget, at least a minute.
var backstopGrace = func(budget time.Duration) time.Duration {
	return max(budget/10, time.Minute)
}

// analysis is what a run found before it is reported: the accepted and suppressed
// findings, the loaded inputs, and the failures it survived.
type analysis struct {
	plan     *plan // what the run was asked to do, resolved
	res      *load.Result
	acc      *accepted
	internal []error
	// stages times the run (--verbose).
	stages *stages
	// noObjects is set when the inputs held no object and --fail-if-no-objects
	// makes that a failure.
	noObjects bool
	// unfinished counts the inputs, worlds and policy evaluations the run's time
	// budget (--limit run-time) stopped or never started, each a PVL000.
	unfinished int
	// worlds are the worlds' graphs, kept when the Env asked for them (keepWorlds:
	// pvlint graph) or a report draws them (--format mermaid or dot).
	worlds []storagegraph.World
}

// analyze loads the inputs, runs the rules over each world, merges the findings and
// applies suppressions and the baseline: everything lint and fix share.
func (e *Env) analyze(c *Config) (*analysis, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	if e.deadline.IsZero() {
		budget := runTime(c.Limits)
		e.deadline = time.Now().Add(budget)
		if e.Exit != nil {
			grace := backstopGrace(budget)
			stderr := e.Stderr
			e.backstop = time.AfterFunc(budget+grace, func() {
				fmt.Fprintf(stderr, "pvlint: the run's time budget of %s (--limit run-time) was spent and the run did not stop within %s after it: stopped without a report\n", budget, grace)
				e.Exit(ExitIncomplete)
			})
		}
	}
	return e.analyzeIn(c, dir)
}

// analyzeIn is analyze as if run in dir: plan, load, run the rules over every world,
// merge, then accept (suppressions, levels, baseline).
func (e *Env) analyzeIn(c *Config, dir string) (*analysis, error) {
	st := newStages()
	e.prestart(c, dir)
	e.policyWorkers = e.newPolicyWorkers(c)
	defer e.policyWorkers.close()
	p, err := e.newPlan(c, dir)
	if err != nil {
		if e.workers != nil {
			e.workers.Close()
		}
		return nil, err
	}
	c = p.c
	if !e.deadline.IsZero() {
		p.load.Deadline, p.opts.Deadline = e.deadline, e.deadline
	}
	st.done("setup")
	res := e.loadInputs(p)
	unfinished := res.Unfinished
	st.done("load")
	noObjects := e.noObjects(c, res)
	var findings []lint.Finding
	if c.Gatekeeper {
		// The constraints are known once the inputs are read: they join the
		// catalogue and run in every world.
		gk, problems, err := e.gatekeeper(p, res)
		if err != nil {
			return nil, err
		}
		if err := p.addConstraints(gk); err != nil {
			return nil, err
		}
		if !p.opts.Disabled[rules.ParseError] {
			findings = append(findings, problems...)
		}
	}
	internal := res.Internal // parser panics, each naming its input
	seen := map[string]bool{}
	var budgets []graph.Diagnostic // custom policies past their budgets
	var drawn []storagegraph.World
	keep := e.keepWorlds || drawsGraph(p.outputs)
	e.keepWorlds = false // not the analysis at an old revision (--new-from-rev)
	for w := range p.worlds(res) {
		if keep {
			drawn = append(drawn, storagegraph.World{Name: w.Name, Graph: w.Graph})
		}
		if w.Unlinted {
			budgets = append(budgets, unlintedWorld(w))
			unfinished++
			continue
		}
		findings = append(findings, w.Findings...)
		for _, err := range w.Errs {
			if ds, ok := budgetDiagnostics(err, w.Name); ok {
				budgets = append(budgets, ds...)
				unfinished += runSpent(err)
				continue
			}
			// A rule that fails on a base resource fails the same way in every world;
			// the first line names the rule and the panic, the stack may differ.
			if first := firstLine(err); !seen[first] {
				seen[first] = true
				internal = append(internal, err)
			}
		}
	}
	findings = reachable(findings, res)
	if !p.opts.Disabled[rules.ParseError] {
		findings = append(findings, rules.Diagnostics(res.Diagnostics)...)
	}
	// A policy past its budget is reported even with PVL000 disabled: its findings are
	// incomplete, which the user must learn.
	findings = append(findings, rules.Diagnostics(budgets)...)
	st.done("rules")
	if e.AfterRules != nil {
		e.AfterRules()
	}
	acc, err := e.accept(p, findings, res, time.Now())
	if err != nil {
		return nil, err
	}
	st.done("suppressions")
	return &analysis{plan: p, res: res, acc: acc, internal: internal, stages: st, noObjects: noObjects, unfinished: unfinished, worlds: drawn}, nil
}

// loadInputs reads what the plan names, with its loader options and, when the Env
// isolates evaluations, a worker pool for this load alone. Standard input is not
// read unless "-" or --stdin-filename asks: a pipe with no such path gets a hint,
// except under pre-commit (PRE_COMMIT=1), which gives every hook a pipe it never writes.
func (e *Env) loadInputs(p *plan) *load.Result {
	c := p.c
	if len(c.Paths) == 0 && c.StdinFilename == "" && e.IsPipe != nil && e.IsPipe(e.Stdin) && !c.Quiet && e.Getenv("PRE_COMMIT") != "1" {
		fmt.Fprintln(e.Stderr, stdinHint)
	}
	lo := p.load
	if e.Isolate {
		// Workers start on the first chart or module, so a run without any starts none
		// (or earlier, when prestart saw one).
		lo.Workers = e.workers
		if lo.Workers == nil {
			lo.Workers = worker.NewPool(poolSize(lo.Budgets), lo.Budgets.Eval)
		}
		if lo.Workers != nil {
			// The pool serves this load only: a later one (--new-from-rev's run at the
			// old revision) starts its own.
			defer func(p *worker.Pool) {
				p.Close()
				e.workers = nil
			}(lo.Workers)
		}
	}
	if e.Progress != nil && !c.Quiet {
		lo.Progress = &load.Progress{}
		defer e.showProgress(lo.Progress)()
	}
	return load.Load(p.paths, lo)
}

// showProgress shows on e.Progress, once the load has lasted progressAfter and then
// five times a second, what it has done (files found, manifests parsed, charts
// rendered...) on one line, which the function it returns clears.
func (e *Env) showProgress(pr *load.Progress) (stop func()) {
	after := e.progressAfter
	if after == 0 {
		after = time.Second
	}
	done, finished := make(chan struct{}), make(chan struct{})
	shown := false
	show := func() {
		fmt.Fprintf(e.Progress, "\r\x1b[Kpvlint: reading: %s", pr)
		shown = true
	}
	go func() {
		defer close(finished)
		if after < 0 {
			show()
		} else {
			t := time.NewTimer(after)
			defer t.Stop()
			select {
			case <-done:
				return
			case <-t.C:
				show()
			}
		}
		tick := time.NewTicker(200 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
				show()
			}
		}
	}()
	return func() {
		close(done)
		<-finished
		if shown {
			fmt.Fprint(e.Progress, "\r\x1b[K")
		}
	}
}

// prestart creates the run's worker pool and, when the paths hold a Helm chart or a
// Terraform file, starts its workers while the run compiles its policies and reads
// its configuration: a worker's start-up then costs the run no wall time on a
// machine with a processor to spare. A run with neither starts no process.
func (e *Env) prestart(c *Config, dir string) {
	if !e.Isolate || e.workers != nil {
		return
	}
	o := e.loadOptions(c, dir)
	e.workers = worker.NewPool(poolSize(o.Budgets), o.Budgets.Eval)
	if e.workers == nil {
		return
	}
	paths := c.Paths
	if len(paths) == 0 && c.StdinFilename == "" {
		paths = []string{"."}
	}
	go func(p *worker.Pool) {
		// One worker: each costs a process start-up and its warm-up in CPU, more than
		// a small chart's render, so a repository of small charts is served fastest
		// by one; the pool starts more (up to one per processor) as soon as calls wait
		// for a busy worker (slow charts, Terraform beside charts).
		// The count is the one the command began as it initialised when the command
		// line was a lint run of these paths (package early), which also started the
		// worker this Prestart adopts; a worker begun there for nothing is stopped.
		if scan.Evaluables(dir, paths, 1) > 0 {
			p.Prestart(1)
		} else {
			worker.ReleaseEarly()
		}
	}(e.workers)
}

// poolSize is how many workers may evaluate at once: one per processor, as long as
// their memory budgets together stay within the run's, which also leaves room for
// pvlint's own process (one more evaluation's worth).
func poolSize(b load.Budgets) int {
	n := int(b.Run/max(b.Eval.Memory, 1)) - 1
	return max(1, min(n, runtime.GOMAXPROCS(0)))
}

// loadOptions maps the configuration to the loader's options: the place where flags
// for input formats (Helm values, Kustomize, Terraform) reach the parsers.
func (e *Env) loadOptions(c *Config, dir string) load.Options {
	h := c.Helm
	h.Namespace, h.KubeVersion = c.Namespace, c.KubeVersion.String()+".0"
	if c.ExploreValues {
		h.Explore = &helm.Explore{}
		h.ChartValues = true
	}
	o := load.Options{Dir: dir, Stdin: e.Stdin, StdinName: c.StdinFilename, Budgets: load.DefaultBudgets,
		Terraform: terraform.Options{Vars: c.TerraformVars}, Helm: h, BeforeParse: e.BeforeParse, NoGitignore: c.NoGitignore}
	applyLimits(&o, c.Limits) // before configureLoad copies Helm's options per chart
	o.Context = c.Context
	o.Repositories = c.Repositories
	for _, d := range c.Charts {
		if !filepath.IsAbs(d) {
			d = filepath.Join(dir, d)
		}
		o.Charts = append(o.Charts, filepath.Clean(d))
	}
	o.Profiles = profiles(c.Clusters)
	return o
}

// profiles resolves the --cluster names (checked when parsed), each profile once.
func profiles(names []string) []*graph.Platform {
	var out []*graph.Platform
	for _, n := range names {
		if p := graph.FindPlatform(n); p != nil && !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out
}

// provisionerTable is the built-in provisioner table plus the drivers the user
// declared (--provisioner-class), built once per run and only read by the worlds.
func provisionerTable(c *Config) *graph.ProvisionerTable {
	t := graph.DefaultProvisioners() // a fresh copy: the run may add rows
	for _, p := range c.Provisioners {
		t.Set(p)
	}
	return t
}

// write renders every report the command line asked for: to its file, or to
// standard output with colour only for a terminal, and never with --no-color,
// NO_COLOR or TERM=dumb. A report that cannot be written does not stop the others.
// pic is the findings' storage graph the picture formats draw (nil without one);
// a picture of no finding is an empty report.
func (e *Env) write(p *plan, rep *output.Report, pic *storagegraph.Picture) []error {
	c := p.c
	var errs []error
	for _, t := range p.outputs {
		if t.Draw != nil {
			t.Format.Write = func(w io.Writer, _ *output.Report) error {
				if pic == nil || len(pic.Subgraphs) == 0 {
					return nil
				}
				return t.Draw(w, pic)
			}
		}
		r := *rep
		if t.File == "" {
			r.Color = e.colorFor(c)
			if err := t.Format.Write(e.Stdout, &r); err != nil {
				errs = append(errs, fmt.Errorf("write %s report: %w", t.Format.Name, err))
			}
			continue
		}
		r.Color = false
		if err := writeFile(t.File, t.Format, &r); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// writeFile streams a report into its file (created or truncated, as os.WriteFile
// does) through a buffer of a block: a report of a large repository is never held
// whole in memory.
func writeFile(name string, format output.Format, r *output.Report) error {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return fmt.Errorf("write report: %w", err)
	}
	w := bufio.NewWriterSize(f, 64<<10)
	err = format.Write(w, r)
	if err != nil {
		err = fmt.Errorf("write %s report: %w", format.Name, err)
	} else if err = w.Flush(); err != nil {
		err = fmt.Errorf("write report: %w", err)
	}
	if cerr := f.Close(); cerr != nil && err == nil {
		err = fmt.Errorf("write report: %w", cerr)
	}
	return err
}

// merge drops exact duplicates — a plain manifest joins every Helm or Kustomize
// world, so its findings come once per world — and sorts by file, position and rule
// so output is the same whatever order worlds and rules ran in.
func merge(findings []lint.Finding) []lint.Finding {
	type key struct {
		rule    string
		rng     graph.Range
		message string
	}
	// A finding that holds in several variants (worlds) is one finding naming every
	// variant it holds in, never one attributed to the first variant alone.
	seen := make(map[key]int, len(findings))
	out := make([]lint.Finding, 0, len(findings))
	for _, f := range findings {
		k := key{ruleID(f), f.Range, f.Message}
		if i, ok := seen[k]; ok {
			if kept := &out[i]; kept.Variant != "" && f.Variant != "" && !slices.Contains(kept.Variants(), f.Variant) {
				kept.AlsoIn = append(kept.AlsoIn, f.Variant)
			}
			continue
		}
		seen[k] = len(out)
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		switch {
		case a.Range.File != b.Range.File:
			return a.Range.File < b.Range.File
		case a.Range.Start.Line != b.Range.Start.Line:
			return a.Range.Start.Line < b.Range.Start.Line
		case a.Range.Start.Column != b.Range.Start.Column:
			return a.Range.Start.Column < b.Range.Start.Column
		case ruleID(a) != ruleID(b):
			return ruleID(a) < ruleID(b)
		case a.Message != b.Message:
			return a.Message < b.Message
		}
		return a.Variant < b.Variant
	})
	return out
}

// exitCode is ExitFindings when a finding is at or above failOn (SeverityNone:
// never).
func exitCode(findings []lint.Finding, failOn lint.Severity) int {
	if failOn == lint.SeverityNone {
		return ExitOK
	}
	for _, f := range findings {
		if f.Severity >= failOn {
			return ExitFindings
		}
	}
	return ExitOK
}

// ruleID tolerates a finding without a rule, which the driver never produces.
func ruleID(f lint.Finding) string {
	if f.Rule == nil {
		return ""
	}
	return f.Rule.ID
}
