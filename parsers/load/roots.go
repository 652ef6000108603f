package load

import (
	"sort"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Terraform root module worlds.
//
// A repository often holds several Terraform root modules, each applied on its own
// (course sections, environments, stacks): one `terraform apply` creates one root's
// resources, never another's. Linted as one world, a claim named by string in one root
// would bind another root's claim of that name. Root modules that define the same
// object (kind, namespace and name, known statically) as another root module are
// alternatives, as directories of manifests that do are (docs/rules.md#decision-13):
// each such root module (a module another directory calls is part of its caller's
// root) is a world of its own: its resources, joined with the plain manifests of its
// own directory tree (the innermost root holding them), and with the cluster context.
// Those manifests leave the other worlds; the rest of the load (plain manifests
// elsewhere, charts, kustomizations, plans, and the root modules that define nothing
// another one does, such as a platform root of StorageClasses beside the teams' roots
// that use them) is linted as before, without the alternatives' resources. The
// resources of a root world carry its directory as their variant, so findings name
// it.

// rootWorld is one Terraform root module's world.
type rootWorld struct {
	dir       string // the root module's directory, as displayed
	resources []*graph.Resource
}

// splitRoots moves the resources of each Terraform root module, when there are
// several, into a world of its own. It runs once Terraform is loaded, before the
// directory worlds are found among the remaining plain manifests.
func (l *loader) splitRoots() {
	ns := l.opts.Helm.Namespace
	if ns == "" {
		ns = "default"
	}
	type key struct{ kind, ns, name string }
	definers := map[key]map[string]bool{} // object → the roots that define it
	for _, r := range l.res.Base {
		if r.Origin.Format != graph.FormatTerraform || r.Origin.Root == "" {
			continue
		}
		if n := r.Get("metadata", "name"); n.Str() == "" || n.IsUnknown() || r.Kind == "" {
			continue
		}
		k := key{r.Kind, r.Namespace, r.Name}
		if graph.IsClusterScoped(r.Kind) {
			k.ns = ""
		} else if k.ns == "" {
			k.ns = ns
		}
		if definers[k] == nil {
			definers[k] = map[string]bool{}
		}
		definers[k][r.Origin.Root] = true
	}
	alt := map[string]bool{}
	for _, rs := range definers {
		if len(rs) > 1 {
			for d := range rs {
				alt[d] = true
			}
		}
	}
	if len(alt) < 2 {
		return
	}
	roots := make([]string, 0, len(alt))
	for d := range alt {
		roots = append(roots, d)
	}
	sort.Strings(roots)
	byRoot := map[string]*rootWorld{}
	for _, d := range roots {
		w := &rootWorld{dir: d}
		byRoot[d] = w
		l.res.roots = append(l.res.roots, w)
	}
	l.res.inRoot = map[*graph.Resource]bool{}
	for _, r := range l.res.Base {
		var w *rootWorld
		switch {
		case r.Origin.Format == graph.FormatTerraform && r.Origin.Root != "":
			w = byRoot[r.Origin.Root]
		case plain(r):
			w = byRoot[innermostRoot(roots, r.Origin.File)]
		}
		if w == nil {
			continue
		}
		r.Origin.Variant = w.dir
		w.resources = append(w.resources, r)
		l.res.inRoot[r] = true
	}
}

// base is Base without the resources of root module worlds.
func (r *Result) base() []*graph.Resource {
	if len(r.inRoot) == 0 {
		return r.Base
	}
	out := make([]*graph.Resource, 0, len(r.Base)-len(r.inRoot))
	for _, res := range r.Base {
		if !r.inRoot[res] {
			out = append(out, res)
		}
	}
	return out
}

// innermostRoot is the deepest root module directory holding the file, or "".
func innermostRoot(roots []string, file string) string {
	best := ""
	for _, d := range roots {
		if underDir(file, d) && (best == "" || len(d) > len(best)) {
			best = d
		}
	}
	return best
}

// RootDirs lists the Terraform root modules linted as worlds of their own, sorted;
// nil when the load has at most one.
func (r *Result) RootDirs() []string {
	var out []string
	for _, w := range r.roots {
		out = append(out, w.dir)
	}
	return out
}
