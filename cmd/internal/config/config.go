// Package config reads pvlint's configuration file, .pvlint.yaml: the settings a
// repository shares (Kubernetes version, rule levels, ignores with reasons, Helm and
// Terraform inputs, extra provisioners) so that every developer and CI job lints the
// same way without repeating flags.
//
// The file is decoded strictly from yaml.v3 nodes: an unknown key, a value of the
// wrong type or an invalid value is an error naming its line and column, because a
// misspelt key that is silently ignored is a setting that silently does not apply.
// The same contract is published as a JSON Schema (Schema) for editors.
package config

import (
	_ "embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/pvlint/pvlint/rules/lint"
)

// FileName is the configuration file pvlint looks for.
const FileName = ".pvlint.yaml"

// Schema is the JSON Schema (draft 2020-12) of the configuration file.
//
//go:embed schema.json
var Schema []byte

// Starter is a commented configuration file for `pvlint config init`: every key,
// with the common ones set to their defaults and the rest commented out.
//
//go:embed starter.yaml
var Starter []byte

// Config is a decoded configuration file. Unset keys keep their zero value. File
// paths in it are absolute (resolved against Dir); globs stay relative to Dir.
type Config struct {
	// File is the file's name as shown in messages; Dir is its absolute directory.
	File, Dir string

	KubeVersion lint.Version // zero when unset
	Namespace   string
	// FailOn is the --fail-on level; nil when unset, SeverityNone for "never".
	FailOn *lint.Severity
	// Rules are per-rule settings in file order, resolved by Resolve.
	Rules []RuleSetting
	// RuleOptions are values of rules' options (lint.Rule.Options) in file order,
	// checked against the catalogue by Resolve.
	RuleOptions []RuleOption
	// Ignores are external suppressions in file order, resolved by Resolve.
	Ignores []Ignore
	// Paths are linted when the command line names none (absolute).
	Paths []string
	// Exclude are globs of files and directories never read, relative to Dir.
	Exclude []string
	// Worlds are globs of directories, relative to Dir, each linted as a world of its
	// own (independent examples that must not resolve each other's references).
	Worlds []string
	// Helm configures chart rendering.
	Helm Helm
	// Terraform configures module evaluation.
	Terraform Terraform
	// Provisioners declares CSI drivers the built-in table does not know.
	Provisioners []Provisioner
	// Policies are directories of custom Rego policies (absolute).
	Policies []string
	// Later, when set, lets Resolve pass over the rule names it accepts that the
	// catalogue does not know: rules known only once the inputs are read (Gatekeeper
	// constraints). The caller resolves again, without Later, with the full catalogue.
	Later func(rule string) bool
	// Gatekeeper, when set, is `gatekeeper:`: evaluate the Gatekeeper
	// ConstraintTemplates and constraints of the inputs and policies (--gatekeeper).
	Gatekeeper *bool
	// Explore, when set, is `explore:` (true, false, or `enabled:`): render each chart
	// with the switches its values.yaml documents (--explore-values).
	Explore *bool
	// ExploreLevels are `explore: {levels: ...}`: the level (or off) of the findings
	// only an explored combination of values reaches, per rule (note by default).
	ExploreLevels []RuleSetting
	// Clusters are the platform profiles of `cluster:` (graph.Platform names or
	// aliases, checked when decoded), in file order.
	Clusters []string
	// Context are the cluster snapshot files and directories of `context:`
	// (absolute; confined to the checkout like every file the configuration names).
	Context []string
	// Charts are the chart cache directories of `charts:` (absolute; confined to the
	// checkout like every file the configuration names): charts that GitOps releases
	// name, as helm pull writes them (docs/gitops.md).
	Charts []string
	// Repositories are `gitops.repositories`: URLs that name this repository besides
	// the remotes of its .git/config.
	Repositories []string
	// Keys are the positions of the top-level keys present, for messages about a
	// setting as a whole.
	Keys map[string]Pos
	// Root is the checkout a configuration file found in the linted tree is confined
	// to (LoadDiscovered); "" for a file named on the command line, which may name
	// files anywhere.
	Root string
	// Files are the files and directories the configuration names to be read
	// (paths, policies, Helm values files, Terraform variable files), in file order.
	Files []FileRef
}

// FileRef is one file or directory a configuration names.
type FileRef struct {
	Key     string // the key it is listed under
	Written string // as written
	Path    string // absolute, resolved against the configuration's directory
	Pos     Pos
}

// Pos is a position in the configuration file, for messages about a value that can
// only be checked later (a rule name against the catalogue).
type Pos struct{ Line, Column int }

// RuleSetting is one entry of `rules:`: a rule turned off or given another level.
type RuleSetting struct {
	Rule     string        // ID or name, as written
	Off      bool          // "off"
	Severity lint.Severity // the level, when not Off
	Pos      Pos           // the key
}

// RuleOption is one value of `ruleOptions:`, e.g. missing-rwop: {min-version: "1.27"}.
type RuleOption struct {
	Rule, Name, Value string // rule ID or name and option name, as written
	Pos               Pos    // the value
}

// Ignore is one entry of `ignore:`.
type Ignore struct {
	Rule      string   // ID, name or "all", as written
	Paths     []string // globs relative to Dir
	Resources []string // Kind/namespace/name patterns
	Reason    string
	Expires   time.Time // zero: never
	Pos       Pos       // the entry
	RulePos   Pos       // the rule value
}

// Helm configures how charts are rendered. The top-level fields apply to every chart;
// an entry of Charts replaces them for one chart.
type Helm struct {
	ChartValues
	Charts []Chart
}

// ChartValues are what `helm template` would be given for a chart.
type ChartValues struct {
	Values      []string // values files (absolute)
	Set         []string // --set key=value
	SetString   []string // --set-string key=value
	ReleaseName string
	Namespace   string
}

// Chart is the settings of one chart directory.
type Chart struct {
	Dir string // absolute
	ChartValues
}

// For returns the settings of the chart in dir (absolute): its own entry if it has
// one, otherwise the top-level ones.
func (h Helm) For(dir string) ChartValues {
	for _, c := range h.Charts {
		if c.Dir == filepath.Clean(dir) {
			return c.ChartValues
		}
	}
	return h.ChartValues
}

// Terraform configures how modules are evaluated.
type Terraform struct {
	VarFiles []string // absolute, applied in order
	Vars     []Var    // in file order, after the var files
}

// Var is one Terraform input variable; Value is the literal as written.
type Var struct{ Name, Value string }

// Provisioner declares a CSI driver: Kind is "attachable", "file" or "local"
// (graph.UserProvisioner).
type Provisioner struct{ Name, Kind string }

// Error is a problem with the configuration at a line and column.
type Error struct {
	File         string
	Line, Column int
	Msg          string
}

func (e *Error) Error() string { return fmt.Sprintf("%s:%d:%d: %s", e.File, e.Line, e.Column, e.Msg) }

// Load reads and decodes the configuration file at path; display is the name shown
// in messages (the path relative to the working directory, usually).
func Load(path, display string) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("configuration %s: %w", display, err)
	}
	data, err := os.ReadFile(abs)
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("read configuration %s: %w", display, err)
	}
	return Parse(display, filepath.Dir(abs), data)
}

// Find returns the configuration file that applies in dir: dir's own FileName or the
// nearest parent's, stopping at the repository root (the first directory holding
// .git) so that a file outside the repository never applies. It returns "" when
// there is none.
func Find(dir string) (string, error) {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return "", fmt.Errorf("find configuration: %w", err)
	}
	for {
		p := filepath.Join(dir, FileName)
		if info, err := os.Stat(p); err == nil && !info.IsDir() {
			return p, nil
		}
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return "", nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", nil
		}
		dir = parent
	}
}
