package helm

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
	"helm.sh/helm/v3/pkg/chart"
)

// The switches of a chart's values that --explore-values turns: which keys its
// templates read, and the values each may take.

// wordRe finds the names templates use: ".Values.persistence.enabled" gives
// "Values", "persistence", "enabled" and the pairs "Values.persistence", "persistence.enabled".
var wordRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)

// templateWords lists the words and dotted pairs the chart tree's templates (and
// its Chart.yaml dependency conditions) use.
func templateWords(c *chart.Chart) map[string]bool {
	words := map[string]bool{}
	add := func(text string) {
		for _, m := range wordRe.FindAllString(text, -1) {
			parts := strings.Split(m, ".")
			for i, p := range parts {
				words[p] = true
				if i > 0 {
					words[parts[i-1]+"."+p] = true
				}
			}
		}
	}
	var walk func(c *chart.Chart, depth int)
	walk = func(c *chart.Chart, depth int) {
		if depth > maxValuesDepth {
			return
		}
		for _, t := range c.Templates {
			add(string(t.Data))
		}
		if c.Metadata != nil {
			for _, d := range c.Metadata.Dependencies {
				add(d.Condition)
			}
		}
		for _, d := range c.Dependencies() {
			walk(d, depth+1)
		}
	}
	walk(c, 0)
	return words
}

// findSwitches walks values.yaml for the values exploring changes, each once, in
// file order: *.enabled booleans a template reads, replica counts below 2, strategy
// and update strategy types, access modes other than ReadWriteOnce, empty
// existingClaim values. A value its schema does not allow is left out.
func findSwitches(data []byte, file string, schema *schemaDoc, words map[string]bool) []Switch {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var out []Switch
	seen := map[string]bool{}
	nodes := 0
	add := func(path []string, key *yaml.Node, value any) {
		if len(out) >= maxSwitches || !schema.allows(path, value) {
			return
		}
		set := setPath(path) + "=" + setValue(value)
		if seen[set] {
			return
		}
		seen[set] = true
		out = append(out, Switch{Set: set, File: file, Line: key.Line, Column: key.Column, EndColumn: key.Column + len(key.Value), path: append([]string(nil), path...)})
	}
	var walk func(n *yaml.Node, path []string)
	walk = func(n *yaml.Node, path []string) {
		nodes++
		if nodes > maxValuesNodes || len(path) > maxValuesDepth || n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := append(path, k.Value)
			for _, alt := range alternatives(p, v, words) {
				add(p, k, alt)
			}
			if v.Kind == yaml.MappingNode {
				walk(v, p)
			}
		}
	}
	walk(doc.Content[0], nil)
	// Storage switches first, so that a budget spent early spends itself on them;
	// values.yaml order within a rank.
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].path) < rank(out[j].path) })
	return out
}

// rank orders switches by how directly they change what the storage rules read:
// replicas, autoscaling, persistence, strategies and access modes; then the switches
// of claims and autoscalers' bounds; then every other gate.
func rank(path []string) int {
	key := path[len(path)-1]
	up := ""
	if len(path) > 1 {
		up = path[len(path)-2]
	}
	switch {
	case key == "replicaCount" || key == "replicas" || key == "type" || key == "accessModes" || key == "accessMode":
		return 0
	case key == "enabled" && (up == "autoscaling" || up == "hpa" || strings.Contains(strings.ToLower(up), "persistence")):
		return 0
	case key == "existingClaim" || key == "minReplicas" || key == "maxReplicas":
		return 1
	}
	for _, p := range path {
		if l := strings.ToLower(p); strings.Contains(l, "probe") || strings.Contains(l, "securitycontext") {
			return 3 // never the storage: last
		}
	}
	return 2
}

// alternatives are the other values exploring gives the value v at path.
func alternatives(path []string, v *yaml.Node, words map[string]bool) []any {
	key := path[len(path)-1]
	up := ""
	if len(path) > 1 {
		up = path[len(path)-2]
	}
	uses := func(w string) bool { return words[w] }
	switch key {
	case "enabled":
		b, ok := scalarBool(v)
		if !ok || !(uses(up+".enabled") || (up == "" && uses("enabled"))) {
			return nil
		}
		return []any{!b}
	case "replicaCount", "replicas", "minReplicas", "maxReplicas":
		n, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil || n >= 2 || !uses(key) {
			return nil
		}
		return []any{2}
	case "type":
		if up != "strategy" && up != "updateStrategy" && up != "deploymentStrategy" || v.Kind != yaml.ScalarNode || !uses(up) {
			return nil
		}
		switch v.Value {
		case "Recreate", "OnDelete":
			return []any{"RollingUpdate"}
		case "RollingUpdate":
			if up == "updateStrategy" {
				return nil // a StatefulSet's: no other type surges
			}
			return []any{"Recreate"}
		}
	case "accessModes":
		if v.Kind != yaml.SequenceNode || !uses(key) {
			return nil
		}
		if len(v.Content) == 1 && v.Content[0].Value == "ReadWriteOnce" {
			return nil
		}
		return []any{[]any{"ReadWriteOnce"}}
	case "accessMode":
		if v.Kind != yaml.ScalarNode || v.Value == "ReadWriteOnce" || !uses(key) {
			return nil
		}
		return []any{"ReadWriteOnce"}
	case "existingClaim":
		if v.Kind != yaml.ScalarNode || v.Value != "" || !uses(key) {
			return nil
		}
		return []any{"data"}
	}
	return nil
}

func scalarBool(v *yaml.Node) (bool, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		return false, false
	}
	b, err := strconv.ParseBool(v.Value)
	return b, err == nil
}

// setPath writes a key path as --set does, escaping the dots within keys.
func setPath(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		p = strings.ReplaceAll(p, `\`, `\\`)
		p = strings.ReplaceAll(p, ",", `\,`)
		p = strings.ReplaceAll(p, "=", `\=`)
		parts[i] = strings.ReplaceAll(p, ".", `\.`)
	}
	return strings.Join(parts, ".")
}

// setValue writes a value as --set reads it back as the same value.
func setValue(v any) string {
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = setValue(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	default:
		return fmt.Sprint(v)
	}
}
