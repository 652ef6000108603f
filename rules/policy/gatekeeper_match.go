package policy

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// matcher is a constraint's spec.match: which objects its template is evaluated on.
// Every field set must hold, as Gatekeeper's match does.
type matcher struct {
	kinds      []kindMatch
	scope      string // "", "*", "Cluster" or "Namespaced"
	namespaces []string
	excluded   []string
	name       string
	labels     *selector
	nsLabels   *selector
}

// kindMatch is one entry of match.kinds; an empty list (or "*") matches any.
type kindMatch struct{ groups, kinds []string }

// selector is a Kubernetes label selector: matchLabels and matchExpressions.
type selector struct {
	labels map[string]string
	exprs  []requirement
}

type requirement struct {
	key, op string
	values  []string
}

func newMatcher(n *graph.Node) (matcher, *matchError) {
	var m matcher
	if n == nil {
		return m, nil
	}
	for _, k := range n.Get("kinds").List() {
		m.kinds = append(m.kinds, kindMatch{groups: k.Get("apiGroups").Strings(), kinds: k.Get("kinds").Strings()})
	}
	if s := n.Get("scope"); s != nil {
		switch m.scope = s.Str(); m.scope {
		case "", "*", "Cluster", "Namespaced":
		default:
			return m, &matchError{s.Range, fmt.Sprintf("match.scope %q is none of *, Cluster, Namespaced", m.scope)}
		}
	}
	m.namespaces = n.Get("namespaces").Strings()
	m.excluded = n.Get("excludedNamespaces").Strings()
	m.name = n.Get("name").Str()
	var err *matchError
	if m.labels, err = newSelector(n.Get("labelSelector")); err != nil {
		return m, err
	}
	if m.nsLabels, err = newSelector(n.Get("namespaceSelector")); err != nil {
		return m, err
	}
	return m, nil
}

func newSelector(n *graph.Node) (*selector, *matchError) {
	if n == nil {
		return nil, nil
	}
	s := &selector{labels: map[string]string{}}
	if l := n.Get("matchLabels"); l != nil {
		for _, f := range l.Fields() {
			s.labels[f.Key] = f.Value.Str()
		}
	}
	for _, e := range n.Get("matchExpressions").List() {
		r := requirement{key: e.Get("key").Str(), op: e.Get("operator").Str(), values: e.Get("values").Strings()}
		switch r.op {
		case "In", "NotIn", "Exists", "DoesNotExist":
		default:
			return nil, &matchError{e.Locate("operator"), fmt.Sprintf("selector operator %q is none of In, NotIn, Exists, DoesNotExist", r.op)}
		}
		s.exprs = append(s.exprs, r)
	}
	return s, nil
}

// matches reports whether the selector selects labels.
func (s *selector) matches(labels map[string]string) bool {
	if s == nil {
		return true
	}
	for k, v := range s.labels {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	for _, r := range s.exprs {
		v, ok := labels[r.key]
		switch r.op {
		case "In":
			if !ok || !slices.Contains(r.values, v) {
				return false
			}
		case "NotIn":
			if ok && slices.Contains(r.values, v) {
				return false
			}
		case "Exists":
			if !ok {
				return false
			}
		case "DoesNotExist":
			if ok {
				return false
			}
		}
	}
	return true
}

func labelsOf(r *graph.Resource) map[string]string {
	out := map[string]string{}
	if l := r.Get("metadata", "labels"); l != nil {
		for _, f := range l.Fields() {
			out[f.Key] = f.Value.Str()
		}
	}
	return out
}

// matches reports whether the constraint applies to r. A Namespace is matched by
// its own name and labels for the namespace fields; other cluster-scoped objects
// are not subject to them. namespaceSelector reads the labels of r's Namespace
// object from the graph or the context; a resource whose Namespace is in neither is
// not matched, since its labels are not known.
func (m *matcher) matches(r *graph.Resource, g *graph.Graph, inv *inventorySet) bool {
	if len(m.kinds) > 0 && !slices.ContainsFunc(m.kinds, func(k kindMatch) bool { return k.matches(r.Group(), r.Kind) }) {
		return false
	}
	isNS := r.Kind == "Namespace" && r.Group() == ""
	cluster := graph.IsClusterScoped(r.Kind)
	switch m.scope {
	case "Cluster":
		if !cluster {
			return false
		}
	case "Namespaced":
		if cluster {
			return false
		}
	}
	if m.name != "" && !glob(m.name, r.Name) {
		return false
	}
	if !m.labels.matches(labelsOf(r)) {
		return false
	}
	ns := r.Namespace
	if isNS {
		ns = r.Name
	}
	if cluster && !isNS {
		return true
	}
	if len(m.namespaces) > 0 && !slices.ContainsFunc(m.namespaces, func(p string) bool { return glob(p, ns) }) {
		return false
	}
	if slices.ContainsFunc(m.excluded, func(p string) bool { return glob(p, ns) }) {
		return false
	}
	if m.nsLabels != nil {
		nsObj := r
		if !isNS {
			if nsObj = namespaceObject(g, inv, ns); nsObj == nil {
				return false
			}
		}
		if !m.nsLabels.matches(labelsOf(nsObj)) {
			return false
		}
	}
	return true
}

// namespaceObject is the Namespace named ns in the graph, else in the context.
func namespaceObject(g *graph.Graph, inv *inventorySet, ns string) *graph.Resource {
	if r := g.Lookup("Namespace", "", ns); r != nil {
		return r
	}
	if inv != nil {
		for _, r := range inv.resources {
			if r.Kind == "Namespace" && r.Name == ns {
				return r
			}
		}
	}
	return nil
}

func (k kindMatch) matches(group, kind string) bool {
	kindOK := len(k.kinds) == 0 || slices.Contains(k.kinds, "*") || slices.Contains(k.kinds, kind)
	groupOK := len(k.groups) == 0 || slices.Contains(k.groups, "*") || slices.Contains(k.groups, group)
	return kindOK && groupOK
}

// glob matches Gatekeeper's name and namespace patterns: exact, or with one "*" as
// a prefix or suffix wildcard (kube-*, *-system).
func glob(pattern, s string) bool {
	switch {
	case pattern == "*":
		return true
	case strings.HasSuffix(pattern, "*"):
		return strings.HasPrefix(s, strings.TrimSuffix(pattern, "*"))
	case strings.HasPrefix(pattern, "*"):
		return strings.HasSuffix(s, strings.TrimPrefix(pattern, "*"))
	}
	return pattern == s
}
