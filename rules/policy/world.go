package policy

import (
	"math"
	"runtime"
	"slices"
	"sort"
	"strconv"
	"sync"
	"weak"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/pvlint/pvlint/parsers/graph"
)

// world is what policies see of one graph: each resource converted to a Rego value
// once, and the inventory and provisioner documents built once, on first read. It is
// shared by every policy (pvlint's and the user's) that runs over the graph.
type world struct {
	mu      sync.Mutex
	inputs  map[*graph.Resource]ast.Value
	origins map[*graph.Resource]ast.Value

	invOnce  sync.Once
	inv      ast.Value
	invWith  map[*inventorySet]ast.Value // inventoryWith, guarded by mu
	provOnce sync.Once
	prov     ast.Value
	clsOnce  sync.Once
	cls      ast.Value
	// wire holds documents encoded for a Batch (toWire), by what they encode:
	// every policy of the world sends the same ones. Guarded by mu.
	wire map[wireKey][]byte
}

// wireKey names a document of a world: data.pvlint's provisioners or classes, or
// data.inventory with a set of context resources.
type wireKey struct {
	doc string
	set *inventorySet
}

// encoded returns the document key names, encoded for a Batch once per world.
func (w *world) encoded(key wireKey, doc func() ast.Value) ([]byte, error) {
	w.mu.Lock()
	b, ok := w.wire[key]
	w.mu.Unlock()
	if ok {
		return b, nil
	}
	b, err := toWire(doc())
	if err != nil {
		return nil, err
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.wire == nil {
		w.wire = map[wireKey][]byte{}
	}
	w.wire[key] = b
	return b, nil
}

// worlds maps a graph (weakly: the entry dies with the graph) to its world.
var worlds sync.Map // weak.Pointer[graph.Graph] → *world

// worldOf returns the graph's world, creating it on first use.
func worldOf(g *graph.Graph) *world {
	key := weak.Make(g)
	if w, ok := worlds.Load(key); ok {
		return w.(*world)
	}
	w, loaded := worlds.LoadOrStore(key, &world{inputs: map[*graph.Resource]ast.Value{}, origins: map[*graph.Resource]ast.Value{}})
	if !loaded {
		runtime.AddCleanup(g, func(k weak.Pointer[graph.Graph]) { worlds.Delete(k) }, key)
	}
	return w.(*world)
}

// input returns r's object as a Rego value.
func (w *world) input(r *graph.Resource) ast.Value {
	w.mu.Lock()
	defer w.mu.Unlock()
	v, ok := w.inputs[r]
	if !ok {
		v = value(named(r))
		w.inputs[r] = v
	}
	return v
}

// named returns r's object with metadata.name as the graph names r when the object's
// own name is not known statically (a Terraform name built from a variable without a
// value, or a plan's "known after apply"). Unknown values reach Rego as null, and a
// policy printing the name would say "StorageClass null"; the graph's name is the
// expression that decides it (in a plan, the resource's Terraform address), the one
// Go rules print and data.inventory is keyed by. Known names and objects without
// metadata are unchanged.
func named(r *graph.Resource) *graph.Node {
	obj := r.Object
	meta := obj.Get("metadata")
	if n := meta.Get("name"); n == nil || !n.IsUnknown() || r.Name == "" {
		return obj
	}
	cp := func(n *graph.Node) *graph.Node {
		// A copy of its own entries: Contents is a pointer, and the graph's node,
		// which Go rules read at the same time, must not change.
		c := *n
		c.Contents = nil
		c.SetFields(append([]graph.Field(nil), n.Fields()...))
		return &c
	}
	m := cp(meta)
	for i, f := range m.Fields() {
		if f.Key == "name" {
			m.Fields()[i].Value = &graph.Node{Kind: graph.String, Scalar: r.Name, Range: f.Value.Range}
		}
	}
	o := cp(obj)
	for i, f := range o.Fields() {
		if f.Key == "metadata" {
			o.Fields()[i].Value = m
		}
	}
	return o
}

// origin returns data.pvlint.resource for r: where it was defined (format, file,
// document, variant, Terraform address, Helm source), its namespace after defaulting
// (input.metadata.namespace may be absent), and the paths of values Terraform only
// knows after apply, which input shows as null.
func (w *world) origin(r *graph.Resource) ast.Value {
	if r == nil {
		return ast.NewObject()
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if v, ok := w.origins[r]; ok {
		return v
	}
	o := r.Origin
	var unknown []*ast.Term
	unknownPaths(r.Object, nil, &unknown)
	v := ast.NewObject(
		[2]*ast.Term{ast.StringTerm("format"), ast.StringTerm(string(o.Format))},
		[2]*ast.Term{ast.StringTerm("file"), ast.StringTerm(o.File)},
		[2]*ast.Term{ast.StringTerm("document"), ast.IntNumberTerm(o.Doc)},
		[2]*ast.Term{ast.StringTerm("variant"), ast.StringTerm(o.Variant)},
		[2]*ast.Term{ast.StringTerm("address"), ast.StringTerm(o.Address)},
		[2]*ast.Term{ast.StringTerm("source"), ast.StringTerm(o.Source)},
		[2]*ast.Term{ast.StringTerm("namespace"), ast.StringTerm(r.Namespace)},
		[2]*ast.Term{ast.StringTerm("unknown"), ast.ArrayTerm(unknown...)},
	)
	w.origins[r] = v
	return v
}

// unknownPaths appends the path of every unknown value under n, as arrays of keys and
// indexes in document order.
func unknownPaths(n *graph.Node, at []*ast.Term, out *[]*ast.Term) {
	if n == nil {
		return
	}
	switch n.Kind {
	case graph.Unknown:
		*out = append(*out, ast.ArrayTerm(slices.Clone(at)...))
	case graph.Map:
		for _, f := range n.Fields() {
			unknownPaths(f.Value, append(at, ast.StringTerm(f.Key)), out)
		}
	case graph.List:
		for i, it := range n.Items() {
			unknownPaths(it, append(at, ast.IntNumberTerm(i)), out)
		}
	}
}

// inventory returns data.inventory in Gatekeeper's layout:
// namespace[ns][apiVersion][kind][name] and cluster[apiVersion][kind][name]. The first
// resource of a key wins, as graph.Lookup does.
func (w *world) inventory(g *graph.Graph) ast.Value {
	w.invOnce.Do(func() { w.inv = w.buildInventory(g.Resources) })
	return w.inv
}

// inventorySet is a set of resources that join data.inventory beside a graph's own
// (GatekeeperOptions.Context); the world builds the joined inventory once per set.
type inventorySet struct {
	resources []*graph.Resource
}

// inventoryWith is data.inventory of the graph's resources followed by set's: a
// graph's resource wins over a set's of the same key.
func (w *world) inventoryWith(g *graph.Graph, set *inventorySet) ast.Value {
	if set == nil || len(set.resources) == 0 {
		return w.inventory(g)
	}
	w.mu.Lock()
	v, ok := w.invWith[set]
	w.mu.Unlock()
	if ok {
		return v
	}
	v = w.buildInventory(g.Resources, set.resources)
	w.mu.Lock()
	defer w.mu.Unlock()
	if prev, ok := w.invWith[set]; ok {
		return prev
	}
	if w.invWith == nil {
		w.invWith = map[*inventorySet]ast.Value{}
	}
	w.invWith[set] = v
	return v
}

// buildInventory lays out resources in Gatekeeper's layout; the first of a key wins.
func (w *world) buildInventory(sets ...[]*graph.Resource) ast.Value {
	ns, cluster := ast.NewObject(), ast.NewObject()
	for _, rs := range sets {
		for _, r := range rs {
			if r.Name == "" || r.Kind == "" || r.APIVersion == "" {
				continue
			}
			root := cluster
			if r.Namespace != "" && !graph.IsClusterScoped(r.Kind) {
				root = child(ns, r.Namespace)
			}
			byName := child(child(root, r.APIVersion), r.Kind)
			key := ast.StringTerm(r.Name)
			if byName.Get(key) == nil {
				byName.Insert(key, ast.NewTerm(w.input(r)))
			}
		}
	}
	return ast.NewObject(
		[2]*ast.Term{ast.StringTerm("namespace"), ast.NewTerm(ns)},
		[2]*ast.Term{ast.StringTerm("cluster"), ast.NewTerm(cluster)},
	)
}

// child returns obj[key], inserting an empty object when absent.
func child(obj ast.Object, key string) ast.Object {
	k := ast.StringTerm(key)
	if t := obj.Get(k); t != nil {
		return t.Value.(ast.Object)
	}
	o := ast.NewObject()
	obj.Insert(k, ast.NewTerm(o))
	return o
}

// provisioners returns data.pvlint.provisioners: the run's provisioner table, so Rego
// policies classify backends exactly as the Go rules do.
func (w *world) provisioners(g *graph.Graph) ast.Value {
	w.provOnce.Do(func() {
		obj := ast.NewObject()
		rows := map[string]graph.Provisioner{}
		for _, name := range g.Provisioners.Names() {
			rows[name], _ = g.Provisioners.Lookup(name)
		}
		// The provisioners the graph's classes name, as the Go rules classify them:
		// a prefixed driver name (Rook's "rook-ceph.rbd.csi.ceph.com") gets its
		// driver's row rather than looking unknown to policies.
		for _, sc := range g.ByKind("StorageClass") {
			if name := sc.Get("provisioner").Str(); name != "" {
				if _, ok := rows[name]; !ok {
					rows[name] = g.Provisioners.Classify(name)
				}
			}
		}
		names := make([]string, 0, len(rows))
		for name := range rows {
			names = append(names, name)
		}
		sort.Strings(names)
		for _, name := range names {
			p := rows[name]
			obj.Insert(ast.StringTerm(name), ast.ObjectTerm(
				[2]*ast.Term{ast.StringTerm("backend"), ast.StringTerm(p.Backend.String())},
				[2]*ast.Term{ast.StringTerm("topology"), ast.StringTerm(topologyName(p.Topology))},
				[2]*ast.Term{ast.StringTerm("csi"), ast.BooleanTerm(p.CSI)},
				[2]*ast.Term{ast.StringTerm("in_tree"), ast.StringTerm(inTreeName(p.InTree))},
				[2]*ast.Term{ast.StringTerm("csi_name"), ast.StringTerm(p.CSIName)},
			))
		}
		w.prov = obj
	})
	return w.prov
}

// classes returns data.pvlint.classes: per StorageClass name, the backend and placement
// the graph derives for it (graph.Graph.ClassBackend, PlacementOf), so a policy reads
// the verdict the Go rules use instead of re-deriving it from the provisioner alone
// (a local-path class served from a sharedFileSystemPath is not node-local). The
// first class of a name wins, as graph.Lookup and data.inventory do.
func (w *world) classes(g *graph.Graph) ast.Value {
	w.clsOnce.Do(func() {
		obj := ast.NewObject()
		for _, sc := range g.ByKind("StorageClass") {
			key := ast.StringTerm(sc.Name)
			if sc.Name == "" || obj.Get(key) != nil {
				continue
			}
			b, p := g.ClassBackend(sc), g.PlacementOf(sc)
			fields := [][2]*ast.Term{
				{ast.StringTerm("provisioner"), ast.StringTerm(b.Provisioner)},
				{ast.StringTerm("backend"), ast.StringTerm(b.Class.String())},
				{ast.StringTerm("topology"), ast.StringTerm(topologyName(p.Topology))},
			}
			if b.Provisioner == graph.LocalPathProvisioner {
				fields = append(fields, [2]*ast.Term{ast.StringTerm("local_path"), ast.StringTerm(localPathName(p.LocalPath))})
			}
			if cm := p.Config; cm != nil {
				fields = append(fields, [2]*ast.Term{ast.StringTerm("config"), ast.ObjectTerm(
					[2]*ast.Term{ast.StringTerm("kind"), ast.StringTerm(cm.Kind)},
					[2]*ast.Term{ast.StringTerm("namespace"), ast.StringTerm(cm.Namespace)},
					[2]*ast.Term{ast.StringTerm("name"), ast.StringTerm(cm.Name)},
				)})
			}
			obj.Insert(key, ast.ObjectTerm(fields...))
		}
		w.cls = obj
	})
	return w.cls
}

func localPathName(m graph.LocalPathMode) string {
	switch m {
	case graph.LocalPathNodePath:
		return "node-path"
	case graph.LocalPathSharedFS:
		return "shared-filesystem"
	}
	return "unknown"
}

func topologyName(t graph.Topology) string {
	switch t {
	case graph.NodeLocal:
		return "node-local"
	case graph.Zonal:
		return "zonal"
	case graph.TopologyFree:
		return "topology-free"
	}
	return "unknown"
}

func inTreeName(t graph.InTree) string {
	switch t {
	case graph.Migrated:
		return "migrated"
	case graph.Removed:
		return "removed"
	}
	return ""
}

// value converts a node to a Rego value with the semantics of graph.Node.Interface:
// unknown values are null, integer literals are numbers.
func value(n *graph.Node) ast.Value {
	if n == nil {
		return ast.Null{}
	}
	switch n.Kind {
	case graph.Map:
		terms := make([][2]*ast.Term, 0, len(n.Fields()))
		for _, f := range n.Fields() {
			terms = append(terms, [2]*ast.Term{ast.StringTerm(f.Key), ast.NewTerm(value(f.Value))})
		}
		return ast.NewObject(terms...)
	case graph.List:
		terms := make([]*ast.Term, len(n.Items()))
		for i, it := range n.Items() {
			terms[i] = ast.NewTerm(value(it))
		}
		return ast.NewArray(terms...)
	case graph.String:
		return ast.String(n.Scalar)
	case graph.Int:
		if v, err := strconv.ParseInt(n.Scalar, 0, 64); err == nil {
			return ast.Number(strconv.FormatInt(v, 10))
		}
		return number(n.Scalar)
	case graph.Float:
		return number(n.Scalar)
	case graph.Bool:
		b, _ := n.Bool()
		return ast.Boolean(b)
	}
	return ast.Null{}
}

// number converts a float literal as Interface's float64 would, and keeps literals
// that are not finite numbers as strings (JSON has no NaN or infinity).
func number(s string) ast.Value {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return ast.String(s)
	}
	return ast.Number(strconv.FormatFloat(f, 'g', -1, 64))
}
