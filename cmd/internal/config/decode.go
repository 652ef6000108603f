package config

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
	yaml "go.yaml.in/yaml/v3"
)

// Parse decodes a configuration file's content. name is shown in messages; dir is
// the absolute directory relative paths in the file are resolved against.
func Parse(name, dir string, data []byte) (*Config, error) {
	c := &Config{File: name, Dir: dir}
	d := &decoder{file: name, dir: dir, refs: &c.Files}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return c, nil // empty, or only comments
		}
		return nil, d.syntax(err)
	}
	var next yaml.Node
	if err := dec.Decode(&next); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, d.syntax(err)
		}
		return nil, d.errorf(&next, "the configuration must be a single YAML document")
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) == 1 {
		root = root.Content[0]
	}
	if root.Kind == yaml.ScalarNode && root.Tag == "!!null" {
		return c, nil
	}
	if err := d.top(root, c); err != nil {
		return nil, err
	}
	c.Keys = map[string]Pos{}
	for i := 0; i+1 < len(root.Content); i += 2 {
		c.Keys[root.Content[i].Value] = pos(root.Content[i])
	}
	return c, nil
}

// decoder walks the node tree, checking every key and value.
type decoder struct {
	file, dir string
	refs      *[]FileRef // where the files the configuration names are recorded
}

func (d *decoder) errorf(n *yaml.Node, format string, args ...any) error {
	return &Error{File: d.file, Line: max(n.Line, 1), Column: max(n.Column, 1), Msg: fmt.Sprintf(format, args...)}
}

var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntax turns a yaml.v3 parse error into an Error at its line.
func (d *decoder) syntax(err error) error {
	msg, line := strings.TrimPrefix(err.Error(), "yaml: "), 1
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
	}
	return &Error{File: d.file, Line: line, Column: 1, Msg: "invalid YAML: " + msg}
}

// handlers decode the value of each known key of a mapping.
type handlers map[string]func(v *yaml.Node) error

// fields decodes a mapping whose keys must all be known, each at most once.
func (d *decoder) fields(n *yaml.Node, what string, hs handlers) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "%s must be a mapping, not %s", what, describe(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		h, ok := hs[k.Value]
		if k.Kind != yaml.ScalarNode || !ok {
			return d.errorf(k, "unknown key %s in %s%s", strconv.Quote(k.Value), what, suggest(k.Value, hs))
		}
		if seen[k.Value] {
			return d.errorf(k, "key %q appears twice in %s", k.Value, what)
		}
		seen[k.Value] = true
		if err := h(v); err != nil {
			return err
		}
	}
	return nil
}

// entries decodes a mapping with free-form keys (rule names, chart directories).
func (d *decoder) entries(n *yaml.Node, what string, each func(k, v *yaml.Node) error) error {
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "%s must be a mapping, not %s", what, describe(n))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if k.Kind != yaml.ScalarNode || k.Value == "" {
			return d.errorf(k, "keys of %s must be non-empty strings", what)
		}
		if seen[k.Value] {
			return d.errorf(k, "key %q appears twice in %s", k.Value, what)
		}
		seen[k.Value] = true
		if err := each(k, v); err != nil {
			return err
		}
	}
	return nil
}

// str decodes a non-empty scalar. Numbers and booleans are taken as written
// ("1.30" stays "1.30"), since a YAML float would lose the trailing zero.
func (d *decoder) str(n *yaml.Node, what string) (string, error) {
	if n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return "", d.errorf(n, "%s must be a string, not %s", what, describe(n))
	}
	if strings.TrimSpace(n.Value) == "" {
		return "", d.errorf(n, "%s must not be empty", what)
	}
	return n.Value, nil
}

// strs decodes a list of non-empty scalars.
func (d *decoder) strs(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s must be a list, not %s", what, describe(n))
	}
	out := make([]string, 0, len(n.Content))
	for _, it := range n.Content {
		s, err := d.str(deref(it), "each entry of "+what)
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// files decodes a list of file or directory names, made absolute against the
// configuration's directory.
func (d *decoder) files(n *yaml.Node, what string) ([]string, error) {
	ss, err := d.strs(n, what)
	for i, s := range ss {
		ss[i] = d.abs(s)
		if d.refs != nil {
			*d.refs = append(*d.refs, FileRef{Key: what, Written: s, Path: ss[i], Pos: pos(deref(n.Content[i]))})
		}
	}
	return ss, err
}

func (d *decoder) abs(p string) string {
	p = filepath.FromSlash(p)
	if filepath.IsAbs(p) {
		return filepath.Clean(p)
	}
	return filepath.Join(d.dir, p)
}

// globs decodes a list of path patterns (suppress.MatchPath).
func (d *decoder) globs(n *yaml.Node, what string) ([]string, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s must be a list, not %s", what, describe(n))
	}
	var out []string
	for _, it := range n.Content {
		it = deref(it)
		s, err := d.str(it, "each entry of "+what)
		if err != nil {
			return nil, err
		}
		if err := suppress.CheckPath(s); err != nil {
			return nil, d.errorf(it, "%v", err)
		}
		out = append(out, s)
	}
	return out, nil
}

// top decodes the file's root mapping.
func (d *decoder) top(n *yaml.Node, c *Config) (err error) {
	return d.fields(n, "the configuration", handlers{
		"kubeVersion": func(v *yaml.Node) error {
			s, err := d.str(v, "kubeVersion")
			if err != nil {
				return err
			}
			c.KubeVersion, err = lint.ParseVersion(s)
			if err != nil {
				return d.errorf(v, "%v", err)
			}
			return nil
		},
		"namespace": func(v *yaml.Node) error {
			c.Namespace, err = d.str(v, "namespace")
			if err == nil && !dnsLabel.MatchString(c.Namespace) {
				return d.errorf(v, "invalid namespace %q (want a lowercase DNS label such as \"default\")", c.Namespace)
			}
			return err
		},
		"failOn": func(v *yaml.Node) error {
			s, err := d.str(v, "failOn")
			if err != nil {
				return err
			}
			sev, ok := levels[s]
			if !ok && s != "never" && s != "none" { // none: the word other linters use
				return d.errorf(v, "unknown level %q for failOn (want error, warning, note or never)", s)
			}
			c.FailOn = &sev
			return nil
		},
		"rules": func(v *yaml.Node) error {
			return d.entries(v, "rules", func(k, v *yaml.Node) error {
				s, err := d.str(v, "the setting of rule "+k.Value)
				if err != nil {
					return err
				}
				sev, ok := levels[s]
				if !ok && s != "off" {
					return d.errorf(v, "unknown setting %q for rule %s (want off, error, warning or note)", s, k.Value)
				}
				c.Rules = append(c.Rules, RuleSetting{Rule: k.Value, Off: s == "off", Severity: sev, Pos: pos(k)})
				return nil
			})
		},
		"ruleOptions": func(v *yaml.Node) error {
			return d.entries(v, "ruleOptions", func(k, v *yaml.Node) error {
				return d.entries(v, "the options of rule "+k.Value, func(name, val *yaml.Node) error {
					s, err := d.str(val, "option "+name.Value+" of rule "+k.Value)
					if err != nil {
						return err
					}
					c.RuleOptions = append(c.RuleOptions, RuleOption{Rule: k.Value, Name: name.Value, Value: s, Pos: pos(val)})
					return nil
				})
			})
		},
		"ignore": func(v *yaml.Node) error {
			c.Ignores, err = d.ignores(v)
			return err
		},
		"paths": func(v *yaml.Node) error {
			c.Paths, err = d.files(v, "paths")
			return err
		},
		"exclude": func(v *yaml.Node) error {
			c.Exclude, err = d.globs(v, "exclude")
			return err
		},
		"worlds": func(v *yaml.Node) error {
			c.Worlds, err = d.globs(v, "worlds")
			return err
		},
		"helm":      func(v *yaml.Node) error { return d.helm(v, &c.Helm) },
		"terraform": func(v *yaml.Node) error { return d.terraform(v, &c.Terraform) },
		"provisioners": func(v *yaml.Node) error {
			return d.entries(v, "provisioners", func(k, v *yaml.Node) error {
				kind, err := d.str(v, "the kind of provisioner "+k.Value)
				if err != nil {
					return err
				}
				if _, ok := graph.UserProvisioner(k.Value, kind); !ok {
					return d.errorf(v, "unknown kind %q for provisioner %s (want attachable, file or local)", kind, k.Value)
				}
				c.Provisioners = append(c.Provisioners, Provisioner{Name: k.Value, Kind: kind})
				return nil
			})
		},
		"policies": func(v *yaml.Node) error {
			c.Policies, err = d.files(v, "policies")
			return err
		},
		"gatekeeper": func(v *yaml.Node) error {
			b, err := strconv.ParseBool(v.Value)
			if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || err != nil {
				return d.errorf(v, "gatekeeper must be true or false, not %s", describe(v))
			}
			c.Gatekeeper = &b
			return nil
		},
		"explore": func(v *yaml.Node) error { return d.explore(v, c) },
		"cluster": func(v *yaml.Node) error {
			c.Clusters, err = d.clusters(v)
			return err
		},
		"context": func(v *yaml.Node) error {
			c.Context, err = d.files(oneOrMany(v), "context")
			return err
		},
		"charts": func(v *yaml.Node) error {
			c.Charts, err = d.files(oneOrMany(v), "charts")
			return err
		},
		"gitops": func(v *yaml.Node) error {
			return d.fields(v, "gitops", handlers{
				"repositories": func(v *yaml.Node) error {
					c.Repositories, err = d.strs(oneOrMany(v), "gitops.repositories")
					return err
				},
			})
		},
	})
}

// oneOrMany reads a single scalar as a list of one, for keys that take either.
func oneOrMany(n *yaml.Node) *yaml.Node {
	if n.Kind == yaml.ScalarNode && n.Tag != "!!null" {
		return &yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{n}, Line: n.Line, Column: n.Column}
	}
	return n
}

func pos(n *yaml.Node) Pos { return Pos{Line: n.Line, Column: n.Column} }

// deref follows an alias to its anchored node.
func deref(n *yaml.Node) *yaml.Node {
	for i := 0; n.Kind == yaml.AliasNode && n.Alias != nil && i < 100; i++ {
		n = n.Alias
	}
	return n
}

// describe names a node's type for messages.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	}
	switch n.Tag {
	case "!!null":
		return "empty"
	case "!!bool":
		return "a boolean"
	case "!!int", "!!float":
		return "a number"
	}
	return "a string"
}

// suggest lists the known keys, pointing at one that differs only in case.
func suggest(key string, hs handlers) string {
	names := make([]string, 0, len(hs))
	for k := range hs {
		if strings.EqualFold(k, key) {
			return fmt.Sprintf(" (did you mean %q?)", k)
		}
		names = append(names, k)
	}
	sort.Strings(names)
	return " (known keys: " + strings.Join(names, ", ") + ")"
}
