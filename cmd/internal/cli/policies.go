package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/policy"
)

// catalogue is the run's rules: e.Rules (rules.All() by default) followed by the
// custom rules of the --policy paths and of the configuration's policies. A policy
// that cannot be read or compiled, or whose ID or name is taken, is a configuration
// error.
func (e *Env) catalogue(c *Config, cfg *config.Config, dir string) ([]*lint.Rule, error) {
	all := e.Rules
	if all == nil {
		all = rules.All()
	}
	if len(c.Policies)+len(cfg.Policies) == 0 {
		return all, nil
	}
	keep := func(name string) bool { return !policy.IsTest(name) }
	gatekeeper := gatekeeperOn(c, cfg)
	mods, err := readPolicies(regoPaths(c.Policies, gatekeeper), keep, nil)
	if err != nil {
		return nil, err
	}
	var paths []string
	for _, p := range cfg.Policies {
		paths = append(paths, displayPath(dir, p))
	}
	paths = regoPaths(paths, gatekeeper)
	// A configuration file found in the tree may only bring policies from inside its
	// checkout: each file is checked, since a directory may hold links to outside.
	var confine func(string) bool
	if cfg.Root != "" {
		confine = func(p string) bool { return config.Inside(cfg.Root, p) }
	}
	more, err := readPolicies(paths, keep, confine)
	if err != nil {
		return nil, err
	}
	mods = append(mods, more...)
	if len(mods) == 0 {
		return all, nil // Gatekeeper templates only
	}
	custom, err := policy.Compile(mods, policy.Options{Custom: true, Budget: c.PolicyTimeout,
		Isolate: e.policyWorkers.isolate(limitValue(c.Limits, "policy-memory"))})
	if err != nil {
		return nil, err
	}
	return rules.WithCustom(all, custom)
}

// maxPolicySize bounds one policy file.
const maxPolicySize = 8 << 20

// readPolicies reads the .rego files that keep accepts from each path: a directory
// (walked, hidden directories skipped) or a file. Module names are the paths as the
// user wrote them, joined with the file's path in the directory, so that errors and
// findings point at files the user can open. When confine is not nil, every file's
// absolute path must satisfy it (symbolic links resolved) before it is opened. Only
// regular files are read, decided before opening.
func readPolicies(paths []string, keep func(name string) bool, confine func(abs string) bool) ([]policy.Module, error) {
	var mods []policy.Module
	read := func(p, file string) ([]byte, error) {
		if confine != nil {
			abs, err := filepath.Abs(file)
			if err != nil {
				return nil, err
			}
			if !confine(abs) {
				return nil, fmt.Errorf("%s is a link to outside the checkout; not read", filepath.ToSlash(file))
			}
		}
		b, err := config.ReadRegular(file, maxPolicySize)
		if err != nil && file != p {
			err = fmt.Errorf("%s: %w", filepath.ToSlash(file), err)
		}
		return b, err
	}
	for _, p := range paths {
		if confine != nil {
			if abs, err := filepath.Abs(p); err != nil || !confine(abs) {
				return nil, fmt.Errorf("--policy %s: outside the checkout; not read", p)
			}
		}
		info, err := os.Stat(p)
		if err != nil {
			return nil, fmt.Errorf("--policy %s: %w", p, unwrapPathError(err))
		}
		if !info.IsDir() {
			b, err := read(p, p)
			if err != nil {
				return nil, fmt.Errorf("--policy %s: %w", p, err)
			}
			mods = append(mods, policy.Module{Name: filepath.ToSlash(p), Source: string(b)})
			continue
		}
		n := len(mods)
		err = filepath.WalkDir(p, func(file string, d os.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && file != p && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			case d.IsDir() || path.Ext(d.Name()) != ".rego" || !keep(d.Name()):
				return nil
			}
			b, err := read(p, file)
			if err != nil {
				return err
			}
			mods = append(mods, policy.Module{Name: filepath.ToSlash(file), Source: string(b)})
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("--policy %s: %w", p, err)
		}
		if len(mods) == n {
			return nil, fmt.Errorf("--policy %s: no .rego files", p)
		}
	}
	return mods, nil
}

// unwrapPathError drops the path os errors repeat, which the message already names.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// limitValue is the value --limit gave the named limit, or 0 when none did.
func limitValue(limits []Limit, name string) int64 {
	var v int64
	for _, l := range limits {
		if l.Name() == name {
			v = l.Value
		}
	}
	return v
}

// budgetDiagnostics turns a rule's failure into PVL000 diagnostics when every error it
// joins is a custom policy that ran out of its time or memory budget or whose worker
// process died (policy.EvalError.Died: nested too deeply, a crash): such a policy
// is untrusted code that costs only its own findings (those it made so far are kept),
// as a chart or Terraform module that runs out of its budget does, and the run goes
// on to its usual exit code. The diagnostic is at the policy's file. A Gatekeeper
// template's run-time error (EvalError.At set) is one too, at the template: templates
// come with the linted inputs, as charts do. Any other failure (a custom policy's
// run-time error, a bug in pvlint) stays a run error (exit 2).
func budgetDiagnostics(err error, variant string) ([]graph.Diagnostic, bool) {
	var out []graph.Diagnostic
	for _, e := range flatten(err) {
		var pe *policy.EvalError
		if !errors.As(e, &pe) || pe.Rule == nil || !pe.RunSpent && (pe.Rule.Policy == "" || (pe.Budget <= 0 && pe.Memory <= 0 && pe.Died == "" && !pe.At.IsValid())) {
			return nil, false
		}
		hint := "--policy-timeout gives it longer"
		switch {
		case pe.RunSpent:
			hint = "--limit run-time gives the run longer"
		case pe.Memory > 0:
			hint = "--limit policy-memory gives it more"
		case pe.Died != "":
			hint = "the policy must be fixed"
		case pe.Budget <= 0:
			hint = "the template's Rego must be fixed"
		}
		at := pe.At
		if !at.IsValid() {
			at = graph.Range{File: pe.File, Start: graph.NewPos(1, 1, 0)}
		}
		out = append(out, graph.Diagnostic{
			Range:   at,
			Message: pe.Error() + "; its findings so far are reported, " + hint,
			Variant: variant,
		})
	}
	return out, len(out) > 0
}

// runSpent counts the policy evaluations in a rule's failure that the run's time
// budget stopped (policy.EvalError.RunSpent).
func runSpent(err error) int {
	n := 0
	for _, e := range flatten(err) {
		var pe *policy.EvalError
		if errors.As(e, &pe) && pe.RunSpent {
			n++
		}
	}
	return n
}

// unlintedWorld is the PVL000 of a world whose rules did not run because the run's
// time budget was spent: at the first resource of the world's own (its variant's, or
// the base's for the base world), which names the chart, build or file left unlinted.
func unlintedWorld(w rules.World) graph.Diagnostic {
	at := graph.Range{File: ".", Start: graph.NewPos(1, 1, 0)}
	for _, r := range w.Graph.Resources {
		if !r.IsContext() && r.Origin.Variant == w.Name && r.Range.File != "" {
			at = graph.Range{File: r.Range.File, Start: r.Range.Start}
			break
		}
	}
	what := "the inputs"
	if w.Name != "" {
		what = "the variant " + w.Name
	}
	return graph.Diagnostic{Range: at, Variant: w.Name,
		Message: "the rules did not run on " + what + ": the run's time budget was spent (--limit run-time)"}
}

// reportRunErrors prints the errors rules recorded during a run. A user's policy
// that failed (its time budget ran out, a run-time error) is the user's to fix; any
// other failure is a bug in pvlint, and the message asks for a report.
func reportRunErrors(w io.Writer, errs []error) {
	for _, err := range errs {
		for _, e := range flatten(err) {
			var pe *policy.EvalError
			switch {
			case errors.As(e, &pe) && pe.Rule != nil && pe.Rule.Policy != "" && pe.Budget > 0:
				fmt.Fprintf(w, "pvlint: %v; its findings so far are reported, --policy-timeout gives it longer\n", pe)
			case errors.As(e, &pe) && pe.Rule != nil && pe.Rule.Policy != "" && pe.Memory > 0:
				fmt.Fprintf(w, "pvlint: %v; its findings so far are reported, --limit policy-memory gives it more\n", pe)
			case errors.As(e, &pe) && pe.Rule != nil && pe.Rule.Policy != "":
				fmt.Fprintf(w, "pvlint: %v\n", pe)
			default:
				fmt.Fprintf(w, "pvlint: %v\npvlint: this is a bug in pvlint; please report it at %s/issues with the input that caused it\n", err, Home)
				return
			}
		}
	}
}

// flatten returns the errors a driver error joins (errors.Join under a "rule ...:"
// wrap), or err itself.
func flatten(err error) []error {
	for e := err; e != nil; e = errors.Unwrap(e) {
		if j, ok := e.(interface{ Unwrap() []error }); ok {
			return j.Unwrap()
		}
	}
	return []error{err}
}
