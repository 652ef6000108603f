package kustomize

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// fileNames are the names kustomize recognises for a kustomization, in its order.
var fileNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// File returns the kustomization file of dir, or "" when dir has none.
func File(dir string) string {
	for _, n := range fileNames {
		p := filepath.Join(dir, n)
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			return p
		}
	}
	return ""
}

// IsFileName reports whether a file's base name is a kustomization's.
func IsFileName(base string) bool {
	return slices.Contains(fileNames, base)
}

// kfile is one kustomization file, read for what it references before kustomize
// builds anything: to refuse remote bases, to know which files it consumes, and to
// know which fields its patches and replicas set.
type kfile struct {
	dir     string // absolute directory
	path    string // absolute file path
	display string
	data    []byte
	root    *graph.Node
	kind    string // Kustomization or Component
	prefix  string
	suffix  string
	refs    []ref
	// patches in the order kustomize applies them: patchesStrategicMerge,
	// patchesJson6902, patches.
	patches  []patchRef
	replicas []replica
	generate *graph.Node // configMapGenerator/secretGenerator key, where generated objects point
	// subst maps the nodes kustomize reads as paths (or inline configurations) to the
	// text it is given instead (serve.go).
	subst map[*graph.Node]string
	// problems are what reading found wrong with the file itself (keys kustomize
	// would read differently, inline configurations that are not one mapping).
	problems []graph.Diagnostic
	// skipped are the remote resources, bases and components entries (check): the
	// kustomization is built without them, each a diagnostic at its line; drop holds
	// their nodes, which the served text leaves out.
	skipped []graph.Diagnostic
	drop    map[*graph.Node]bool
	// at, when valid, is where a failed build of a kustomization pvlint generated
	// (overlay.go) is reported: the line of the GitOps object naming the directory.
	at graph.Range
}

// ref is one path a kustomization names.
type ref struct {
	field string      // resources, components, patches...
	value string      // as written
	node  *graph.Node // where it is written
	abs   string      // absolute local path, "" for a remote reference
	// served is the path as kustomize is given it, anchored ("./x", "../x").
	served string
	// mayBeDir is true for fields that name kustomization directories.
	mayBeDir bool
}

// patchRef is one patch: a file or inline text, with an optional target selector.
type patchRef struct {
	file   string      // absolute path, or "" when inline
	inline *graph.Node // the inline patch string
	target *selector
	json   bool // patchesJson6902 entries are JSON patches whatever their shape
	// name and data are the file holding an inline patch written in a GitOps object
	// (Overlay.Source), when not the kustomization.
	name string
	data []byte
}

// selector is the part of a kustomize target selector pvlint matches on; label and
// annotation selectors are not evaluated, and value confirmation keeps a wrong match
// from moving a position.
type selector struct {
	kind, name, namespace string
}

// replica is one entry of the replicas field.
type replica struct {
	name  string
	count *graph.Node
}

// readKFile reads and parses a kustomization file.
func readKFile(path string, env Env) (*kfile, []graph.Diagnostic) {
	abs, _ := filepath.Abs(path)
	k := &kfile{dir: filepath.Dir(abs), path: abs, display: env.display(abs), subst: map[*graph.Node]string{}}
	data, d := env.read(abs)
	if d != nil {
		return nil, []graph.Diagnostic{*d}
	}
	k.data = data
	docs, diags := manifest.Documents(k.display, data, manifest.Options{Limits: env.Limits})
	if len(diags) > 0 {
		return nil, diags
	}
	if len(docs) == 0 {
		k.root = &graph.Node{Kind: graph.Map, Range: graph.Range{File: k.display, Start: graph.Pos{Line: 1, Column: 1}}}
	} else {
		k.root = docs[0].Node
	}
	if k.root.Kind != graph.Map {
		return nil, []graph.Diagnostic{diagAt(k.root.Range, "a kustomization must be a YAML mapping")}
	}
	k.parse(env)
	return k, nil
}

// parse reads what the kustomization's root references and sets.
func (k *kfile) parse(env Env) {
	checkKeys(k.root, kustomizationType, &k.problems)
	k.kind = k.root.Get("kind").Str()
	k.prefix = k.root.Get("namePrefix").Str()
	k.suffix = k.root.Get("nameSuffix").Str()
	for _, f := range []string{"resources", "bases", "components"} {
		for _, n := range k.root.Get(f).List() {
			k.addRef(f, n, true)
		}
	}
	for _, f := range []string{"crds", "configurations"} {
		for _, n := range k.root.Get(f).List() {
			k.addRef(f, n, false)
		}
	}
	// Kustomize builds generators, transformers and validators entries as it builds
	// resources (a file, or a directory it may take for a repository), unless an
	// entry is an inline configuration.
	for _, f := range []string{"generators", "transformers", "validators"} {
		for _, n := range k.root.Get(f).List() {
			if isInline(n.Str()) {
				if d := k.inlineConfig(n, env); d != nil {
					k.problems = append(k.problems, *d)
				}
			} else {
				k.addRef(f, n, true)
			}
		}
	}
	for _, n := range k.root.Get("patchesStrategicMerge").List() {
		if isInline(n.Str()) {
			k.patches = append(k.patches, patchRef{inline: n})
		} else if r := k.addRef("patchesStrategicMerge", n, false); r != nil {
			k.patches = append(k.patches, patchRef{file: r.abs})
		}
	}
	for _, f := range []string{"patchesJson6902", "patches"} {
		for _, e := range k.root.Get(f).List() {
			p := patchRef{target: readSelector(e.Get("target")), json: f == "patchesJson6902"}
			if pn := e.Get("path"); pn != nil {
				r := k.addRef(f, pn, false)
				if r == nil {
					continue
				}
				p.file = r.abs
			} else if in := e.Get("patch"); in != nil {
				p.inline = in
			} else {
				continue
			}
			k.patches = append(k.patches, p)
		}
	}
	for _, e := range k.root.Get("replicas").List() {
		if c := e.Get("count"); c != nil {
			k.replicas = append(k.replicas, replica{name: e.Get("name").Str(), count: c})
		}
	}
	for _, f := range []string{"configMapGenerator", "secretGenerator"} {
		if fl := k.root.Field(f); fl != nil && k.generate == nil {
			k.generate = &graph.Node{Kind: graph.Null, Range: fl.KeyRange}
		}
		for _, g := range k.root.Get(f).List() {
			for _, src := range g.Get("files").List() {
				key, file := splitSource(src.Str())
				if r := k.addRef(f, &graph.Node{Kind: graph.String, Scalar: file, Range: src.Range}, false); r != nil && r.served != "" {
					k.subst[src] = key + r.served
				}
			}
			for _, src := range g.Get("envs").List() {
				k.addRef(f, src, false)
			}
			if env := g.Get("env"); env != nil {
				k.addRef(f, env, false)
			}
		}
	}
	if n := k.root.Get("openapi", "path"); n != nil {
		k.addRef("openapi", n, false)
	}
	for _, r := range k.root.Get("replacements").List() {
		if n := r.Get("path"); n != nil {
			k.addRef("replacements", n, false)
		}
	}
}

// addRef records a path-valued entry and returns it (nil when the value is empty).
func (k *kfile) addRef(field string, n *graph.Node, mayBeDir bool) *ref {
	v := strings.TrimSpace(n.Str())
	if v == "" {
		return nil
	}
	r := ref{field: field, value: v, node: n, mayBeDir: mayBeDir}
	if !isRemote(v) {
		p := filepath.FromSlash(v)
		if !filepath.IsAbs(p) {
			p = filepath.Join(k.dir, p)
		}
		r.abs = filepath.Clean(p)
		if s, err := anchored(k.dir, r.abs); err == nil {
			r.served = s
			k.subst[n] = s
		}
	}
	k.refs = append(k.refs, r)
	return &k.refs[len(k.refs)-1]
}

// splitSource splits a generator file source into its "key=" part (kept as
// written, "" when there is none) and the file.
func splitSource(s string) (key, file string) {
	if i := strings.IndexByte(s, '='); i >= 0 {
		return s[:i+1], s[i+1:]
	}
	return "", s
}

// isInline reports whether a list entry is YAML text rather than a path (kustomize
// accepts inline patches and plugin configs in several path fields).
func isInline(s string) bool {
	return strings.Contains(s, "\n") || strings.Contains(s, ": ")
}

// isRemote reports whether a path is remote or looks remote: a URL, or one of the git
// forms kustomize's repository parser accepts or comes close to. Such a reference is
// refused whether or not a local file of that name exists (a directory named
// "deploy@host:org/repo" is not worth the doubt). Kustomize never sees the value as
// written anyway (serve.go); this decides which message the user gets.
func isRemote(v string) bool {
	l := strings.ToLower(strings.TrimSpace(v))
	if strings.Contains(l, "://") || strings.HasPrefix(l, "git::") ||
		strings.Contains(l, "?ref=") || strings.Contains(l, "?version=") || strings.Contains(l, "?timeout=") ||
		strings.Contains(l, "?submodules=") || strings.Contains(l, "_git/") ||
		strings.Contains(l, ".git//") || strings.HasSuffix(l, ".git") || strings.Contains(l, ".git/") {
		return true
	}
	// The first path element: a user name ("user@host:path", "user@host/path") or a
	// host with a port or an scp-style path ("host:org/repo") live there.
	first, _, _ := strings.Cut(l, "/")
	if strings.ContainsAny(first, "@:") {
		return true
	}
	for _, host := range []string{"github.com", "gitlab.com", "bitbucket.org", "dev.azure.com", "ssh.dev.azure.com", "gitea.com", "codeberg.org"} {
		if first == host || strings.HasPrefix(first, host+":") {
			return true
		}
	}
	return false
}

func readSelector(n *graph.Node) *selector {
	if n == nil {
		return nil
	}
	return &selector{kind: n.Get("kind").Str(), name: n.Get("name").Str(), namespace: n.Get("namespace").Str()}
}

// check refuses what kustomize must not be asked to do: fetch remote bases or files,
// run Helm, or read outside the linted directory. It returns a diagnostic per problem,
// each of which stops the build. A remote resources, bases or components entry does
// not: the kustomization is built without it (the rest of an overlay is still linted),
// and its diagnostic goes to k.skipped.
func (k *kfile) check(env Env) []graph.Diagnostic {
	out := append([]graph.Diagnostic(nil), k.problems...)
	k.skipped, k.drop = nil, map[*graph.Node]bool{}
	for _, r := range k.refs {
		switch {
		case r.abs == "" && (r.field == "resources" || r.field == "bases" || r.field == "components"):
			k.skipped = append(k.skipped, diagAt(r.node.Range, fmt.Sprintf("remote %s entry %q is not fetched (pvlint never downloads); this kustomization is built without it", r.field, r.value)))
			k.drop[r.node] = true
		case r.abs == "":
			out = append(out, diagAt(r.node.Range, fmt.Sprintf("remote %s entry %q is not fetched (pvlint never downloads); this kustomization is not built", r.field, r.value)))
		case !safeForKustomize(r.served):
			out = append(out, diagAt(r.node.Range, fmt.Sprintf("%s entry %q cannot be given to kustomize as a local path; this kustomization is not built", r.field, r.value)))
		case !env.insideResolved(r.abs):
			out = append(out, diagAt(r.node.Range, fmt.Sprintf("%s entry %q is outside the linted directory; this kustomization is not built", r.field, r.value)))
		case special(r.abs):
			out = append(out, diagAt(r.node.Range, fmt.Sprintf("%s entry %q is not a regular file or directory; this kustomization is not built", r.field, r.value)))
		case !exists(r.abs):
			if r.mayBeDir {
				out = append(out, diagAt(r.node.Range, fmt.Sprintf("%s entry %q does not exist; this kustomization is not built", r.field, r.value)))
			}
		case r.mayBeDir && isDir(r.abs) && File(r.abs) == "":
			out = append(out, diagAt(r.node.Range, fmt.Sprintf("%s entry %q is a directory without a kustomization; this kustomization is not built", r.field, r.value)))
		}
	}
	for _, f := range []string{"helmCharts", "helmChartInflationGenerator", "helmGlobals"} {
		if fl := k.root.Field(f); fl != nil {
			out = append(out, diagAt(fl.KeyRange, fmt.Sprintf("%s needs the helm binary and chart downloads, which pvlint does not run; lint the chart directory instead. This kustomization is not built", f)))
		}
	}
	return out
}

// components returns the directories listed under components.
func (k *kfile) components() []string {
	var out []string
	for _, r := range k.refs {
		if r.field == "components" && r.abs != "" {
			out = append(out, r.abs)
		}
	}
	return out
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// special reports whether p is a named pipe, socket or device: opening one may
// block or never end.
func special(p string) bool {
	info, err := os.Stat(p)
	return err == nil && !info.Mode().IsRegular() && !info.IsDir()
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func diagAt(r graph.Range, msg string) graph.Diagnostic {
	if !r.Start.IsValid() {
		r.Start = graph.Pos{Line: 1, Column: 1}
	}
	return graph.Diagnostic{Range: r, Message: msg}
}
