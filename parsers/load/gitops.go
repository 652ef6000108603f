package load

import (
	"maps"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/parsers/gitops"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// Releases is what the run made of the GitOps objects of the inputs (parsers/gitops).
type Releases struct {
	// Rendered counts the releases rendered, and the Flux Kustomizations and Argo CD
	// directories linted as files of the repository; Unrendered those that were not
	// (each a PVL024 note or a PVL000 refusal).
	Rendered, Unrendered int
	// Pulls are the charts of Helm and OCI repositories the chart cache lacks.
	Pulls []gitops.Pull
}

// renderReleases renders the releases the GitOps objects among the plain manifests
// deploy (Flux HelmReleases, Argo CD Applications), each as a variant of its own
// named after the object, and notes those it cannot render on the object
// (graph.FactUnrendered). Charts of the cache render in the same workers and under
// the same limits as the repository's charts.
func (l *loader) renderReleases() {
	// The objects are plain manifests or come out of kustomize builds (a Flux
	// repository is mostly kustomizations); charts' output is not read for them.
	rs := l.res.Base
	found := false
	for _, v := range l.res.Variants {
		if len(v.Resources) > 0 && v.Resources[0].Origin.Format == graph.FormatKustomize {
			rs = append(rs[:len(rs):len(rs)], v.Resources...)
		}
	}
	if slices.ContainsFunc(rs, gitops.IsGitOps) {
		found = true
	}
	if !found {
		return
	}
	repos := gitops.Remotes(l.opts.Dir)
	for _, d := range l.named {
		if d != l.opts.Dir {
			repos = append(repos, gitops.Remotes(d)...)
		}
	}
	plan := gitops.Find(rs, gitops.Options{
		Root:         l.opts.Dir,
		RootOf:       l.rootOf,
		Repositories: append(repos, l.opts.Repositories...),
		Cache:        gitops.NewCache(l.opts.Charts),
		Display:      l.display,
		Object:       l.fullObject,
	})
	l.res.Releases = Releases{Rendered: plan.Rendered, Unrendered: plan.Unrendered, Pulls: plan.Pulls}
	l.res.Diagnostics = append(l.res.Diagnostics, plan.Diagnostics...)
	failed := map[*graph.Resource]bool{}
	defer func() {
		for obj := range failed {
			if plan.Counted[obj] {
				l.res.Releases.Rendered--
				l.res.Releases.Unrendered++
			}
		}
	}()
	l.buildGitOps(plan, failed)
	if len(plan.Releases) == 0 {
		return
	}
	setups := make([]chartSetup, len(plan.Releases))
	for i, rel := range plan.Releases {
		opts := rel.Helm
		opts.KubeVersion, opts.Timeout, opts.MaxOutput, opts.IncludeTests = l.opts.Helm.KubeVersion, l.opts.Helm.Timeout, l.opts.Helm.MaxOutput, l.opts.Helm.IncludeTests
		setups[i] = chartSetup{rootedDir: rootedDir{rel.Chart, rel.Root}, opts: opts,
			env: helm.Env{Display: l.display, MaxFileSize: l.opts.MaxFileSize, Limits: l.opts.Limits, SkipConfigData: l.opts.SkipConfigData}}
	}
	results := make([]*helm.Result, len(setups))
	if l.opts.Workers != nil {
		batches := chartBatches(len(setups), runtime.GOMAXPROCS(0))
		parallel(len(batches), func(b int) { l.renderIsolated(setups, batches[b], results) })
	} else {
		parallel(len(setups), func(i int) { l.renderInProcess(setups[i], &results[i]) })
	}
	// A chart of the repository that a release renders is linted through the
	// release, with its values, and not again with its defaults alone, unless it has
	// ci/*-values.yaml variants of its own (docs/gitops.md).
	replaced := map[string]bool{}
	for _, rel := range plan.Releases {
		if name, ok := l.chartDefaults[rel.Chart]; ok && !rel.Cached && !hasCIValues(rel.Chart) {
			replaced[name] = true
		}
	}
	if len(replaced) > 0 {
		kept := l.res.Variants[:0]
		for _, v := range l.res.Variants {
			if !replaced[v.Name] {
				kept = append(kept, v)
			}
		}
		l.res.Variants = kept
	}
	for i, res := range results {
		rel := plan.Releases[i]
		if res == nil || !renderedAny(res) {
			failed[rel.Object] = true // a PVL000 (or an internal error) says why
		}
		if res == nil {
			continue // the render panicked: an internal error
		}
		m := releaseMapper{rel: rel, base: l.display(rel.Chart), sources: res.Sources}
		for _, v := range res.Variants {
			for _, r := range v.Resources {
				if r.Namespace == "" && rel.Helm.Namespace != "" && !graph.IsClusterScoped(r.Kind) {
					r.Namespace = rel.Helm.Namespace // what the release applies them to
				}
				if rel.Cached {
					m.move(r)
				} else if rel.ValuesAt.IsValid() {
					r.Related = append(r.Related, graph.Location{Range: rel.ValuesAt, Message: "values of " + rel.Name})
				}
			}
			l.addVariant(Variant{Name: v.Name, Resources: v.Resources}, l.display(rel.Chart))
		}
		for _, d := range res.Diagnostics {
			if rel.Cached && m.inChart(d.Range.File) {
				where := ""
				if d.Range.File != m.base {
					where = strings.TrimPrefix(d.Range.String(), m.base+"/") + ": "
				}
				d.Message = "chart " + m.base + " of " + rel.Name + ": " + where + d.Message
				d.Range = rel.Anchor
			}
			if d.Variant == "" {
				d.Variant = rel.Name
			}
			l.res.Diagnostics = append(l.res.Diagnostics, d)
		}
		maps.Copy(l.res.Sources, res.Sources)
	}
}

// hasCIValues reports whether a chart directory has chart-testing values files.
func hasCIValues(dir string) bool {
	matches, _ := filepath.Glob(filepath.Join(dir, "ci", "*-values.yaml"))
	return len(matches) > 0
}

// renderedAny reports whether a render produced resources.
func renderedAny(res *helm.Result) bool {
	for _, v := range res.Variants {
		if len(v.Resources) > 0 {
			return true
		}
	}
	return false
}

// rootOf is the checkout a GitOps object's paths are relative to: the longest
// directory named on the command line that holds its file (the working directory for
// `pvlint .`).
func (l *loader) rootOf(r *graph.Resource) string {
	file := filepath.FromSlash(r.Range.File)
	if !filepath.IsAbs(file) {
		file = filepath.Join(l.opts.Dir, file)
	}
	best := ""
	for _, d := range l.named {
		if (file == d || strings.HasPrefix(file, d+string(filepath.Separator))) && len(d) > len(best) {
			best = d
		}
	}
	return best
}

// fullObject is a resource of a plain manifest as parsed with its ConfigMap and
// Secret data, which the load may have left unread (Options.SkipConfigData).
func (l *loader) fullObject(r *graph.Resource) *graph.Resource {
	if !l.opts.SkipConfigData {
		return r
	}
	data := l.res.Sources[r.Range.File]
	if data == nil {
		return r
	}
	rs, _ := manifest.Parse(r.Range.File, data, manifest.Options{Limits: l.opts.Limits})
	for _, o := range rs {
		if o.Kind == r.Kind && o.Name == r.Name && o.Range == r.Range {
			return o
		}
	}
	return r
}

// releaseMapper moves the positions of a release rendered from the chart cache, whose
// templates are outside the repository, to the release's own values: the value a
// template line reads (helm.ValuesReads: .Values.replicaCount → replicaCount: 2 of the
// release), else the release's values: key, else the line naming the chart. The
// template stays as a related location.
type releaseMapper struct {
	rel     gitops.Release
	base    string // the chart's displayed path
	sources map[string][]byte
	reads   map[string]map[int][][]string // helm.ValuesReads of each template, by file
}

func (m *releaseMapper) inChart(file string) bool {
	return file == m.base || strings.HasPrefix(file, m.base+"/") || strings.HasPrefix(file, m.base+"#")
}

func (m *releaseMapper) move(r *graph.Resource) {
	fallback := m.rel.ValuesAt
	if !fallback.IsValid() {
		fallback = m.rel.Anchor
	}
	if r.Range.IsValid() && m.inChart(r.Range.File) {
		r.Related = append(r.Related, graph.Location{Range: r.Range, Message: "template " + r.Origin.Source + " of the chart " + m.base})
	}
	memo := map[graph.Range]graph.Range{}
	at := func(rg graph.Range) graph.Range {
		if !m.inChart(rg.File) {
			return rg
		}
		key := graph.Range{File: rg.File, Start: graph.Pos{Line: rg.Start.Line}}
		if got, ok := memo[key]; ok {
			return got
		}
		out := fallback
		if v := m.value(rg); v.IsValid() {
			out = v
		}
		memo[key] = out
		return out
	}
	r.Object.Walk(func(n *graph.Node) {
		n.Range = at(n.Range)
		for i := range n.Fields() {
			n.Fields()[i].KeyRange = at(n.Fields()[i].KeyRange)
		}
	})
	r.Range = at(r.Range)
	if m.inChart(r.Origin.File) || r.Origin.File == "" {
		r.Origin.File = m.rel.Object.Range.File
		r.Origin.Doc = m.rel.Object.Origin.Doc
	}
}

// value is the range of the release value a template line reads, when the release
// sets it.
func (m *releaseMapper) value(rg graph.Range) graph.Range {
	if m.rel.Values == nil || !rg.Start.IsValid() {
		return graph.Range{}
	}
	src := m.sources[rg.File]
	if src == nil {
		return graph.Range{}
	}
	if m.reads == nil {
		m.reads = map[string]map[int][][]string{}
	}
	reads, ok := m.reads[rg.File]
	if !ok {
		reads = helm.ValuesReads(src)
		m.reads[rg.File] = reads
	}
	for _, keys := range reads[int(rg.Start.Line)] {
		n := m.rel.Values
		var deepest *graph.Node
		for _, k := range keys {
			if n = n.Get(k); n == nil {
				break
			}
			deepest = n
		}
		if deepest != nil && deepest.Range.IsValid() {
			return deepest.Range
		}
	}
	return graph.Range{}
}

// chartCache reports whether an absolute directory is one of the chart cache's: the
// walk does not lint the cached charts as the repository's own.
func (l *loader) chartCache(path string) bool {
	for _, c := range l.opts.Charts {
		if filepath.Clean(c) == path {
			return true
		}
	}
	return false
}
