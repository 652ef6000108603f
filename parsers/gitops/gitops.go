// Package gitops reads what GitOps tools deploy from a repository: Argo CD
// Applications and ApplicationSets, Flux Kustomizations and HelmReleases. It turns
// each into a release to render (a chart of this repository or of the offline chart
// cache, with the release's own values, namespace and release name) or, when pvlint
// cannot render it, into a note on the object at the line that names its source
// (graph.FactUnrendered, reported by PVL024), saying what was not rendered and what
// would render it. Nothing is fetched: charts of Helm and OCI repositories come only
// from the cache directories the user names (helm pull writes them; Pulls lists the
// lines to run).
package gitops

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/kustomize"
)

// Options configure Find.
type Options struct {
	// Root is the absolute directory of the checkout: paths of this repository are
	// resolved against it and must stay inside it.
	Root string
	// RootOf, when set, gives the checkout of one object instead (the directory the
	// user named that holds its file); "" for Root.
	RootOf func(*graph.Resource) string
	// Repositories are the URLs that name this repository (its remotes, read from
	// .git/config by Remotes, and the configuration's gitops.repositories).
	Repositories []string
	// Cache is the chart cache (NewCache over the --charts directories); nil for none.
	Cache *Cache
	// Display returns the name users see for a path.
	Display func(string) string
	// Object, when set, returns a resource as parsed with all of its data (the loader
	// may leave ConfigMap and Secret data unread): valuesFrom reads it.
	Object func(*graph.Resource) *graph.Resource
}

// MaxValuesFrom bounds the bytes of one valuesFrom entry: release values are a few
// kilobytes; a larger one is refused rather than rendered.
const MaxValuesFrom = 1 << 20

// maxNotes bounds the notes on one object (one per source or generator).
const maxNotes = 100

// Release is a GitOps release to render: a chart with the release's settings.
type Release struct {
	// Object is the HelmRelease or Application.
	Object *graph.Resource
	// Name is the variant's name: "HelmRelease media/plex".
	Name string
	// Chart is the absolute chart directory or archive.
	Chart string
	// Cached is true for a chart of the cache: its templates are outside the
	// repository, so findings are moved to the release's own values.
	Cached bool
	// Root is the directory the chart's reads must stay in.
	Root string
	// Helm are the render options: values, release name, namespace, variant name.
	Helm helm.Options
	// Values is the release's own values block (spec.values, helm.valuesObject):
	// where a finding caused by one of its values is reported.
	Values *graph.Node
	// ValuesAt is the key of that block (values:), where a finding in a cached
	// template that no value of the block explains is reported; invalid when none.
	ValuesAt graph.Range
	// Anchor is the line that names the chart: where a finding in a cached template
	// no value explains is reported.
	Anchor graph.Range
}

// Pull is a chart the repository needs that the cache does not hold.
type Pull struct {
	Repo    string // https://… or oci://…
	Chart   string
	Version string // "" for the latest
}

// Valid reports whether the pull can be printed as a command: a repository URL of
// http, https or oci, a chart name of letters, digits, ".", "_" and "-" not starting
// with "-", and a version that does not start with "-" (so no word can be read as an
// option of helm).
func (p Pull) Valid() bool {
	if !strings.HasPrefix(p.Repo, "https://") && !strings.HasPrefix(p.Repo, "http://") && !strings.HasPrefix(p.Repo, "oci://") {
		return false
	}
	if p.Chart == "" || strings.HasPrefix(p.Chart, "-") || strings.HasPrefix(p.Version, "-") || strings.ContainsAny(p.Repo, " \t\n\r\x00") {
		return false
	}
	for _, c := range p.Chart {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// Line is the helm pull command that fetches the chart into the current directory.
func (p Pull) Line() string {
	var s string
	if strings.HasPrefix(p.Repo, "oci://") {
		s = "helm pull " + shellQuote(strings.TrimSuffix(p.Repo, "/")+"/"+p.Chart)
	} else {
		s = "helm pull --repo " + shellQuote(p.Repo) + " " + shellQuote(p.Chart)
	}
	if p.Version != "" {
		s += " --version " + shellQuote(p.Version)
	}
	return s
}

// LineInto is Line writing the chart into the directory dir (helm pull --destination).
func (p Pull) LineInto(dir string) string {
	if dir == "" {
		return p.Line()
	}
	return p.Line() + " --destination " + shellQuote(dir)
}

// shellQuote quotes a word for a POSIX shell when it holds anything but safe characters:
// URLs and versions come from the repository, and the lines are meant to be run.
func shellQuote(s string) string {
	safe := s != ""
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:@=+~^<>", c)) {
			safe = false
			break
		}
	}
	if safe && !strings.ContainsAny(s, "<>^~") {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Build is a directory of this repository that a GitOps object builds with settings
// of its own (a Flux Kustomization's namePrefix, patches, postBuild substitution...;
// Argo CD's kustomize settings): a variant named after the object, which replaces the
// directory's own linting.
type Build struct {
	// Object is the Kustomization or Application.
	Object *graph.Resource
	// Dir is the absolute directory; Root the directory reads must stay in.
	Dir, Root string
	// Overlay is what the tool writes into the directory's kustomization (Variant is
	// the variant's name, Source left for the caller to fill with the object's file).
	Overlay kustomize.Overlay
	// Vars are the postBuild variables (nil: no substitution); Subst where a
	// substitution refused is reported (postBuild).
	Vars  map[string]string
	Subst graph.Range
	// Namespace is where the objects without one go (Argo CD's destination); "" to
	// leave them.
	Namespace string
}

// Plan is what Find decided.
type Plan struct {
	Releases []Release
	// Builds are the directories built with a GitOps object's settings.
	Builds []Build
	// Rendered counts the objects rendered as releases or linted as the files of this
	// repository they deploy; Unrendered those noted (FactUnrendered) or refused.
	Rendered, Unrendered int
	// Counted are the objects counted in Rendered because they have releases: one
	// whose release then fails to render is moved to Unrendered by the caller.
	Counted map[*graph.Resource]bool
	// Pulls are the charts of Helm and OCI repositories not in the cache, once each.
	Pulls []Pull
	// Diagnostics are refusals: a path that leaves the repository, values too large.
	Diagnostics []graph.Diagnostic
}

// finder carries one Find.
type finder struct {
	opts  Options
	plan  *Plan
	index map[string]*graph.Resource // kind/namespace/name of the repository's objects
	pulls map[Pull]bool
	repos map[string]bool // normalised URLs of this repository
	root  string          // the checkout of the object being read
	// hosts maps an Application an ApplicationSet generated to the ApplicationSet,
	// which carries its notes (the generated object is not in the graph).
	hosts map[*graph.Resource]*graph.Resource
}

// Find reads the GitOps objects among rs (plain manifests of the repository).
func Find(rs []*graph.Resource, opts Options) *Plan {
	f := &finder{opts: opts, plan: &Plan{Counted: map[*graph.Resource]bool{}}, index: map[string]*graph.Resource{}, pulls: map[Pull]bool{}, repos: map[string]bool{},
		hosts: map[*graph.Resource]*graph.Resource{}}
	for _, u := range opts.Repositories {
		if n := NormalizeURL(u); n != "" {
			f.repos[n] = true
		}
	}
	for _, r := range rs {
		k := key(r.Kind, namespaceOf(r), r.Name)
		if _, dup := f.index[k]; !dup {
			f.index[k] = r
		}
	}
	seen := map[string]bool{} // one object built by several kustomizations is read once
	for _, r := range rs {
		if r.IsContext() || !IsGitOps(r) {
			continue
		}
		if k := key(r.Kind, namespaceOf(r), r.Name) + "@" + r.Range.String(); seen[k] {
			continue
		} else {
			seen[k] = true
		}
		f.root = opts.Root
		if opts.RootOf != nil {
			if root := opts.RootOf(r); root != "" {
				f.root = root
			}
		}
		switch {
		case r.Kind == "HelmRelease" && r.Group() == "helm.toolkit.fluxcd.io":
			f.helmRelease(r)
		case r.Kind == "Kustomization" && r.Group() == "kustomize.toolkit.fluxcd.io":
			f.fluxKustomization(r)
		case r.Kind == "Application" && r.Group() == "argoproj.io":
			f.application(r)
		case r.Kind == "ApplicationSet" && r.Group() == "argoproj.io":
			f.applicationSet(r)
		}
	}
	sort.Slice(f.plan.Pulls, func(i, j int) bool { return f.plan.Pulls[i].Line() < f.plan.Pulls[j].Line() })
	return f.plan
}

// IsGitOps reports whether a resource is one of the objects Find reads.
func IsGitOps(r *graph.Resource) bool {
	switch r.Group() {
	case "helm.toolkit.fluxcd.io":
		return r.Kind == "HelmRelease"
	case "kustomize.toolkit.fluxcd.io":
		return r.Kind == "Kustomization"
	case "argoproj.io":
		return r.Kind == "Application" || r.Kind == "ApplicationSet"
	}
	return false
}

func key(kind, ns, name string) string { return kind + "/" + ns + "/" + name }

// namespaceOf is a resource's namespace as written ("" when none).
func namespaceOf(r *graph.Resource) string {
	if r.Namespace != "" {
		return r.Namespace
	}
	return r.Get("metadata", "namespace").Str()
}

// title names an object in messages and variants: "HelmRelease media/plex".
func title(r *graph.Resource) string {
	if ns := namespaceOf(r); ns != "" {
		return r.Kind + " " + ns + "/" + r.Name
	}
	return r.Kind + " " + r.Name
}

// note records that (part of) r is not rendered, at node's line.
func (f *finder) note(r *graph.Resource, at graph.Range, format string, args ...any) {
	if h := f.hosts[r]; h != nil {
		r = h
	}
	if !at.IsValid() {
		at = r.Range
	}
	if r.Facts == nil {
		r.Facts = map[string]*graph.Node{}
	}
	list := r.Facts[graph.FactUnrendered]
	if list == nil {
		list = graph.NewList(at, nil)
		r.Facts[graph.FactUnrendered] = list
	}
	if len(list.Items()) >= maxNotes {
		return
	}
	list.AddItems(&graph.Node{Kind: graph.String, Range: at, Scalar: fmt.Sprintf(format, args...)})
}

// refuse is a PVL000 diagnostic at a line of r.
func (f *finder) refuse(at graph.Range, format string, args ...any) {
	f.plan.Diagnostics = append(f.plan.Diagnostics, graph.Diagnostic{Range: at, Message: fmt.Sprintf(format, args...)})
}

// pull records a chart to fetch.
func (f *finder) pull(p Pull) {
	if !p.Valid() || f.pulls[p] {
		return
	}
	f.pulls[p] = true
	f.plan.Pulls = append(f.plan.Pulls, p)
}

// local resolves a path of this repository (relative to base, a directory of the
// checkout; "" for its root) and reports whether it stays inside the checkout.
func (f *finder) local(base, p string) (string, bool) {
	if base == "" {
		base = f.root
	}
	abs := filepath.Join(base, filepath.FromSlash(p))
	if filepath.IsAbs(filepath.FromSlash(p)) {
		abs = filepath.Join(f.root, filepath.FromSlash(p))
	}
	rel, err := filepath.Rel(f.root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return abs, false
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		root := f.root
		if r, err := filepath.EvalSymlinks(root); err == nil {
			root = r
		}
		rel, err := filepath.Rel(root, real)
		if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return abs, false
		}
	}
	return abs, true
}

// thisRepository reports whether a repository URL names the checkout.
func (f *finder) thisRepository(url string) bool { return f.repos[NormalizeURL(url)] }

// NormalizeURL reduces a Git URL to host/path in lower case, without scheme, user,
// port, ".git" and trailing slashes, so that the forms one repository is cloned by
// (https://github.com/o/r, git@github.com:o/r.git, ssh://git@github.com/o/r) match.
// A relative or empty URL gives "".
func NormalizeURL(u string) string {
	u = strings.TrimSpace(u)
	if u == "" {
		return ""
	}
	if i := strings.Index(u, "://"); i >= 0 {
		u = u[i+3:]
	} else if at := strings.Index(u, "@"); at >= 0 && strings.Contains(u[at:], ":") {
		u = strings.Replace(u[at+1:], ":", "/", 1) // scp-like git@host:path
	} else if !strings.Contains(u, ".") || strings.HasPrefix(u, ".") || strings.HasPrefix(u, "/") {
		return ""
	}
	if at := strings.LastIndex(u, "@"); at >= 0 && at < strings.Index(u+"/", "/") {
		u = u[at+1:]
	}
	host, path, _ := strings.Cut(u, "/")
	if h, _, ok := strings.Cut(host, ":"); ok {
		host = h
	}
	path = strings.TrimSuffix(strings.TrimRight(path, "/"), ".git")
	if host == "" || path == "" {
		return ""
	}
	return strings.ToLower(host + "/" + path)
}
