package gitops

import (
	"encoding/base64"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/kustomize"
)

// helmRelease reads a Flux HelmRelease (helm.toolkit.fluxcd.io v2, v2beta1, v2beta2).
func (f *finder) helmRelease(r *graph.Resource) {
	ns := namespaceOf(r)
	spec := r.Get("spec")
	rel := Release{Object: r, Name: title(r), Values: spec.Get("values")}
	if fd := spec.Field("values"); fd != nil {
		rel.ValuesAt = fd.KeyRange
	}
	var chart, version, what string
	switch ref := spec.Get("chartRef"); {
	case ref != nil:
		rel.Anchor = r.Locate("spec", "chartRef")
		kind, name, sns := ref.Get("kind").Str(), ref.Get("name").Str(), ref.Get("namespace").Str()
		if sns == "" {
			sns = ns
		}
		if kind != "OCIRepository" {
			f.unrendered(r, rel.Anchor, "its chartRef names %s %s, which pvlint does not read; an OCIRepository or spec.chart would render it", kind, sns+"/"+name)
			return
		}
		src := f.index[key("OCIRepository", sns, name)]
		if src == nil {
			f.unrendered(r, rel.Anchor, "its chartRef names OCIRepository %s, which is not in the repository, so the chart is unknown", sns+"/"+name)
			return
		}
		url := src.Get("spec", "url").Str()
		chart = url[strings.LastIndex(url, "/")+1:]
		version = src.Get("spec", "ref", "tag").Str()
		if version == "" {
			version = src.Get("spec", "ref", "semver").Str()
		}
		what = "chart " + chart + versionWords(version) + " of OCIRepository " + sns + "/" + name
		if !f.cached(&rel, chart, version) {
			p := Pull{Repo: strings.TrimSuffix(url, "/"+chart), Chart: chart, Version: version}
			f.pull(p)
			f.unrendered(r, rel.Anchor, "%s is not in the chart cache; %s into a directory given to --charts renders it", what, p.Line())
			return
		}
	default:
		cs := spec.Get("chart", "spec")
		rel.Anchor = r.Locate("spec", "chart", "spec", "chart")
		chart, version = cs.Get("chart").Str(), cs.Get("version").Str()
		kind, name, sns := cs.Get("sourceRef", "kind").Str(), cs.Get("sourceRef", "name").Str(), cs.Get("sourceRef", "namespace").Str()
		if sns == "" {
			sns = ns
		}
		if chart == "" {
			f.unrendered(r, rel.Anchor, "it names no chart (spec.chart.spec.chart or spec.chartRef)")
			return
		}
		switch kind {
		case "GitRepository":
			src := f.index[key("GitRepository", sns, name)]
			url := src.Get("spec", "url").Str()
			if name != "flux-system" && !f.thisRepository(url) {
				f.unrendered(r, rel.Anchor, "its chart comes from GitRepository %s%s, which is not this repository; list its URL under gitops.repositories in .pvlint.yaml if it is", sns+"/"+name, urlWords(url))
				return
			}
			dir, ok := f.local("", chart)
			if !ok {
				f.refuse(rel.Anchor, "%s: chart path %q leads outside the repository; not rendered", title(r), chart)
				f.plan.Unrendered++
				return
			}
			if !helm.IsChart(dir) {
				f.unrendered(r, rel.Anchor, "its chart path %s is not a chart of this repository (no Chart.yaml)", chart)
				return
			}
			rel.Chart, rel.Root = dir, f.root
		case "HelmRepository", "":
			src := f.index[key("HelmRepository", sns, name)]
			url := src.Get("spec", "url").Str()
			if src.Get("spec", "type").Str() == "oci" && !strings.HasPrefix(url, "oci://") && url != "" {
				url = "oci://" + url
			}
			what = "chart " + chart + versionWords(version) + " of HelmRepository " + sns + "/" + name + urlWords(url)
			if !f.cached(&rel, chart, version) {
				p := Pull{Repo: url, Chart: chart, Version: version}
				f.pull(p)
				how := "helm pull of the chart"
				if url != "" {
					how = p.Line()
				} else {
					what += " (the HelmRepository is not in the repository)"
				}
				f.unrendered(r, rel.Anchor, "%s is not in the chart cache; %s into a directory given to --charts renders it", what, how)
				return
			}
		default:
			f.unrendered(r, rel.Anchor, "its chart comes from %s %s, which pvlint does not read", kind, sns+"/"+name)
			return
		}
	}
	target := spec.Get("targetNamespace").Str()
	rel.Helm.Namespace = ns
	if target != "" {
		rel.Helm.Namespace = target
	}
	rel.Helm.ReleaseName = spec.Get("releaseName").Str()
	if rel.Helm.ReleaseName == "" {
		rel.Helm.ReleaseName = r.Name
		if target != "" {
			rel.Helm.ReleaseName = target + "-" + r.Name
		}
	}
	if len(rel.Helm.ReleaseName) > 53 {
		rel.Helm.ReleaseName = rel.Helm.ReleaseName[:53]
	}
	for i, vf := range spec.Get("valuesFrom").List() {
		doc, ok := f.valuesFrom(r, ns, vf, i)
		if !ok {
			return
		}
		if doc.Data != nil {
			rel.Helm.Values = append(rel.Helm.Values, doc)
		}
	}
	if rel.Values.Is(graph.Map) {
		data, err := yaml.Marshal(rel.Values.Interface())
		if err == nil {
			rel.Helm.Values = append(rel.Helm.Values, helm.Values{Name: "the values of " + title(r), Data: data})
		}
	}
	rel.Helm.Variant = rel.Name
	f.plan.Releases = append(f.plan.Releases, rel)
	f.plan.Rendered++
	f.plan.Counted[r] = true
}

// cached finds the release's chart in the cache.
func (f *finder) cached(rel *Release, chart, version string) bool {
	p, root, ok := f.opts.Cache.Lookup(chart, version)
	if ok {
		rel.Chart, rel.Root, rel.Cached = p, root, true
	}
	return ok
}

// unrendered notes that r is not rendered, and counts it.
func (f *finder) unrendered(r *graph.Resource, at graph.Range, format string, args ...any) {
	f.note(r, at, title(r)+" is not rendered: "+format, args...)
	f.plan.Unrendered++
}

func versionWords(v string) string {
	if v == "" {
		return " (latest version)"
	}
	return " version " + v
}

func urlWords(u string) string {
	if u == "" {
		return ""
	}
	return " (" + u + ")"
}

// valuesFrom reads one valuesFrom entry of a HelmRelease: a ConfigMap or Secret of
// the repository, its valuesKey (values.yaml by default), placed at targetPath when
// set. ok is false when the release cannot be rendered (noted).
func (f *finder) valuesFrom(r *graph.Resource, ns string, vf *graph.Node, i int) (helm.Values, bool) {
	kind, name := vf.Get("kind").Str(), vf.Get("name").Str()
	valuesKey := vf.Get("valuesKey").Str()
	if valuesKey == "" {
		valuesKey = "values.yaml"
	}
	optional, _ := vf.Get("optional").Bool()
	at := vf.Range
	if n := vf.Get("name"); n != nil {
		at = n.Range
	}
	obj := f.index[key(kind, ns, name)]
	if obj == nil || kind != "ConfigMap" && kind != "Secret" {
		if optional {
			return helm.Values{}, true
		}
		f.unrendered(r, at, "its values come from %s %s (valuesFrom), which is not in the repository", kind, ns+"/"+name)
		return helm.Values{}, false
	}
	if f.opts.Object != nil {
		if full := f.opts.Object(obj); full != nil {
			obj = full
		}
	}
	var text string
	var found bool
	if n := obj.Get("data", valuesKey); n.IsString() {
		text, found = n.Scalar, true
		if kind == "Secret" {
			dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(text))
			if err != nil {
				f.unrendered(r, at, "Secret %s's %s is not base64 (valuesFrom)", ns+"/"+name, valuesKey)
				return helm.Values{}, false
			}
			text = string(dec)
		}
	} else if n := obj.Get("stringData", valuesKey); kind == "Secret" && n.IsString() {
		text, found = n.Scalar, true
	}
	if !found {
		if optional {
			return helm.Values{}, true
		}
		f.unrendered(r, at, "%s %s has no key %s with readable values (valuesFrom)", kind, ns+"/"+name, valuesKey)
		return helm.Values{}, false
	}
	if len(text) > MaxValuesFrom {
		f.refuse(at, "%s: values from %s %s are %d bytes, more than the %d-byte limit of one valuesFrom entry; not rendered", title(r), kind, ns+"/"+name, len(text), MaxValuesFrom)
		f.plan.Unrendered++
		return helm.Values{}, false
	}
	doc := helm.Values{Name: kind + " " + ns + "/" + name + " (valuesFrom " + itoa(i) + ")", Data: []byte(text)}
	if tp := vf.Get("targetPath").Str(); tp != "" {
		m := map[string]any{}
		cur := m
		parts := strings.Split(tp, ".")
		for _, p := range parts[:len(parts)-1] {
			next := map[string]any{}
			cur[p] = next
			cur = next
		}
		cur[parts[len(parts)-1]] = text
		data, err := yaml.Marshal(m)
		if err != nil {
			return helm.Values{}, true
		}
		doc.Data = data
	}
	return doc, true
}

func itoa(i int) string {
	const digits = "0123456789"
	if i < 10 {
		return digits[i : i+1]
	}
	return itoa(i/10) + digits[i%10:i%10+1]
}

// fluxKustomization reads a Flux Kustomization (kustomize.toolkit.fluxcd.io): its
// path in this repository is built as Flux builds it when the Kustomization sets
// what changes the objects (namePrefix, nameSuffix, patches, components, images,
// postBuild substitution; targetNamespace with them): a variant named after it.
// Otherwise the walk lints the directory as the repository's files (a kustomization,
// or plain manifests), which is what Flux deploys: targetNamespace alone only moves
// the directory's objects into one namespace, where their references resolve alike.
func (f *finder) fluxKustomization(r *graph.Resource) {
	ns := namespaceOf(r)
	spec := r.Get("spec")
	at := r.Locate("spec", "path")
	kind, name, sns := spec.Get("sourceRef", "kind").Str(), spec.Get("sourceRef", "name").Str(), spec.Get("sourceRef", "namespace").Str()
	if sns == "" {
		sns = ns
	}
	if kind != "GitRepository" {
		f.unrendered(r, r.Locate("spec", "sourceRef"), "its source is %s %s, which pvlint does not read", kind, sns+"/"+name)
		return
	}
	src := f.index[key("GitRepository", sns, name)]
	url := src.Get("spec", "url").Str()
	if name != "flux-system" && !f.thisRepository(url) {
		f.unrendered(r, r.Locate("spec", "sourceRef"), "its source GitRepository %s%s is not this repository; list its URL under gitops.repositories in .pvlint.yaml if it is", sns+"/"+name, urlWords(url))
		return
	}
	p := spec.Get("path").Str()
	if p == "" {
		p = "."
	}
	dir, ok := f.local("", p)
	if !ok {
		f.refuse(at, "%s: path %q leads outside the repository; not read", title(r), p)
		f.plan.Unrendered++
		return
	}
	if !isDir(dir) {
		f.unrendered(r, at, "its path %s is not a directory of this repository", p)
		return
	}
	changes := false
	for _, k := range []string{"namePrefix", "nameSuffix", "patches", "components", "images"} {
		if n := spec.Get(k); n.IsString() && n.Scalar != "" || len(n.Items()) > 0 {
			changes = true
		}
	}
	pb := spec.Get("postBuild")
	if pb.Get("substitute").Is(graph.Map) || len(pb.Get("substituteFrom").Items()) > 0 {
		changes = true
	}
	// Flux's v1beta2 patch fields (removed in v1): pvlint does not apply them, and
	// says so rather than linting the directory as if they were not there.
	for _, k := range []string{"patchesStrategicMerge", "patchesJson6902"} {
		if len(spec.Get(k).Items()) > 0 {
			f.note(r, r.Locate("spec", k), "%s's manifests (%s) are linted without its %s (the v1beta2 field, replaced by patches in v1)", title(r), p, k)
		}
	}
	f.plan.Rendered++
	if !changes {
		return
	}
	f.plan.Counted[r] = true
	b := Build{Object: r, Dir: dir, Root: f.root, Subst: r.Locate("spec", "postBuild"), Overlay: kustomize.Overlay{
		Variant: title(r), Anchor: at,
		Namespace: spec.Get("targetNamespace"), NamePrefix: spec.Get("namePrefix"), NameSuffix: spec.Get("nameSuffix"),
		Patches: spec.Get("patches").List(), Components: spec.Get("components").List(), Images: spec.Get("images").List(),
	}}
	if pb.Get("substitute").Is(graph.Map) || len(pb.Get("substituteFrom").Items()) > 0 {
		b.Vars = f.substVars(r, ns, pb)
	}
	f.plan.Builds = append(f.plan.Builds, b)
}

// substVars are a Kustomization's postBuild variables: each substituteFrom entry in
// order (a ConfigMap's data, a Secret's data decoded and stringData; a later entry
// wins), then substitute, which wins over them all, as Flux merges them. An entry
// that is not in the repository (a Secret kept out of Git, as they usually are) is a
// note: the values that use its variables are unknown.
func (f *finder) substVars(r *graph.Resource, ns string, pb *graph.Node) map[string]string {
	vars := map[string]string{}
	total := 0
	add := func(k, v string, at graph.Range) {
		total += len(k) + len(v)
		if total > MaxValuesFrom {
			if total-len(k)-len(v) <= MaxValuesFrom {
				f.refuse(at, "%s: its postBuild variables are more than %d bytes; the rest are unknown", title(r), MaxValuesFrom)
			}
			return
		}
		vars[k] = v
	}
	for _, e := range pb.Get("substituteFrom").Items() {
		kind, name := e.Get("kind").Str(), e.Get("name").Str()
		optional, _ := e.Get("optional").Bool()
		at := e.Range
		obj := f.index[key(kind, ns, name)]
		if obj == nil || kind != "ConfigMap" && kind != "Secret" {
			if !optional {
				f.note(r, at, "%s's variables from %s %s (postBuild.substituteFrom) are not in the repository: the values that use them are unknown", title(r), kind, ns+"/"+name)
			}
			continue
		}
		if f.opts.Object != nil {
			if full := f.opts.Object(obj); full != nil {
				obj = full
			}
		}
		for _, fd := range obj.Get("data").Fields() {
			v := fd.Value.Scalar
			if kind == "Secret" {
				dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(v))
				if err != nil {
					continue
				}
				v = string(dec)
			}
			add(fd.Key, v, at)
		}
		if kind == "Secret" {
			for _, fd := range obj.Get("stringData").Fields() {
				add(fd.Key, fd.Value.Scalar, at)
			}
		}
	}
	for _, fd := range pb.Get("substitute").Fields() {
		add(fd.Key, fd.Value.Scalar, fd.KeyRange)
	}
	return vars
}
