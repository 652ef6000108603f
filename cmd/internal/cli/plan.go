package cli

import (
	"iter"
	"maps"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

// plan is everything a run decides before it reads an input, made in one step
// (newPlan) from the command line, the configuration file and the catalogue: the
// rest of the run only reads it. Lint, fix and graph runs share it.
type plan struct {
	dir string
	// c is the command line with the configuration file's settings filled in where
	// no flag set them (flags win over the file, the file over flag defaults). The
	// command line newPlan was given is left as parsed.
	c *Config
	// cfg is the configuration file read (an empty one of dir without a file).
	cfg *config.Config
	// catalogue is the run's rules: built-in and custom policies, then the
	// Gatekeeper constraints once the inputs are read (addConstraints).
	catalogue []*lint.Rule
	// resolved is the configuration's rule settings (levels, options, ignores, off)
	// resolved against the catalogue.
	resolved *config.Resolved
	// opts selects and configures the rules for the driver (--enable, --disable and
	// the file's `off`, each name resolved once).
	opts rules.Options
	// paths are what the run reads: the command line's, else the file's, else the
	// working directory (standard input with --stdin-filename).
	paths []string
	// load is the loader's options (input formats, limits, excludes, worlds), without
	// a worker pool, which each load gets from the Env.
	load load.Options
	// graph is how each world's graph is built (default namespace, provisioners).
	graph graph.Options
	// outputs are the reports to write (--format, --output), in order.
	outputs []Target
}

// newPlan resolves a run in dir: it checks the paths, reads the configuration file,
// builds the catalogue with the custom policies of --policy and the file, fills the
// file's settings into a copy of c, and derives the rule selection and the loader's
// options from them. Nothing is loaded and c is not changed.
func (e *Env) newPlan(flags *Config, dir string) (*plan, error) {
	if err := checkInputs(flags, dir); err != nil {
		return nil, err
	}
	cfg, err := readConfig(flags, dir)
	if err != nil {
		return nil, err
	}
	warnCharts(e.Stderr, cfg)
	all, err := e.catalogue(flags, cfg, dir)
	if err != nil {
		return nil, err
	}
	if gatekeeperOn(flags, cfg) {
		// Constraints are rules once the inputs are read: names the catalogue does not
		// know yet are resolved then (addConstraints), and a typo is an error there.
		cfg.Later = func(string) bool { return true }
	}
	c := flags.clone()
	rs, err := configure(c, cfg, all)
	if err != nil {
		return nil, err
	}
	opts, err := selection(c, all, rs)
	if err != nil {
		return nil, err
	}
	paths := c.Paths
	if len(paths) == 0 {
		paths = []string{"."}
		if c.StdinFilename != "" {
			paths = []string{"-"}
		}
	}
	lo := e.loadOptions(c, dir)
	configureLoad(&lo, c, cfg)
	// Only custom policies can read what ConfigMaps and Secrets embed (data.inventory,
	// input): without one in the catalogue it is not kept.
	lo.SkipConfigData = !c.Gatekeeper && !slices.ContainsFunc(all, func(r *lint.Rule) bool { return r.Policy != "" })
	return &plan{
		dir: dir, c: c, cfg: cfg, catalogue: all, resolved: rs, opts: opts, paths: paths, load: lo,
		graph:   graph.Options{DefaultNamespace: c.Namespace, Provisioners: provisionerTable(c)},
		outputs: c.Targets,
	}, nil
}

// clone is a copy of c that configure may fill in without changing c.
func (c *Config) clone() *Config {
	o := *c
	o.Paths = slices.Clone(c.Paths)
	o.Enable, o.Disable = slices.Clone(c.Enable), slices.Clone(c.Disable)
	o.Context = slices.Clone(c.Context)
	o.Charts = slices.Clone(c.Charts)
	o.Provisioners = slices.Clone(c.Provisioners)
	o.Clusters = slices.Clone(c.Clusters)
	if c.RuleOptions != nil {
		o.RuleOptions = make(map[*lint.Rule]map[string]string, len(c.RuleOptions))
		for r, values := range c.RuleOptions {
			o.RuleOptions[r] = maps.Clone(values)
		}
	}
	return &o
}

// addConstraints adds the Gatekeeper constraints found in the inputs to the
// catalogue (outputs list them as rules; they run in every world), resolving the
// configuration's rule settings again now that their names are known.
func (p *plan) addConstraints(gk []*lint.Rule) error {
	p.catalogue = append(slices.Clip(p.catalogue), gk...)
	p.cfg.Later = nil
	rs, err := p.cfg.Resolve(p.catalogue)
	if err != nil {
		return err
	}
	p.resolved = rs
	for _, r := range gk {
		if p.opts.Enabled != nil {
			p.opts.Enabled[r] = true // --gatekeeper asks for them, whatever --enable names
		}
		if rs.Off[r] {
			p.opts.Disabled[r] = true
		}
	}
	return nil
}

// selection turns --enable, --disable and the configuration's `off` into the
// driver's options, resolving the flags' names against the catalogue (custom rules
// included) once. --enable names a rule on purpose: it wins over `off` in the file.
// PVL000 is not a check: parse errors are reported unless --disable names it,
// because an input that was not read was not linted either.
func selection(c *Config, catalogue []*lint.Rule, rs *config.Resolved) (rules.Options, error) {
	opts := rules.Options{Target: c.KubeVersion, Disabled: map[*lint.Rule]bool{}, RuleOptions: c.RuleOptions}
	enable, err := resolveRules(catalogue, "enable", c.Enable)
	if err != nil {
		return opts, err
	}
	disable, err := resolveRules(catalogue, "disable", c.Disable)
	if err != nil {
		return opts, err
	}
	if len(enable) > 0 {
		opts.Enabled = map[*lint.Rule]bool{}
		for _, r := range enable {
			opts.Enabled[r] = true
		}
	}
	for _, r := range disable {
		opts.Disabled[r] = true
	}
	for _, r := range catalogue {
		if rs.Off[r] && !opts.Enabled[r] {
			opts.Disabled[r] = true
		}
	}
	return opts, nil
}

// worlds runs the plan's rules over every world of res (rules.RunWorlds, the one
// driver of "worlds → graph → rules"), each graph built with the plan's options.
func (p *plan) worlds(res *load.Result) iter.Seq[rules.World] {
	return rules.RunWorlds(res.EachWorld(), p.graph, p.catalogue, p.opts)
}

// firstLine is an error's first line: a rule's failure names the rule and the panic
// there, the stack follows.
func firstLine(err error) string {
	first, _, _ := strings.Cut(err.Error(), "\n")
	return first
}
