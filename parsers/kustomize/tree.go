package kustomize

import (
	"path/filepath"
	"slices"
	"sort"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// tree is a top kustomization with every kustomization it builds on.
type tree struct {
	byDir map[string]*kfile
	order []*kfile // depth-first, top first
	// skipped are the remote entries the build goes without (kfile.skipped).
	skipped []graph.Diagnostic
	// chains maps a resource file to the kustomizations it passes through, from the
	// one that lists it up to the top.
	chains map[string][]*kfile
}

// maxDepth bounds how deep bases may nest.
const maxDepth = 64

// kread is one kustomization file read and checked.
type kread struct {
	k     *kfile
	diags []graph.Diagnostic
}

// loadTreeWith reads the kustomization in dir and, recursively, those it builds on,
// checking each for references pvlint refuses. It reads each kustomization file
// through reads when it is not nil: the plan of many directories reads a
// kustomization they share once. A read is reused only for a path this tree's own
// confinement has let through (its top directory, or a reference inside it), so
// nothing is read, or used, that the tree could not read itself.
//
// top, when not nil, is the kustomization of dir as a GitOps tool changed it
// (overlay.go), used instead of the file.
func loadTreeWith(dir string, env Env, reads map[string]kread, top *kfile) (*tree, []graph.Diagnostic) {
	t := &tree{byDir: map[string]*kfile{}, chains: map[string][]*kfile{}}
	var diags []graph.Diagnostic
	// expanded holds the depth at which each kustomization's references were
	// followed. A kustomization reached again is followed again only from nearer the
	// top, where maxDepth may have cut off less below it: a diamond of bases (each
	// level two kustomizations that both list the two of the next) was followed once
	// per path, 2^37 paths for 74 files (issue 27); it is now followed once per
	// kustomization, at most maxDepth times in any graph.
	expanded := map[*kfile]int{}
	var visit func(dir string, up []*kfile)
	visit = func(dir string, up []*kfile) {
		if len(up) > maxDepth {
			return
		}
		k := t.byDir[dir]
		if k == nil {
			path := File(dir)
			if top != nil && dir == top.dir {
				path = top.path
			}
			if path == "" {
				return
			}
			r, ok := reads[path]
			if top != nil && path == top.path {
				r, ok = kread{k: top, diags: top.check(env)}, true
			}
			if !ok {
				r.k, r.diags = readKFile(path, env)
				if r.k != nil {
					r.diags = append(r.diags, r.k.check(env)...)
				}
				if reads != nil {
					reads[path] = r
				}
			}
			k = r.k
			diags = append(diags, r.diags...)
			if k == nil {
				return
			}
			t.byDir[dir] = k
			t.order = append(t.order, k)
			t.skipped = append(t.skipped, k.skipped...)
		}
		if slices.Contains(up, k) {
			return // a cycle; kustomize reports it
		}
		if d, ok := expanded[k]; ok && d <= len(up) {
			return // followed already, from as near the top
		}
		expanded[k] = len(up)
		chain := append([]*kfile{k}, up...)
		for _, r := range k.refs {
			if r.abs == "" || !env.insideResolved(r.abs) {
				continue // refused by check, never opened
			}
			switch r.field {
			case "resources", "bases", "components":
				if File(r.abs) != "" {
					visit(r.abs, chain)
				} else if _, seen := t.chains[r.abs]; !seen && !isDir(r.abs) {
					t.chains[r.abs] = chain
				}
			case "generators", "transformers", "validators":
				// A directory of plugin configurations is a kustomization too:
				// kustomize reads it only as pvlint serves it.
				if File(r.abs) != "" {
					visit(r.abs, chain)
				}
			}
		}
	}
	visit(dir, nil)
	return t, diags
}

// srcFile is a resource file a build reads, parsed with positions.
type srcFile struct {
	display   string
	data      []byte
	resources []*graph.Resource
}

// readSources parses every resource file of the tree. A file that does not parse is
// a diagnostic at its line, and the build is not run (kustomize would stop at it
// with a less precise message).
func (t *tree) readSources(env Env) (map[string]*srcFile, []graph.Diagnostic) {
	out := map[string]*srcFile{}
	var diags []graph.Diagnostic
	for _, path := range sortedKeys(t.chains) {
		data, d := env.read(path)
		if d != nil {
			diags = append(diags, *d)
			continue
		}
		name := env.display(path)
		rs, ds := manifest.Parse(name, data, manifest.Options{Format: graph.FormatKustomize, Limits: env.Limits})
		diags = append(diags, ds...)
		out[path] = &srcFile{display: name, data: data, resources: rs}
	}
	return out, diags
}

// Plan says which of the kustomizations found in a walk to build, and which files
// they consume (so the loader does not also read those as plain manifests).
type Plan struct {
	// Builds are the directories of top-level kustomizations, in the order given.
	Builds []string
	// Consumed holds the absolute paths of every file a kustomization reads,
	// kustomization files included.
	Consumed map[string]bool
	// Notes are the deprecated fields of every kustomization read, once per file
	// however many builds read it, each at its field (deprecationNotes).
	Notes []graph.Diagnostic
}

// NewPlan looks at the kustomization directories a walk found. A kustomization that
// another one in the set builds on (directly or through bases outside the set) is
// not built on its own, nor is a Component.
//
// env gives the confinement of each directory (as given in dirs): the plan reads what
// that directory's build will read, and nothing outside.
func NewPlan(dirs []string, env func(dir string) Env) *Plan {
	p := &Plan{Consumed: map[string]bool{}}
	based := map[string]bool{}
	kinds := map[string]string{}
	// Each directory's walk reads the kustomizations below it: a chain of 2,000
	// overlays read each of them up to 64 times (maxDepth), parsed anew each time.
	reads := map[string]kread{}
	noted := map[string]bool{}
	for _, d := range dirs {
		abs, _ := filepath.Abs(d)
		t, _ := loadTreeWith(abs, env(d), reads, nil)
		for _, k := range t.order {
			if !noted[k.path] {
				noted[k.path] = true
				p.Notes = append(p.Notes, k.deprecationNotes()...)
			}
			p.Consumed[k.path] = true
			if k.dir == abs {
				kinds[abs] = k.kind
			} else {
				based[k.dir] = true
			}
			for _, r := range k.refs {
				if r.abs != "" {
					p.Consumed[r.abs] = true
				}
			}
		}
	}
	for _, d := range dirs {
		abs, _ := filepath.Abs(d)
		if !based[abs] && kinds[abs] != "Component" {
			p.Builds = append(p.Builds, d)
		}
	}
	return p
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
