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
// would bind another root's claim of that name, and the same addresses would collide.
// So when the Terraform resources of a load come from two or more root modules (a
// module another directory calls is part of its caller's root), each root module is a
// world of its own, as independent directories of manifests are
// (docs/rules.md#decision-13): its resources, joined with the plain manifests of its
// own directory tree (the innermost root holding them), and with the cluster context.
// Those manifests leave the other worlds; the rest of the load (plain manifests
// elsewhere, charts, kustomizations, plans) is linted without any root module's
// resources. The resources of a root world carry its directory as their variant, so
// findings name it. One root module changes nothing: its resources join every world,
// as before.

// rootWorld is one Terraform root module's world.
type rootWorld struct {
	dir       string // the root module's directory, as displayed
	resources []*graph.Resource
}

// splitRoots moves the resources of each Terraform root module, when there are
// several, into a world of its own. It runs once Terraform is loaded, before the
// directory worlds are found among the remaining plain manifests.
func (l *loader) splitRoots() {
	var roots []string
	seen := map[string]bool{}
	for _, r := range l.res.Base {
		if r.Origin.Format == graph.FormatTerraform && r.Origin.Root != "" && !seen[r.Origin.Root] {
			seen[r.Origin.Root] = true
			roots = append(roots, r.Origin.Root)
		}
	}
	if len(roots) < 2 {
		return
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
