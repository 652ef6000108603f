package graph

import "sort"

// Options configure how a Graph interprets its resources.
type Options struct {
	// DefaultNamespace is the namespace of namespaced resources that set none, as
	// kubectl would apply them ("default" when empty).
	DefaultNamespace string
	// Provisioners is the backend table; nil means DefaultProvisioners.
	Provisioners *ProvisionerTable
}

// Key identifies a resource within one graph. Kinds are compared without their API
// group, as scaleTargetRef and claim references do in practice.
type Key struct {
	Kind, Namespace, Name string
}

// Graph is one linted world: a set of resources and the storage relations between them,
// computed once by New so that rules only read.
type Graph struct {
	// Resources in input order (files in walk order, documents in file order).
	Resources []*Resource
	// Provisioners classifies storage backends.
	Provisioners *ProvisionerTable

	byKey  map[Key]*Resource
	byKind map[string][]*Resource
	// byAddr indexes Terraform resources by root module and address.
	byAddr map[tfAddr]*Resource
	// dups holds every resource of a key defined more than once (several examples
	// or environments linted together), in input order.
	dups map[Key][]*Resource

	mounts    map[*Resource][]*Mount // workload → the claims its pods mount
	consumers map[*Resource][]*Mount // claim resource → mounts of it
	scalers   map[*Resource][]*Scaler
	// blindScalers are autoscalers whose target name is unknown, by where they may point.
	blindScalers map[scalerScope][]*Scaler
	defaults     []*Resource // StorageClasses whose default annotation is exactly "true"
	workloadRef  map[*Resource]*Resource
	// localPath are the local-path-provisioner's ConfigMaps (LocalPathConfigName),
	// consulted once per claim of a local-path class.
	localPath []*Resource
	// operated are the pod groups of modelled operator resources (operators.go).
	operated []*OperatorSet
}

// New indexes resources and computes their relations. It defaults the namespace of
// namespaced resources in place.
func New(resources []*Resource, opts Options) *Graph {
	ns := opts.DefaultNamespace
	if ns == "" {
		ns = "default"
	}
	g := &Graph{
		Resources:    resources,
		Provisioners: opts.Provisioners,
		byKey:        make(map[Key]*Resource, len(resources)),
		byKind:       make(map[string][]*Resource),
		byAddr:       make(map[tfAddr]*Resource),
		dups:         make(map[Key][]*Resource),
		mounts:       make(map[*Resource][]*Mount),
		consumers:    make(map[*Resource][]*Mount),
		scalers:      make(map[*Resource][]*Scaler),
		blindScalers: make(map[scalerScope][]*Scaler),
		workloadRef:  make(map[*Resource]*Resource),
	}
	if g.Provisioners == nil {
		g.Provisioners = DefaultProvisioners()
	}
	kept := resources[:0:0]
	for _, r := range resources {
		if IsClusterScoped(r.Kind) {
			r.Namespace = ""
		} else if r.Namespace == "" {
			r.Namespace = ns
		}
		k := Key{r.Kind, r.Namespace, r.Name}
		if _, dup := g.byKey[k]; dup && r.IsContext() {
			// The cluster's object yields to the one being linted (which is what
			// will be applied) and to an earlier context object: it takes no part.
			continue
		}
		kept = append(kept, r)
		if first, dup := g.byKey[k]; !dup {
			g.byKey[k] = r
		} else {
			if len(g.dups[k]) == 0 {
				g.dups[k] = []*Resource{first}
			}
			g.dups[k] = append(g.dups[k], r)
		}
		g.byKind[r.Kind] = append(g.byKind[r.Kind], r)
		if r.Origin.Address != "" && r.Origin.Format == FormatTerraform {
			if a := (tfAddr{r.Origin.Root, r.Origin.Address}); g.byAddr[a] == nil {
				g.byAddr[a] = r
			}
		}
		if r.Kind == "ConfigMap" && r.Name == LocalPathConfigName {
			g.localPath = append(g.localPath, r)
		}
	}
	g.Resources = kept
	g.defaults = defaultTier(g.byKind["StorageClass"])
	for _, r := range kept {
		if IsWorkload(r.Kind) {
			g.linkWorkload(r)
		}
	}
	for _, r := range kept {
		g.linkScaler(r)
	}
	for _, r := range kept {
		g.linkOperator(r)
	}
	return g
}

// defaultTier picks the default classes that serve claims without a class. The
// linted set's own defaults come first: they are what the repository applies. Only
// when it marks none do a cluster snapshot's defaults serve, and only when the
// snapshot has none either does a platform profile's; of several profiles, the first
// one given that has a default (a cluster has one default, not one per profile).
func defaultTier(classes []*Resource) []*Resource {
	var linted, snapshot, profile []*Resource
	first := ""
	for _, sc := range classes {
		if !IsDefaultClass(sc) {
			continue
		}
		switch {
		case !sc.IsContext():
			linted = append(linted, sc)
		case sc.Origin.Format != FormatProfile:
			snapshot = append(snapshot, sc)
		case first == "" || sc.Origin.Context == first:
			first = sc.Origin.Context
			profile = append(profile, sc)
		}
	}
	switch {
	case len(linted) > 0:
		return linted
	case len(snapshot) > 0:
		return snapshot
	}
	return profile
}

// Lookup returns the resource of the given kind, namespace and name, or nil. Pass ""
// as namespace for cluster-scoped kinds.
func (g *Graph) Lookup(kind, namespace, name string) *Resource {
	if IsClusterScoped(kind) {
		namespace = ""
	}
	return g.byKey[Key{kind, namespace, name}]
}

// LookupNear is Lookup for a reference made from file (a claimName, a
// storageClassName, a scaleTargetRef): when the linted set defines the key more than
// once, as happens when several examples or environments are linted together, the
// definition in the referring file wins, since that is the one applied with it;
// otherwise the first definition, as Lookup.
func (g *Graph) LookupNear(kind, namespace, name, file string) *Resource {
	if IsClusterScoped(kind) {
		namespace = ""
	}
	k := Key{kind, namespace, name}
	for _, r := range g.dups[k] {
		if r.Range.File == file {
			return r
		}
	}
	return g.byKey[k]
}

// tfAddr is a Terraform address within its root module.
type tfAddr struct{ root, addr string }

// ByAddress returns the Terraform resource at addr of the root module root, or nil.
func (g *Graph) ByAddress(root, addr string) *Resource { return g.byAddr[tfAddr{root, addr}] }

// referenced returns the resource of kind that the value n of from's object
// references by Terraform address (Resource.TerraformRef), or nil.
func (g *Graph) referenced(from *Resource, n *Node, kind string) *Resource {
	addr := from.TerraformRef(n)
	if addr == "" {
		return nil
	}
	if r := g.ByAddress(from.Origin.Root, addr); r != nil && r.Kind == kind {
		return r
	}
	return nil
}

// RefName is how messages name a resource a reference reached: its name when known,
// otherwise its Terraform address.
func RefName(r *Resource) string {
	if n := r.Get("metadata", "name"); n.IsUnknown() && r.Origin.Address != "" {
		return r.Origin.Address
	}
	return r.Name
}

// ByKind returns the resources of a kind in input order.
func (g *Graph) ByKind(kind string) []*Resource { return g.byKind[kind] }

// Kinds returns every kind present, sorted.
func (g *Graph) Kinds() []string {
	out := make([]string, 0, len(g.byKind))
	for k := range g.byKind {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// Mounts returns the claims a workload's pods mount (shared and per-pod), in the order
// of its pod template's volumes followed by its claim templates.
func (g *Graph) Mounts(w *Resource) []*Mount { return g.mounts[w] }

// Consumers returns the mounts of a PersistentVolumeClaim resource by any workload.
func (g *Graph) Consumers(claim *Resource) []*Mount { return g.consumers[claim] }

// Scalers returns the autoscalers (HPA, KEDA ScaledObject) targeting a workload.
func (g *Graph) Scalers(w *Resource) []*Scaler { return g.scalers[w] }

// DefaultClasses returns the StorageClasses whose default annotation is exactly "true".
func (g *Graph) DefaultClasses() []*Resource { return g.defaults }

// WorkloadRef returns the Deployment an Argo Rollout takes its pod template from, or nil.
func (g *Graph) WorkloadRef(rollout *Resource) *Resource { return g.workloadRef[rollout] }

// Duplicates returns every key this world defines more than once, each as its
// definitions in input order, ordered by their first definition.
func (g *Graph) Duplicates() [][]*Resource {
	var out [][]*Resource
	for _, r := range g.Resources {
		if ds := g.dups[Key{r.Kind, r.Namespace, r.Name}]; len(ds) > 1 && ds[0] == r {
			out = append(out, ds)
		}
	}
	return out
}
