package cli

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/policy"
)

// gatekeeperOn reports whether the run evaluates Gatekeeper policies: --gatekeeper,
// or `gatekeeper: true` in the configuration when the flag is not given.
func gatekeeperOn(c *Config, cfg *config.Config) bool {
	if c.Explicit["gatekeeper"] || cfg == nil || cfg.Gatekeeper == nil {
		return c.Gatekeeper
	}
	return *cfg.Gatekeeper
}

// gatekeeperExt are the files of a --policy directory read for Gatekeeper resources.
var gatekeeperExt = map[string]bool{".yaml": true, ".yml": true, ".json": true}

// regoPaths drops, when Gatekeeper policies are evaluated, the --policy paths that
// hold no Rego for custom policies: a YAML or JSON file, a directory without .rego
// files. Those are read for ConstraintTemplates and constraints instead.
func regoPaths(paths []string, gatekeeper bool) []string {
	if !gatekeeper {
		return paths
	}
	var out []string
	for _, p := range paths {
		info, err := os.Stat(p)
		switch {
		case err != nil:
			out = append(out, p) // readPolicies reports it
		case !info.IsDir():
			if !gatekeeperExt[strings.ToLower(path.Ext(p))] {
				out = append(out, p)
			}
		case hasFile(p, func(name string) bool { return path.Ext(name) == ".rego" && !policy.IsTest(name) }):
			out = append(out, p)
		}
	}
	return out
}

// hasFile reports whether the directory tree under dir (hidden directories skipped)
// holds a file whose name keep accepts.
func hasFile(dir string, keep func(name string) bool) bool {
	found := false
	_ = filepath.WalkDir(dir, func(file string, d os.DirEntry, err error) error {
		switch {
		case err != nil || found:
			return filepath.SkipAll
		case d.IsDir() && file != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case !d.IsDir() && keep(d.Name()):
			found = true
			return filepath.SkipAll
		}
		return nil
	})
	return found
}

// gatekeeper compiles the run's Gatekeeper policies: the ConstraintTemplates and
// constraints among the loaded resources (every world's) and in the YAML and JSON
// files of the --policy paths and the configuration's policies. It returns one rule
// per constraint and a PVL000 finding per template or constraint that cannot be
// evaluated (a warning for a template pvlint does not support). A --policy path
// that cannot be read is a usage error, as it is for custom policies.
func (e *Env) gatekeeper(p *plan, res *load.Result) ([]*lint.Rule, []lint.Finding, error) {
	c, cfg, dir := p.c, p.cfg, p.dir
	var objects []*graph.Resource
	seen := map[*graph.Resource]bool{}
	for _, w := range res.Worlds() {
		for _, r := range w.Resources {
			// A snapshot's templates describe the cluster: only the repository's and
			// the --policy paths' policies run.
			if !seen[r] && !r.IsContext() && policy.IsGatekeeper(r) {
				seen[r] = true
				objects = append(objects, r)
			}
		}
	}
	files, diags, err := readGatekeeper(c.Policies, nil)
	if err != nil {
		return nil, nil, err
	}
	var paths []string
	for _, p := range cfg.Policies {
		paths = append(paths, displayPath(dir, p))
	}
	var confine func(string) bool
	if cfg.Root != "" {
		confine = func(p string) bool { return config.Inside(cfg.Root, p) }
	}
	more, moreDiags, err := readGatekeeper(paths, confine)
	if err != nil {
		return nil, nil, err
	}
	objects = append(append(objects, files...), more...)
	diags = append(diags, moreDiags...)
	gk, problems := policy.Gatekeeper(objects, policy.GatekeeperOptions{
		Budget:  c.PolicyTimeout,
		Isolate: e.policyWorkers.isolate(limitValue(c.Limits, "policy-memory")),
	})
	findings := rules.Diagnostics(diags)
	for _, p := range problems {
		f := rules.Diagnostics([]graph.Diagnostic{p.Diagnostic})[0]
		if p.Unsupported {
			f.Severity = lint.Warning
		}
		findings = append(findings, f)
	}
	return gk, findings, nil
}

// readGatekeeper reads the ConstraintTemplates and constraints of the YAML and JSON
// files of each path (a file, or a directory walked with hidden directories
// skipped); other resources in them are ignored. A file that does not parse is a
// PVL000 diagnostic. When confine is not nil, every file's absolute path must
// satisfy it, as for custom policies.
func readGatekeeper(paths []string, confine func(abs string) bool) ([]*graph.Resource, []graph.Diagnostic, error) {
	var out []*graph.Resource
	var diags []graph.Diagnostic
	read := func(file string) error {
		if confine != nil {
			abs, err := filepath.Abs(file)
			if err != nil {
				return err
			}
			if !confine(abs) {
				return fmt.Errorf("%s is a link to outside the checkout; not read", filepath.ToSlash(file))
			}
		}
		b, err := config.ReadRegular(file, maxPolicySize)
		if err != nil {
			return fmt.Errorf("%s: %w", filepath.ToSlash(file), err)
		}
		rs, ds := manifest.Parse(filepath.ToSlash(file), b, manifest.Options{})
		diags = append(diags, ds...)
		for _, r := range rs {
			if policy.IsGatekeeper(r) {
				out = append(out, r)
			}
		}
		return nil
	}
	for _, p := range paths {
		info, err := os.Stat(p)
		if err != nil {
			return nil, nil, fmt.Errorf("--policy %s: %w", p, unwrapPathError(err))
		}
		if !info.IsDir() {
			if gatekeeperExt[strings.ToLower(path.Ext(p))] {
				n := len(out)
				if err := read(p); err != nil {
					return nil, nil, fmt.Errorf("--policy %s: %w", p, err)
				}
				if len(out) == n {
					return nil, nil, fmt.Errorf("--policy %s: no Gatekeeper ConstraintTemplate or constraint", p)
				}
			}
			continue
		}
		hasRego := false
		n := len(out)
		err = filepath.WalkDir(p, func(file string, d os.DirEntry, err error) error {
			switch {
			case err != nil:
				return err
			case d.IsDir() && file != p && strings.HasPrefix(d.Name(), "."):
				return filepath.SkipDir
			case d.IsDir():
				return nil
			case path.Ext(d.Name()) == ".rego":
				hasRego = true
				return nil
			case !gatekeeperExt[strings.ToLower(path.Ext(d.Name()))]:
				return nil
			}
			return read(file)
		})
		if err != nil {
			return nil, nil, fmt.Errorf("--policy %s: %w", p, err)
		}
		if len(out) == n && !hasRego {
			return nil, nil, fmt.Errorf("--policy %s: no .rego files and no Gatekeeper ConstraintTemplate or constraint", p)
		}
	}
	return out, diags, nil
}
