package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/parsers/terraform"
	"github.com/pvlint/pvlint/rules/lint"
)

// readConfig reads the configuration file that applies to a run in dir: --config
// FILE, none for --config none, otherwise the nearest .pvlint.yaml up to the
// repository root (findConfig). Without a file it is an empty configuration of dir.
//
// A file found in the tree is part of the checkout, written by whoever wrote the
// pull request: it may only name files inside its repository (config.LoadDiscovered).
// A file given with --config was chosen by whoever runs pvlint, as flags are, and
// may name files anywhere.
func readConfig(c *Config, dir string) (*config.Config, error) {
	switch c.ConfigFile {
	case "none":
		return &config.Config{Dir: dir}, nil
	case "":
		path, err := findConfig(c, dir)
		if err != nil || path == "" {
			return &config.Config{Dir: dir}, err
		}
		return config.LoadDiscovered(path, displayPath(dir, path), config.Checkout(path))
	}
	path := c.ConfigFile
	if !filepath.IsAbs(path) {
		path = filepath.Join(dir, path)
	}
	return config.Load(path, c.ConfigFile)
}

// configure checks the configuration's rule names against the catalogue (custom
// rules included, see catalogue) and copies into c what the command line left
// unset. Flags win over the file; the file wins over flag defaults. newPlan calls it
// on a copy of the command line; the file's `off` rules are selection's.
func configure(c *Config, cfg *config.Config, catalogue []*lint.Rule) (*config.Resolved, error) {
	res, err := cfg.Resolve(catalogue)
	if err != nil {
		return nil, err
	}
	for _, cv := range append([]config.ChartValues{cfg.Helm.ChartValues}, chartValues(cfg.Helm.Charts)...) {
		if err := (helm.Options{Set: cv.Set, SetString: cv.SetString}).Check(); err != nil {
			return nil, cfg.KeyError("helm", "%v", err)
		}
	}
	if !c.Explicit["kube-version"] && cfg.KubeVersion != (lint.Version{}) {
		c.KubeVersion = cfg.KubeVersion
	}
	if !c.Explicit["namespace"] && cfg.Namespace != "" {
		c.Namespace = cfg.Namespace
	}
	if !c.Explicit["fail-on"] && cfg.FailOn != nil {
		c.FailOn = *cfg.FailOn
	}
	if len(c.Paths) == 0 && c.StdinFilename == "" {
		c.Paths = cfg.Paths
	}
	if !c.Explicit["gatekeeper"] && cfg.Gatekeeper != nil {
		c.Gatekeeper = *cfg.Gatekeeper
	}
	if !c.Explicit["explore-values"] && cfg.Explore != nil {
		c.ExploreValues = *cfg.Explore
	}
	// The file's rule options apply unless --rule-option sets the same one.
	for r, values := range res.Options {
		for name, v := range values {
			if _, set := c.RuleOptions[r][name]; set {
				continue
			}
			if c.RuleOptions == nil {
				c.RuleOptions = map[*lint.Rule]map[string]string{}
			}
			if c.RuleOptions[r] == nil {
				c.RuleOptions[r] = map[string]string{}
			}
			c.RuleOptions[r][name] = v
		}
	}
	// --cluster replaces the file's cluster: (the command line names the cluster of
	// this run); the file's snapshots are read before those of --context.
	if len(c.Clusters) == 0 {
		c.Clusters = cfg.Clusters
	}
	c.Context = append(slices.Clone(cfg.Context), c.Context...)
	c.Charts = append(slices.Clone(cfg.Charts), c.Charts...)
	c.Repositories = slices.Clone(cfg.Repositories)
	// The file's drivers come first, so --provisioner-class rows for the same name win.
	c.Provisioners = append(cfg.ProvisionerRows(), c.Provisioners...)
	return res, nil
}

// configureLoad adds the configuration's input settings to the loader's options:
// the exclude list, Helm chart settings and Terraform variables. Values, assignments
// and variables from the command line come after the file's, so they win; a
// release name or namespace given on the command line replaces the file's.
func configureLoad(opts *load.Options, c *Config, cfg *config.Config) {
	if len(cfg.Exclude) > 0 {
		opts.Exclude = cfg.Excluded
	}
	if len(cfg.Worlds) > 0 {
		opts.World = cfg.IsWorld
	}
	if _, ok := cfg.Keys["helm"]; ok {
		h := cfg.Helm
		base := opts.Helm
		opts.HelmFor = func(dir string) helm.Options {
			cv, o := h.For(dir), base
			o.ValueFiles = concat(cv.Values, base.ValueFiles)
			o.Set = concat(cv.Set, base.Set)
			o.SetString = concat(cv.SetString, base.SetString)
			if cv.ReleaseName != "" && !c.Explicit["release-name"] {
				o.ReleaseName = cv.ReleaseName
			}
			if cv.Namespace != "" && !c.Explicit["namespace"] {
				o.Namespace = cv.Namespace
			}
			return o
		}
	}
	var vars []terraform.Var
	for _, f := range cfg.Terraform.VarFiles {
		vars = append(vars, terraform.Var{File: f})
	}
	for _, v := range cfg.Terraform.Vars {
		vars = append(vars, terraform.Var{Name: v.Name, Value: v.Value})
	}
	opts.Terraform.Vars = append(vars, opts.Terraform.Vars...)
}

func chartValues(charts []config.Chart) []config.ChartValues {
	out := make([]config.ChartValues, 0, len(charts))
	for _, ch := range charts {
		out = append(out, ch.ChartValues)
	}
	return out
}

// concat returns a new slice holding a then b.
func concat(a, b []string) []string { return append(append([]string(nil), a...), b...) }

// displayPath shows path relative to dir when it is inside it.
func displayPath(dir, path string) string {
	if rel, err := filepath.Rel(dir, path); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return filepath.ToSlash(rel)
	}
	return path
}

// configCmd is `pvlint config init [FILE]` (write a commented starter file, never
// over an existing one; "-" prints it) and `pvlint config schema` (print the JSON
// Schema editors validate the file with).
func (e *Env) configCmd(args []string) int {
	if len(args) == 0 {
		return e.fail(errors.New("config needs a command: init [FILE] or schema"))
	}
	switch args[0] {
	case "schema":
		if len(args) > 1 {
			return e.fail(fmt.Errorf("config schema takes no arguments, got %q", args[1]))
		}
		return e.print(config.Schema)
	case "init":
		if len(args) > 2 {
			return e.fail(fmt.Errorf("config init takes at most one file name, got %q", args[2]))
		}
		name := config.FileName
		if len(args) == 2 {
			name = args[1]
		}
		if name == "-" {
			return e.print(config.Starter)
		}
		f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(err, fs.ErrExist) {
			return e.fail(fmt.Errorf("%s already exists; not overwritten", name))
		}
		if err != nil {
			return e.fail(fmt.Errorf("config init: %w", err))
		}
		_, err = f.Write(config.Starter)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return e.fail(fmt.Errorf("config init: write %s: %w", name, err))
		}
		fmt.Fprintf(e.Stderr, "pvlint: wrote %s\n", name)
		return ExitOK
	}
	return e.fail(fmt.Errorf("unknown config command %q (want init or schema)", args[0]))
}

func (e *Env) print(data []byte) int {
	if _, err := e.Stdout.Write(data); err != nil {
		fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
		return ExitError
	}
	return ExitOK
}
