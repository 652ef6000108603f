package gitops

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
)

// application reads an Argo CD Application: spec.source, or spec.sources where
// sources with only a ref hold values files for the others ($ref/path).
func (f *finder) application(r *graph.Resource) {
	spec := r.Get("spec")
	var sources []*graph.Node
	if ss := spec.Get("sources"); ss.Is(graph.List) {
		sources = ss.Items()
	} else if s := spec.Get("source"); s != nil {
		sources = []*graph.Node{s}
	}
	if len(sources) == 0 {
		f.unrendered(r, r.Locate("spec"), "it has no source")
		return
	}
	refs := map[string]*graph.Node{} // $ref → the source holding values files
	for _, s := range sources {
		if ref := s.Get("ref").Str(); ref != "" {
			refs[ref] = s
		}
	}
	ns := r.Get("spec", "destination", "namespace").Str()
	rendered := 0
	missed := 0
	for i, s := range sources {
		if s.Get("ref").Str() != "" && s.Get("path").Str() == "" && s.Get("chart").Str() == "" {
			continue // a values source
		}
		name := title(r)
		if len(sources) > 1 {
			name += " (source " + strconv.Itoa(i+1) + ")"
		}
		if f.appSource(r, s, name, ns, refs) {
			rendered++
		} else {
			missed++
		}
	}
	if rendered > 0 && missed == 0 {
		f.plan.Rendered++
		f.plan.Counted[r] = true
	} else if missed > 0 {
		f.plan.Unrendered++
	}
}

// appSource handles one source of an Application; false when it was not rendered
// (noted or refused).
func (f *finder) appSource(r *graph.Resource, s *graph.Node, name, ns string, refs map[string]*graph.Node) bool {
	url := s.Get("repoURL").Str()
	at := s.Get("repoURL").Range
	if !at.IsValid() {
		at = s.Range
	}
	h := s.Get("helm")
	rel := Release{Object: r, Name: name, Values: h.Get("valuesObject")}
	for _, k := range []string{"valuesObject", "values"} {
		if fd := h.Field(k); fd != nil && !rel.ValuesAt.IsValid() {
			rel.ValuesAt = fd.KeyRange
		}
	}
	rel.Helm.Namespace = ns
	rel.Helm.ReleaseName = h.Get("releaseName").Str()
	if rel.Helm.ReleaseName == "" {
		rel.Helm.ReleaseName = r.Name
	}
	if c := s.Get("chart").Str(); c != "" {
		rel.Anchor = s.Get("chart").Range
		version := s.Get("targetRevision").Str()
		repo := url
		if !strings.Contains(repo, "://") && repo != "" {
			repo = "oci://" + repo // Argo CD writes OCI registries without a scheme
		}
		if !f.cached(&rel, c, version) {
			p := Pull{Repo: repo, Chart: c, Version: version}
			f.pull(p)
			f.note(r, rel.Anchor, "%s is not rendered: chart %s%s of %s is not in the chart cache; %s into a directory given to --charts renders it", name, c, versionWords(version), url, p.Line())
			return false
		}
	} else {
		if !f.thisRepository(url) {
			f.note(r, at, "%s is not rendered: its repository %s is not this repository; list its URL under gitops.repositories in .pvlint.yaml if it is", name, quoteEmpty(url))
			return false
		}
		p := s.Get("path").Str()
		pat := s.Get("path").Range
		if !pat.IsValid() {
			pat = at
		}
		dir, ok := f.local("", p)
		if !ok {
			f.refuse(pat, "%s: path %q leads outside the repository; not read", name, p)
			return false
		}
		if !isDir(dir) {
			f.note(r, pat, "%s is not rendered: its path %s is not a directory of this repository", name, quoteEmpty(p))
			return false
		}
		if !helm.IsChart(dir) {
			f.appDirectory(r, s, name, ns, p, dir, pat)
			return true
		}
		rel.Anchor, rel.Chart, rel.Root = pat, dir, f.root
	}
	// Values: valueFiles in order (relative to the chart, or $ref/... in another
	// source of this repository), then values or valuesObject, then parameters.
	for _, vf := range h.Get("valueFiles").List() {
		v := vf.Str()
		var file string
		if ref, rest, ok := strings.Cut(v, "/"); ok && strings.HasPrefix(ref, "$") {
			src := refs[ref[1:]]
			if src == nil || !f.thisRepository(src.Get("repoURL").Str()) {
				f.note(r, vf.Range, "%s is not rendered: its values file %s comes from a source that is not this repository", name, v)
				return false
			}
			file, ok = f.local("", rest)
			if !ok {
				f.refuse(vf.Range, "%s: values file %q leads outside the repository; not read", name, v)
				return false
			}
		} else {
			if rel.Cached {
				f.note(r, vf.Range, "%s is not rendered: its values file %s lies in a chart of the cache, which pvlint does not read values files from", name, v)
				return false
			}
			var ok bool
			if file, ok = f.local(rel.Chart, v); !ok {
				f.refuse(vf.Range, "%s: values file %q leads outside the repository; not read", name, v)
				return false
			}
		}
		if _, err := os.Stat(file); err != nil {
			if ignore, _ := h.Get("ignoreMissingValueFiles").Bool(); ignore {
				continue
			}
			f.note(r, vf.Range, "%s is not rendered: its values file %s is not in the repository", name, v)
			return false
		}
		rel.Helm.ValueFiles = append(rel.Helm.ValueFiles, file)
	}
	if vs := h.Get("values"); vs.IsString() {
		rel.Helm.Values = append(rel.Helm.Values, helm.Values{Name: "helm.values of " + name, Data: []byte(vs.Scalar)})
		if rel.Values == nil {
			rel.Values = vs
		}
	} else if vs.Is(graph.Map) && rel.Values == nil {
		rel.Values = vs
	}
	if rel.Values.Is(graph.Map) {
		if data, err := yaml.Marshal(rel.Values.Interface()); err == nil {
			rel.Helm.Values = append(rel.Helm.Values, helm.Values{Name: "the values of " + name, Data: data})
		}
	}
	for _, p := range h.Get("parameters").List() {
		kv := strings.ReplaceAll(p.Get("name").Str(), ",", `\,`) + "=" + strings.ReplaceAll(p.Get("value").Str(), ",", `\,`)
		if force, _ := p.Get("forceString").Bool(); force {
			rel.Helm.SetString = append(rel.Helm.SetString, kv)
		} else {
			rel.Helm.Set = append(rel.Helm.Set, kv)
		}
	}
	rel.Helm.Variant = name
	f.plan.Releases = append(f.plan.Releases, rel)
	return true
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// Remotes returns the URLs of the remotes of the Git checkout at root, read from
// root/.git/config (a regular file of at most 1 MiB inside the checkout); none when
// there is no such file.
func Remotes(root string) []string {
	p := filepath.Join(root, ".git", "config")
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
		return nil
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil
	}
	var out []string
	inRemote := false
	for line := range strings.SplitSeq(string(data), "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			inRemote = strings.HasPrefix(line, "[remote ")
			continue
		}
		if !inRemote {
			continue
		}
		k, v, ok := strings.Cut(line, "=")
		if ok && strings.TrimSpace(k) == "url" {
			out = append(out, strings.Trim(strings.TrimSpace(v), `"`))
		}
	}
	return out
}
