// The decoders of the configuration file's sections (decode.go has the primitives).

package config

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
	yaml "go.yaml.in/yaml/v3"
)

// clusters decodes `cluster:`, one platform profile name or a list of them.
func (d *decoder) clusters(n *yaml.Node) ([]string, error) {
	n = oneOrMany(n)
	names, err := d.strs(n, "cluster")
	if err != nil {
		return nil, err
	}
	for i, name := range names {
		if graph.FindPlatform(name) == nil {
			return nil, d.errorf(deref(n.Content[i]), "%s", UnknownPlatform(name))
		}
	}
	return names, nil
}

// UnknownPlatform is the message for a cluster name no profile has: the closest
// name when one is near, and every name.
func UnknownPlatform(name string) string {
	if why, ok := graph.NoProfile[strings.ToLower(strings.TrimSpace(name))]; ok {
		return fmt.Sprintf("cluster %q has no profile: %s; give its StorageClasses with --context (kubectl get storageclass -o yaml)", name, why)
	}
	names := graph.PlatformNames()
	best, dist := "", 3
	for _, n := range names {
		if d := editDistance(strings.ToLower(name), n); d < dist {
			best, dist = n, d
		}
	}
	hint := ""
	if best != "" {
		hint = fmt.Sprintf("did you mean %q? ", best)
	}
	return fmt.Sprintf("unknown cluster %q (%sknown clusters: %s)", name, hint, strings.Join(names, ", "))
}

// editDistance is the Levenshtein distance between two short strings.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// levels are the severities the file accepts, by name.
// explore decodes `explore:`, a boolean or {enabled: BOOL, levels: {RULE: LEVEL}}.
func (d *decoder) explore(n *yaml.Node, c *Config) error {
	boolean := func(v *yaml.Node, what string) (*bool, error) {
		b, err := strconv.ParseBool(v.Value)
		if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" || err != nil {
			return nil, d.errorf(v, "%s must be true or false, not %s", what, describe(v))
		}
		return &b, nil
	}
	if n.Kind == yaml.ScalarNode {
		b, err := boolean(n, "explore")
		c.Explore = b
		return err
	}
	return d.fields(n, "explore", handlers{
		"enabled": func(v *yaml.Node) (err error) {
			c.Explore, err = boolean(v, "explore.enabled")
			return err
		},
		"levels": func(v *yaml.Node) error {
			return d.entries(v, "explore.levels", func(k, v *yaml.Node) error {
				s, err := d.str(v, "the level of rule "+k.Value)
				if err != nil {
					return err
				}
				sev, ok := levels[s]
				if !ok && s != "off" {
					return d.errorf(v, "unknown setting %q for rule %s (want off, error, warning or note)", s, k.Value)
				}
				c.ExploreLevels = append(c.ExploreLevels, RuleSetting{Rule: k.Value, Off: s == "off", Severity: sev, Pos: pos(k)})
				return nil
			})
		},
	})
}

var levels = map[string]lint.Severity{"error": lint.Error, "warning": lint.Warning, "note": lint.Note}

// dnsLabel is the RFC 1123 label Kubernetes requires of namespace names.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$`)

// ignores decodes the `ignore:` list.
func (d *decoder) ignores(n *yaml.Node) ([]Ignore, error) {
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "ignore must be a list, not %s", describe(n))
	}
	var out []Ignore
	for _, it := range n.Content {
		it = deref(it)
		ig := Ignore{Pos: pos(it)}
		var err error
		err = d.fields(it, "an ignore entry", handlers{
			"rule": func(v *yaml.Node) error {
				ig.Rule, err = d.str(v, "rule")
				ig.RulePos = pos(v)
				return err
			},
			"paths": func(v *yaml.Node) error {
				ig.Paths, err = d.globs(v, "paths")
				return err
			},
			"resources": func(v *yaml.Node) error {
				ig.Resources, err = d.strs(v, "resources")
				for i, r := range ig.Resources {
					if err == nil {
						if e := suppress.CheckResource(r); e != nil {
							err = d.errorf(deref(v.Content[i]), "%v", e)
						}
					}
				}
				return err
			},
			"reason": func(v *yaml.Node) error {
				ig.Reason, err = d.str(v, "reason")
				return err
			},
			"expires": func(v *yaml.Node) error {
				s, err := d.str(v, "expires")
				if err != nil {
					return err
				}
				if ig.Expires, err = time.Parse(time.DateOnly, s); err != nil {
					return d.errorf(v, "invalid date %q for expires (want YYYY-MM-DD)", s)
				}
				return nil
			},
		})
		if err != nil {
			return nil, err
		}
		switch {
		case ig.Rule == "":
			return nil, d.errorf(it, "ignore entry has no rule (an ID, a name or \"all\")")
		case ig.Reason == "":
			return nil, d.errorf(it, "ignore entry for %s has no reason: say why the finding is accepted", ig.Rule)
		}
		out = append(out, ig)
	}
	return out, nil
}

// chartValues returns the handlers of the keys a chart accepts.
func (d *decoder) chartValues(cv *ChartValues) handlers {
	var err error
	return handlers{
		"values": func(v *yaml.Node) error {
			cv.Values, err = d.files(v, "values")
			return err
		},
		"set":       func(v *yaml.Node) error { cv.Set, err = d.assignments(v, "set"); return err },
		"setString": func(v *yaml.Node) error { cv.SetString, err = d.assignments(v, "setString"); return err },
		"releaseName": func(v *yaml.Node) error {
			cv.ReleaseName, err = d.str(v, "releaseName")
			return err
		},
		"namespace": func(v *yaml.Node) error {
			cv.Namespace, err = d.str(v, "namespace")
			if err == nil && !dnsLabel.MatchString(cv.Namespace) {
				return d.errorf(v, "invalid namespace %q (want a lowercase DNS label)", cv.Namespace)
			}
			return err
		},
	}
}

func (d *decoder) helm(n *yaml.Node, h *Helm) error {
	hs := d.chartValues(&h.ChartValues)
	hs["charts"] = func(v *yaml.Node) error {
		return d.entries(v, "helm.charts", func(k, v *yaml.Node) error {
			c := Chart{Dir: d.abs(k.Value)}
			if err := d.fields(v, "chart "+k.Value, d.chartValues(&c.ChartValues)); err != nil {
				return err
			}
			h.Charts = append(h.Charts, c)
			return nil
		})
	}
	return d.fields(n, "helm", hs)
}

// assignments decodes --set style "key=value" strings.
func (d *decoder) assignments(n *yaml.Node, what string) ([]string, error) {
	ss, err := d.strs(n, what)
	for i, s := range ss {
		if k, _, ok := strings.Cut(s, "="); err == nil && (!ok || strings.TrimSpace(k) == "") {
			err = d.errorf(deref(n.Content[i]), "invalid %s entry %q (want key=value)", what, s)
		}
	}
	return ss, err
}

func (d *decoder) terraform(n *yaml.Node, t *Terraform) error {
	var err error
	return d.fields(n, "terraform", handlers{
		"varFiles": func(v *yaml.Node) error {
			t.VarFiles, err = d.files(v, "varFiles")
			return err
		},
		"vars": func(v *yaml.Node) error {
			return d.entries(v, "terraform.vars", func(k, v *yaml.Node) error {
				if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
					return d.errorf(v, "variable %s must be a scalar (write lists and maps as a quoted HCL string), not %s", k.Value, describe(v))
				}
				t.Vars = append(t.Vars, Var{Name: k.Value, Value: v.Value})
				return nil
			})
		},
	})
}
