// Package storagegraph draws the storage part of linted worlds — workloads that
// mount claims, with their replica counts and autoscalers, the claims and their access
// modes, the classes with provisioner and binding mode, and pre-bound PVs — as a
// Mermaid flowchart or a Graphviz DOT graph, with the rule IDs of findings marked on
// the edges they are about.
//
// It reads graphs (parsers/graph) and findings (rules/lint) only: it never runs a rule,
// so what it draws is exactly what the lint run reported.
package storagegraph

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// World is one graph to draw. Name is the Helm values variant or Kustomize build; ""
// for the only world of a plain run.
type World struct {
	Name  string
	Graph *graph.Graph
}

// Kind is what a node of the picture stands for.
type Kind string

// Node kinds.
const (
	Workload Kind = "workload"
	Scaler   Kind = "scaler"
	Claim    Kind = "claim"
	Class    Kind = "class"
	Volume   Kind = "pv"
)

// Node is one box of the picture.
type Node struct {
	ID    string   // safe identifier: letters, digits and underscores
	Kind  Kind     // what it stands for
	Lines []string // label, first line the kind and name
	// Rules are the IDs of findings about this node alone (no other node of the
	// picture is involved), sorted.
	Rules []string
}

// Edge is one arrow of the picture.
type Edge struct {
	From, To string   // node IDs
	Label    string   // what the relation is: "volume data", "scales (max 10)"
	Rules    []string // IDs of findings involving both ends, sorted
}

// Subgraph is the picture of one world.
type Subgraph struct {
	ID    string // safe identifier
	Name  string // the world's name; "" for a plain run
	Nodes []*Node
	Edges []*Edge
}

// Picture is every world's storage graph.
type Picture struct {
	Subgraphs []*Subgraph
}

// Build computes the picture of worlds, marking findings: a finding applies to the
// worlds it was seen in (every world when it names no variant), and is about every
// node whose resource contains the finding's resource, range or a related location.
// Its rule ID goes on each edge whose two ends it is about, or on the node when it is
// about one node only.
func Build(worlds []World, findings []lint.Finding) *Picture {
	p := &Picture{}
	for i, w := range worlds {
		b := &builder{g: w.Graph, sub: &Subgraph{ID: "v" + strconv.Itoa(i), Name: w.Name}, ids: map[any]*node{}}
		if len(worlds) == 1 {
			b.sub.ID = ""
		}
		b.build()
		for _, f := range findings {
			if f.Rule == nil || f.Variant != "" && f.Variant != w.Name {
				continue
			}
			b.mark(f)
		}
		b.finish()
		p.Subgraphs = append(p.Subgraphs, b.sub)
	}
	return p
}

// node is a picture node with the source ranges that identify it.
type node struct {
	*Node
	res   *graph.Resource // the resource drawn, nil for templates and unresolved names
	spans []graph.Range
	rules map[string]bool
}

type edge struct {
	*Edge
	from, to *node
	rules    map[string]bool
}

type builder struct {
	g     *graph.Graph
	sub   *Subgraph
	ids   map[any]*node
	nodes []*node
	edges []*edge
	n     int
}

// add returns the node for key, creating it with lines when new; span is added to
// the source ranges that identify it. A key that is a resource is the node's resource.
func (b *builder) add(key any, kind Kind, span graph.Range, lines ...string) *node {
	if n, ok := b.ids[key]; ok {
		if span.IsValid() && n.res == nil {
			n.spans = append(n.spans, span)
		}
		return n
	}
	b.n++
	id := string(kind[0]) + strconv.Itoa(b.n)
	if b.sub.ID != "" {
		id = b.sub.ID + "_" + id
	}
	n := &node{Node: &Node{ID: id, Kind: kind, Lines: lines}, rules: map[string]bool{}}
	if span.IsValid() {
		n.spans = append(n.spans, span)
	}
	n.res, _ = key.(*graph.Resource)
	b.ids[key] = n
	b.nodes = append(b.nodes, n)
	return n
}

func (b *builder) link(from, to *node, label string) {
	for _, e := range b.edges {
		if e.from == from && e.to == to {
			return
		}
	}
	b.edges = append(b.edges, &edge{Edge: &Edge{From: from.ID, To: to.ID, Label: label}, from: from, to: to, rules: map[string]bool{}})
}

// build adds every workload that mounts a claim, in input order, with what it
// reaches.
func (b *builder) build() {
	for _, w := range b.g.Resources {
		mounts := b.g.Mounts(w)
		if !graph.IsWorkload(w.Kind) || len(mounts) == 0 {
			continue
		}
		wn := b.add(w, Workload, w.Range, workloadLines(b.g, w)...)
		for _, s := range b.g.Scalers(w) {
			sn := b.add(s.Resource, Scaler, s.Resource.Range, title(s.Resource), "max "+strconv.Itoa(s.Max)+" replicas")
			b.link(sn, wn, "scales")
		}
		for _, m := range mounts {
			cn := b.claim(w, m)
			label := "volume " + m.VolumeName
			if !m.Shared() {
				label += " (per pod)"
			}
			b.link(wn, cn, label)
		}
	}
	// What operators create from custom resources (docs/operators.md): the resource
	// (one node per resource, its groups as lines) and the claim each of its pods gets.
	for _, s := range b.g.OperatorSets() {
		if len(s.Claims) == 0 {
			continue
		}
		r := s.Resource
		wn := b.add(r, Workload, r.Range, title(r), s.Operator)
		wn.Lines = append(wn.Lines, s.GroupLine())
		for _, c := range s.Claims {
			modes := b.g.AccessModes(c.Claim).Short()
			if modes == "" {
				modes = "no access modes"
			}
			cn := b.add(c, Claim, r.Locate(c.Base...), "PVC "+c.Claim.Name, modes, "one per pod, from "+c.Field)
			if ref := b.g.ClassOf(c.Claim); ref.Known {
				b.link(cn, b.class(ref), "class ("+ref.Via+")")
			}
			b.link(wn, cn, "claim (per pod)")
		}
	}
}

// claim adds a mounted claim with its class and pre-bound PV.
func (b *builder) claim(w *graph.Resource, m *graph.Mount) *node {
	c := m.Claim
	modes := b.g.AccessModes(c).Short()
	if modes == "" {
		modes = "no access modes"
	}
	var cn *node
	switch {
	case c.PerPod:
		cn = b.add(m, Claim, c.Object.Range, "PVC template "+c.Name, modes, "one per pod of "+w.Name)
	case c.Resource != nil:
		cn = b.add(c.Resource, Claim, c.Resource.Range, title(c.Resource), modes)
	default:
		key := graph.Key{Kind: "PersistentVolumeClaim", Namespace: c.Namespace, Name: c.Name}
		return b.add(key, Claim, m.Volume.Range, "PersistentVolumeClaim "+qualified(c.Namespace, c.Name), "not in the linted set")
	}
	if ref := b.g.ClassOf(c); ref.Known {
		b.link(cn, b.class(ref), "class ("+ref.Via+")")
	}
	if pv := b.g.PVOf(c); pv != nil {
		lines := []string{title(pv)}
		if m := strings.Join(pv.Get("spec", "accessModes").Strings(), ", "); m != "" {
			lines = append(lines, m)
		}
		if plugin, _ := graph.PVPlugin(pv.Get("spec")); plugin != "" {
			lines = append(lines, plugin)
		}
		b.link(cn, b.add(pv, Volume, pv.Range, lines...), "volumeName")
	}
	return cn
}

// class adds a claim's StorageClass: the resource when it is in the set, else its
// name alone.
func (b *builder) class(ref graph.ClassRef) *node {
	if ref.Class == nil {
		name := ref.Name
		if name == "" {
			name = `"" (no class: static binding)`
		}
		return b.add(graph.Key{Kind: "StorageClass", Name: ref.Name}, Class, graph.Range{}, "StorageClass "+name, "not in the linted set")
	}
	sc := ref.Class
	lines := []string{title(sc), "provisioner " + orUnset(sc.Get("provisioner").Str())}
	mode := sc.Get("volumeBindingMode").Str()
	if mode == "" {
		mode = "Immediate (default)"
	}
	lines = append(lines, "binding "+mode)
	if graph.IsDefaultClass(sc) {
		lines = append(lines, "default class")
	}
	return b.add(sc, Class, sc.Range, lines...)
}

// workloadLines are a workload's title, its replicas and how many pods run at once.
func workloadLines(g *graph.Graph, w *graph.Resource) []string {
	lines := []string{title(w)}
	replicas := ""
	if r := w.Get("spec", "replicas"); r != nil && !r.IsNull() {
		replicas = "replicas " + r.Scalar
		lines = append(lines, replicas)
	}
	c := g.ConcurrencyOf(w)
	switch {
	case c.Why == replicas:
	case !c.Known:
		lines = append(lines, "pods at once unknown ("+c.Why+")")
	case c.Many:
		lines = append(lines, "pods at once: many ("+c.Why+")")
	default:
		lines = append(lines, "pods at once: "+strconv.Itoa(c.N)+" ("+c.Why+")")
	}
	return lines
}

// title names a node's resource; one from the cluster context says where from
// ("StorageClass premium-rwo (GKE default classes)").
func title(r *graph.Resource) string {
	t := r.Kind + " " + qualified(r.Namespace, r.Name)
	if r.IsContext() {
		t += " (" + r.Origin.Context + ")"
	}
	return t
}

func qualified(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

func orUnset(s string) string {
	if s == "" {
		return "unset"
	}
	return s
}

// finish copies the marks into the exported values, sorted.
func (b *builder) finish() {
	for _, n := range b.nodes {
		n.Rules = sortedKeys(n.rules)
		b.sub.Nodes = append(b.sub.Nodes, n.Node)
	}
	for _, e := range b.edges {
		e.Rules = sortedKeys(e.rules)
		b.sub.Edges = append(b.sub.Edges, e.Edge)
	}
}

func sortedKeys(m map[string]bool) []string {
	if len(m) == 0 {
		return nil
	}
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
