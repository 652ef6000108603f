package load

import (
	"github.com/pvlint/pvlint/parsers/load/scan"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// Cluster context.
//
// A repository's claims and classes meet the cluster's own: an existingClaim a chart
// mounts, the default StorageClass, an autoscaler created by another team. The
// context paths (--context) hold what kubectl prints for them (a kind: List, several
// YAML documents, or JSON) or any manifests; their resources join every world after
// the linted ones, so references resolve to them, a linted object of the same kind,
// namespace and name wins over them, and they are never reported on
// (graph.Resource.IsContext).
//
// The paths are read the way the walk reads inputs: regular files only, under the
// size and parsing limits, a symlink followed only when it stays inside the path
// given; in a directory, only .yaml, .yml and .json files, and no chart, kustomization
// or Terraform module is evaluated. Nothing is read from outside the paths given.

// A context path inside a linted directory is not walked as an input: its objects are
// the cluster's, not the repository's. Named as an input itself, a file is linted.

// loadContext reads the context paths, then adds the profiles' classes.
func (l *loader) loadContext() {
	for _, p := range l.opts.Context {
		if !filepath.IsAbs(p) {
			p = filepath.Join(l.opts.Dir, p)
		}
		l.contextPath(filepath.Clean(p))
	}
	for _, p := range l.opts.Profiles {
		l.res.Context = append(l.res.Context, p.Resources()...)
	}
}

// contextPath reads one context file, or the manifests of one context directory.
func (l *loader) contextPath(root string) {
	info, err := os.Stat(root)
	if err != nil {
		l.diag(l.display(root), 0, 0, "cannot read context: %v", unwrapPath(err))
		return
	}
	if !info.IsDir() {
		// A file named on the command line: its own symlink was the user's choice, so
		// the file it names is its root.
		l.contextFile(root, nil, false, filepath.Dir(resolved(root)))
		return
	}
	base := resolved(root)
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			l.diag(l.display(path), 0, 0, "cannot read context: %v", unwrapPath(err))
			return nil
		}
		if d.IsDir() {
			if path != root && scan.SkipDirs[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		if ext := strings.ToLower(filepath.Ext(path)); ext != ".yaml" && ext != ".yml" && ext != ".json" {
			return nil
		}
		info, _ := d.Info()
		l.contextFile(path, info, true, base)
		return nil
	})
}

// contextFile parses one context file and marks its resources as context. A file met
// in a directory that does not parse and does not look like a manifest is skipped,
// as the walk skips one.
func (l *loader) contextFile(path string, info fs.FileInfo, walked bool, root string) {
	if l.visited[path] {
		return // linted as an input too: the linted definition is the one kept
	}
	l.visited[path] = true
	name := l.display(path)
	data, ok := l.readIn(path, info, root)
	if !ok {
		return
	}
	var rs []*graph.Resource
	var ds []graph.Diagnostic
	l.guard(name, func() {
		rs, ds = parseYAMLFile(name, data, manifest.Options{Limits: l.opts.Limits, SkipConfigData: l.opts.SkipConfigData})
	})
	if walked && onlySyntaxErrors(ds) && !looksLikeManifest(data) {
		return
	}
	label := "cluster snapshot " + name
	for _, r := range rs {
		r.Origin.Context = label
	}
	l.res.Sources[name] = data
	l.res.Context = append(l.res.Context, rs...)
	l.res.Diagnostics = append(l.res.Diagnostics, ds...)
}

// resolved is p with its symlinks resolved, or p when that fails.
func resolved(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return p
}
