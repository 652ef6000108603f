package gitops

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/kustomize"
)

// appDirectory reads an Argo CD source whose path is a directory of this repository
// that is not a chart. A kustomization with kustomize settings (namePrefix,
// nameSuffix, namespace, images, patches, commonLabels, components) is built with them
// written into it, as Argo CD's kustomize edit does; a plain directory with directory
// settings (recurse, include, exclude) is built of the files they select. Either is a
// variant named after the Application, with destination.namespace for the objects
// that have none, replacing the directory's own linting. Without settings the walk
// lints the directory; what pvlint does not apply (plugins, jsonnet, other kustomize
// keys) is named in a note.
func (f *finder) appDirectory(r *graph.Resource, s *graph.Node, name, ns, p, dir string, pat graph.Range) {
	var unapplied []string
	if s.Get("plugin").Exists() {
		unapplied = append(unapplied, "plugin")
	}
	b := Build{Object: r, Dir: dir, Root: f.root, Namespace: ns, Overlay: kustomize.Overlay{Variant: name, Anchor: pat}}
	ks, ds := s.Get("kustomize"), s.Get("directory")
	build := false
	switch {
	case kustomize.File(dir) != "" && ks.Is(graph.Map):
		for _, fd := range ks.Fields() {
			v := fd.Value
			switch fd.Key {
			case "namePrefix":
				b.Overlay.NamePrefix = v
			case "nameSuffix":
				b.Overlay.NameSuffix = v
			case "namespace":
				b.Overlay.Namespace = v
			case "patches":
				b.Overlay.Patches = v.List()
			case "components":
				b.Overlay.Components = v.List()
			case "commonLabels":
				b.Overlay.CommonLabels = v
			case "images":
				for _, img := range v.List() {
					b.Overlay.Images = append(b.Overlay.Images, argoImage(img))
				}
			case "version", "kubeVersion", "apiVersions":
				continue // what builds it, not what it holds
			default:
				unapplied = append(unapplied, "kustomize."+fd.Key)
				continue
			}
			build = true
		}
	case kustomize.File(dir) == "" && ds.Is(graph.Map):
		if ds.Get("jsonnet").Exists() {
			unapplied = append(unapplied, "directory.jsonnet")
		}
		files, err := argoFiles(dir, ds)
		if err != nil {
			f.refuse(ds.Range, "%s: %v; its directory settings are not applied", name, err)
			break
		}
		if len(files) == 0 {
			f.note(r, ds.Range, "%s's directory settings select no manifest of %s", name, p)
			break
		}
		b.Overlay.Files, build = files, true
	case ks.Exists():
		unapplied = append(unapplied, "kustomize settings (the directory has no kustomization, so Argo CD does not use them)")
	case ds.Exists():
		unapplied = append(unapplied, "directory settings (the directory is a kustomization, so Argo CD does not use them)")
	}
	if len(unapplied) > 0 {
		f.note(r, pat, "%s's manifests (%s) are linted without its %s", name, p, strings.Join(unapplied, ", "))
	}
	if build {
		f.plan.Builds = append(f.plan.Builds, b)
		f.plan.Counted[r] = true
	}
}

// argoImage turns an Argo CD kustomize image ("name=newName:tag", "name:tag",
// "name@digest") into a kustomize images entry.
func argoImage(n *graph.Node) *graph.Node {
	s := n.Str()
	name, image := s, s
	if before, after, ok := strings.Cut(s, "="); ok {
		name, image = before, after
	}
	str := func(v string) *graph.Node { return &graph.Node{Kind: graph.String, Range: n.Range, Scalar: v} }
	fields := []graph.Field{}
	newName, tag, digest := image, "", ""
	if before, after, ok := strings.Cut(image, "@"); ok {
		newName, digest = before, after
	} else if i := strings.LastIndex(image, ":"); i > strings.LastIndex(image, "/") {
		newName, tag = image[:i], image[i+1:]
	}
	if name == s { // no "=": the image keeps its name
		name = newName
	}
	if i := strings.LastIndex(name, ":"); i > strings.LastIndex(name, "/") {
		name = name[:i]
	}
	fields = append(fields, graph.Field{Key: "name", KeyRange: n.Range, Value: str(name)})
	if newName != name {
		fields = append(fields, graph.Field{Key: "newName", KeyRange: n.Range, Value: str(newName)})
	}
	if tag != "" {
		fields = append(fields, graph.Field{Key: "newTag", KeyRange: n.Range, Value: str(tag)})
	}
	if digest != "" {
		fields = append(fields, graph.Field{Key: "digest", KeyRange: n.Range, Value: str(digest)})
	}
	return graph.NewMap(n.Range, fields)
}

// argoFiles are the manifests Argo CD applies from a plain directory: the .yaml,
// .yml and .json files at its top, or below it with recurse: true, whose path
// relative to it matches include (when set) and not exclude. Patterns are Argo CD's
// globs: * and ? match any character, / included, and {a,b} alternatives.
func argoFiles(dir string, ds *graph.Node) ([]string, error) {
	recurse, _ := ds.Get("recurse").Bool()
	include, exclude := globRegexp(ds.Get("include").Str()), globRegexp(ds.Get("exclude").Str())
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && (!recurse || strings.HasPrefix(d.Name(), ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if exclude != nil && exclude.MatchString(rel) || include != nil && !include.MatchString(rel) {
			return nil
		}
		out = append(out, p)
		if len(out) > kustomize.MaxGeneratedFiles {
			return errTooManyFiles
		}
		return nil
	})
	return out, err
}

var errTooManyFiles = fmt.Errorf("the directory holds more than %d manifests", kustomize.MaxGeneratedFiles)

// globRegexp compiles an Argo CD glob; nil for "".
func globRegexp(g string) *regexp.Regexp {
	if g == "" {
		return nil
	}
	var b strings.Builder
	b.WriteString("^")
	depth := 0
	for _, c := range g {
		switch {
		case c == '*':
			b.WriteString(".*")
		case c == '?':
			b.WriteString(".")
		case c == '{':
			depth++
			b.WriteString("(?:")
		case c == '}' && depth > 0:
			depth--
			b.WriteString(")")
		case c == ',' && depth > 0:
			b.WriteString("|")
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	for ; depth > 0; depth-- {
		b.WriteString(")")
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return regexp.MustCompile(`^\x00$`)
	}
	return re
}
