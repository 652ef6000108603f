package config

import (
	"fmt"
	"path"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
)

// Resolved is what the configuration says about a catalogue's rules.
type Resolved struct {
	// Off are the rules turned off.
	Off map[*lint.Rule]bool
	// Severity gives rules another level; it applies to every finding of the rule,
	// whatever level the rule chose for it.
	Severity map[*lint.Rule]lint.Severity
	// Ignores are the ignore entries as external suppressions.
	Ignores []suppress.Ignore
	// Options are the values of `ruleOptions:`, by rule and option name.
	Options map[*lint.Rule]map[string]string
	// Explore are the levels of `explore: {levels: ...}`: the level of the findings
	// only an explored combination of values reaches; lint.SeverityNone for off.
	Explore map[*lint.Rule]lint.Severity
}

// Resolve checks the rule names of `rules:` and `ignore:` against the catalogue
// (built-in and custom rules) and returns them as rules. A name that is no rule is an
// Error at its position.
func (c *Config) Resolve(catalogue []*lint.Rule) (*Resolved, error) {
	res := &Resolved{Off: map[*lint.Rule]bool{}, Severity: map[*lint.Rule]lint.Severity{}}
	for _, s := range c.Rules {
		r := find(catalogue, s.Rule)
		if r == nil && c.later(s.Rule) {
			continue
		}
		if r == nil {
			return nil, c.errorAt(s.Pos, "unknown rule %q in rules (see `pvlint rules`)", s.Rule)
		}
		if s.Off {
			res.Off[r] = true
		} else {
			res.Severity[r] = s.Severity
		}
	}
	for _, o := range c.RuleOptions {
		r := find(catalogue, o.Rule)
		if r == nil && c.later(o.Rule) {
			continue
		}
		if r == nil {
			return nil, c.errorAt(o.Pos, "unknown rule %q in ruleOptions (see `pvlint rules`)", o.Rule)
		}
		opt := r.Option(o.Name)
		if opt == nil {
			return nil, c.errorAt(o.Pos, "rule %s has no option %q (`pvlint explain %s` documents its options)", r.ID, o.Name, r.ID)
		}
		if opt.Check != nil {
			if err := opt.Check(o.Value); err != nil {
				return nil, c.errorAt(o.Pos, "option %s of rule %s: %v", o.Name, r.ID, err)
			}
		}
		if res.Options == nil {
			res.Options = map[*lint.Rule]map[string]string{}
		}
		if res.Options[r] == nil {
			res.Options[r] = map[string]string{}
		}
		res.Options[r][o.Name] = o.Value
	}
	for _, ig := range c.Ignores {
		var r *lint.Rule
		if !strings.EqualFold(ig.Rule, "all") {
			if r = find(catalogue, ig.Rule); r == nil && c.later(ig.Rule) {
				continue
			}
			if r == nil {
				return nil, c.errorAt(ig.RulePos, "unknown rule %q in ignore (an ID, a name or \"all\"; see `pvlint rules`)", ig.Rule)
			}
		}
		res.Ignores = append(res.Ignores, suppress.Ignore{
			Rule: r, Paths: ig.Paths, Resources: ig.Resources, Reason: ig.Reason, Expires: ig.Expires,
			Root:     c.Dir,
			Location: graph.Range{File: c.File, Start: graph.Pos{Line: int32(ig.Pos.Line), Column: int32(ig.Pos.Column)}},
		})
	}
	for _, s := range c.ExploreLevels {
		r := find(catalogue, s.Rule)
		if r == nil && c.later(s.Rule) {
			continue
		}
		if r == nil {
			return nil, c.errorAt(s.Pos, "unknown rule %q in explore.levels (see `pvlint rules`)", s.Rule)
		}
		if res.Explore == nil {
			res.Explore = map[*lint.Rule]lint.Severity{}
		}
		res.Explore[r] = s.Severity
		if s.Off {
			res.Explore[r] = lint.SeverityNone
		}
	}
	return res, nil
}

// KeyError is an Error at a top-level key, for a setting the run cannot honour.
func (c *Config) KeyError(key, format string, args ...any) error {
	return c.errorAt(c.Keys[key], format, args...)
}

func (c *Config) errorAt(p Pos, format string, args ...any) error {
	return &Error{File: c.File, Line: p.Line, Column: p.Column, Msg: fmt.Sprintf(format, args...)}
}

// later reports whether Resolve passes over an unknown rule name (Config.Later).
func (c *Config) later(rule string) bool { return c.Later != nil && c.Later(rule) }

// find looks a rule up by ID (any case) or name.
func find(catalogue []*lint.Rule, idOrName string) *lint.Rule {
	for _, r := range catalogue {
		if strings.EqualFold(r.ID, idOrName) || r.Name == idOrName {
			return r
		}
	}
	return nil
}

// Excluded reports whether an absolute path matches an `exclude:` glob, relative to
// the configuration's directory. Paths outside that directory are never excluded.
func (c *Config) Excluded(path string) bool {
	if len(c.Exclude) == 0 {
		return false
	}
	rel, err := filepath.Rel(c.Dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	for _, g := range c.Exclude {
		if suppress.MatchPath(g, rel) {
			return true
		}
	}
	return false
}

// IsWorld reports whether an absolute directory matches a `worlds:` glob, relative to
// the configuration's directory. Directories outside it never do.
func (c *Config) IsWorld(dir string) bool {
	if len(c.Worlds) == 0 {
		return false
	}
	rel, err := filepath.Rel(c.Dir, dir)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return false
	}
	rel = filepath.ToSlash(rel)
	parent := path.Dir(rel)
	for _, g := range c.Worlds {
		// MatchPath also matches what lies under a matching directory; a world is
		// the matching directory itself, not its subdirectories.
		g = strings.TrimSuffix(g, "/")
		if suppress.MatchPath(g, rel) && (parent == "." || !suppress.MatchPath(g, parent)) {
			return true
		}
	}
	return false
}

// ProvisionerRows returns the configuration's drivers as provisioner table rows, in
// file order.
func (c *Config) ProvisionerRows() []graph.Provisioner {
	var out []graph.Provisioner
	for _, p := range c.Provisioners {
		if row, ok := graph.UserProvisioner(p.Name, p.Kind); ok {
			out = append(out, row)
		}
	}
	return out
}
