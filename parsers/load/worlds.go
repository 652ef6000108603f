package load

import (
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Directory worlds.
//
// A repository often holds several independent sets of manifests side by side: one
// directory per environment (envs/dev, envs/prod) or per example. Linted together
// they would look like one cluster in which a Deployment, a claim or a default
// StorageClass is defined twice, and one example's claim would be mounted by another
// example's pods. So when plain manifests of two directories define the same kind,
// namespace and name, those directories are alternatives: for the pair, the
// directories directly under their deepest common ancestor. Each alternative is linted
// as a world of its own, joined with every file outside all alternatives (as a Helm
// values variant is), and the resources in it carry the directory as their variant,
// so findings name it. A reference then resolves within its own world only. Two
// definitions in one directory, or one in a directory and one in its ancestor, stay in
// one world: the duplicate-resource rule reports them.
//
// Directories can also be declared worlds of their own (Options.World, the
// configuration's worlds: globs), for repositories of independent examples that share
// no names.

// maxDirWorlds bounds the directory worlds of one load.
const maxDirWorlds = 1000

// split is the outcome of splitting plain manifests into directory worlds.
type split struct {
	// leaves are the world directories with no world directory inside them, sorted:
	// one linted world each.
	leaves []string
	// dirOf is the innermost world directory of a resource in one ("" or absent: outside).
	dirOf map[*graph.Resource]string
}

// splitWorlds finds the world directories of the plain manifests and marks their
// resources with them. It runs once all inputs are read.
func (l *loader) splitWorlds() {
	ns := l.opts.Helm.Namespace
	if ns == "" {
		ns = "default"
	}
	type key struct{ kind, ns, name string }
	groups := map[key][]string{} // definitions' directories, in input order
	var dirs []string            // every directory holding plain manifests
	seenDir := map[string]bool{}
	for _, r := range l.res.base() {
		if !plain(r) {
			continue
		}
		d := path.Dir(r.Origin.File)
		if !seenDir[d] {
			seenDir[d] = true
			dirs = append(dirs, d)
		}
		if r.Get("metadata", "name").Str() == "" || r.Kind == "" {
			continue // generateName, or no name at all: nothing to collide on
		}
		k := key{r.Kind, r.Namespace, r.Name}
		if graph.IsClusterScoped(r.Kind) {
			k.ns = ""
		} else if k.ns == "" {
			k.ns = ns
		}
		groups[k] = append(groups[k], d)
	}
	for _, v := range l.res.Variants {
		for _, r := range v.Resources {
			if d := path.Dir(r.Origin.File); r.Origin.File != "" && !seenDir[d] {
				seenDir[d] = true
				dirs = append(dirs, d) // for the globs: a chart's directory can be a world
			}
		}
	}
	worlds := map[string]bool{}
	for _, ds := range groups {
		if len(ds) < 2 {
			continue
		}
		// Two definitions in directories a and b, neither holding the other, make the
		// directories directly under their deepest common ancestor alternatives. So
		// every directory T under which two or more of its children hold a definition
		// makes each of those children a world; a definition directly in T is in
		// every one of them (a duplicate, not an alternative).
		children := map[string]map[string]bool{}
		for _, d := range uniqueDirs(ds) {
			for child := d; child != "." && child != "/"; child = path.Dir(child) {
				top := path.Dir(child)
				if children[top] == nil {
					children[top] = map[string]bool{}
				}
				children[top][child] = true
			}
		}
		for _, cs := range children {
			if len(cs) < 2 {
				continue
			}
			for c := range cs {
				worlds[c] = true
			}
		}
	}
	if l.opts.World != nil {
		asked := map[string]bool{}
		for _, d := range dirs {
			for a := d; a != "." && a != "/" && a != "" && !asked[a]; a = path.Dir(a) {
				asked[a] = true
				abs := filepath.FromSlash(a)
				if !filepath.IsAbs(abs) {
					abs = filepath.Join(l.opts.Dir, abs)
				}
				if l.opts.World(abs) {
					worlds[a] = true
				}
			}
		}
	}
	if len(worlds) == 0 {
		return
	}
	s := &split{dirOf: map[*graph.Resource]string{}}
	all := make([]string, 0, len(worlds))
	for w := range worlds {
		all = append(all, w)
	}
	sort.Strings(all)
	for _, w := range all {
		leaf := true
		for _, o := range all {
			if o != w && underDir(o, w) {
				leaf = false
				break
			}
		}
		if leaf {
			s.leaves = append(s.leaves, w)
		}
	}
	if len(s.leaves) > maxDirWorlds {
		// Each world is linted with every file outside the world directories: past
		// the bound the work would grow with their product, so the load stays one
		// world, as it was before directories were told apart.
		l.diag(s.leaves[0], 1, 1, "%d directories define the same resources, more than the limit of %d separate worlds: they are linted as one (list the directories that are worlds under worlds: in .pvlint.yaml, or lint them one at a time)", len(s.leaves), maxDirWorlds)
		return
	}
	for _, r := range l.res.base() {
		if !plain(r) {
			continue
		}
		if w := innermost(all, r.Origin.File); w != "" {
			s.dirOf[r] = w
			r.Origin.Variant = w
		}
	}
	for _, v := range l.res.Variants {
		for _, r := range v.Resources {
			if w := innermost(all, r.Origin.File); w != "" {
				s.dirOf[r] = w
			}
		}
	}
	l.res.split = s
}

// plain reports whether a resource comes from a plain manifest file (not a chart,
// a kustomization, Terraform or standard input).
func plain(r *graph.Resource) bool {
	return r.Origin.Format == graph.FormatYAML && r.Origin.File != "" && !strings.HasPrefix(r.Origin.File, "<")
}

// worlds is Worlds for a load split into directory worlds: one world per leaf
// directory (or per variant whose files lie in it), each with the resources outside
// every world directory, those of the leaf and those of the world directories
// around it; variants outside every world directory are joined with the outside
// resources alone.
func (r *Result) worlds() []Variant {
	s := r.split
	base := r.base()
	var outside []*graph.Resource
	for _, res := range base {
		if s.dirOf[res] == "" {
			outside = append(outside, res)
		}
	}
	// variantDir is the innermost world directory holding every resource of a
	// variant, "" when they are outside or spread over several.
	variantDir := func(v Variant) string {
		d, first := "", true
		for _, res := range v.Resources {
			w := s.dirOf[res]
			if first {
				d, first = w, false
			} else if w != d {
				return ""
			}
		}
		return d
	}
	attached := map[string][]Variant{}
	var out []Variant
	for _, v := range r.Variants {
		if d := variantDir(v); d != "" {
			for _, leaf := range s.leaves {
				if underDir(leaf, d) {
					attached[leaf] = append(attached[leaf], v)
				}
			}
			continue
		}
		rs := make([]*graph.Resource, 0, len(outside)+len(v.Resources))
		out = append(out, Variant{Name: v.Name, Resources: append(append(rs, outside...), v.Resources...)})
	}
	for _, leaf := range s.leaves {
		members := append([]*graph.Resource(nil), outside...)
		for _, res := range base {
			if d := s.dirOf[res]; d != "" && underDir(leaf, d) {
				members = append(members, res)
			}
		}
		if len(attached[leaf]) == 0 {
			out = append(out, Variant{Name: leaf, Resources: members})
			continue
		}
		for _, v := range attached[leaf] {
			rs := make([]*graph.Resource, 0, len(members)+len(v.Resources))
			out = append(out, Variant{Name: v.Name, Resources: append(append(rs, members...), v.Resources...)})
		}
	}
	return out
}

// WorldDirs lists the directories linted as worlds of their own, sorted; nil when
// the load was not split.
func (r *Result) WorldDirs() []string {
	if r.split == nil {
		return nil
	}
	return r.split.leaves
}

// underDir reports whether slash path p is dir or lies under it ("." holds everything).
func underDir(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, strings.TrimSuffix(dir, "/")+"/")
}

// innermost is the deepest of the sorted world directories holding the file, or "".
func innermost(worlds []string, file string) string {
	best := ""
	for _, w := range worlds {
		if strings.HasPrefix(file, w+"/") && len(w) > len(best) {
			best = w
		}
	}
	return best
}

func uniqueDirs(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
