package kustomize

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// Overlay is what a GitOps tool adds to the kustomization of a directory before it
// builds it: Flux's Kustomization (targetNamespace, namePrefix, nameSuffix, patches,
// components, images) and Argo CD's kustomize settings write these fields into the
// directory's kustomization, generating one when the directory has none. The nodes
// are the GitOps object's own, so what they set is reported at its lines.
type Overlay struct {
	// Variant names the build ("Kustomization flux-system/apps").
	Variant string
	// Anchor is the line that names the directory: where a generated
	// kustomization's entries point.
	Anchor graph.Range
	// Source is the text of the GitOps object's file (Anchor.File): an inline patch
	// written there as a literal block is reported at its own lines.
	Source []byte
	// Namespace, NamePrefix and NameSuffix replace the kustomization's (String nodes;
	// nil leaves it).
	Namespace, NamePrefix, NameSuffix *graph.Node
	// Patches, Components and Images are appended to the kustomization's lists
	// (patches entries {patch, target}; component paths relative to the directory;
	// images entries {name, newName, newTag, digest}).
	Patches, Components, Images []*graph.Node
	// CommonLabels are added to every object and selector (a Map), as the
	// kustomization's commonLabels would.
	CommonLabels *graph.Node
	// Files, when the directory has no kustomization, are the manifests to build
	// instead of every one below it (Argo CD's directory include, exclude and
	// recurse), absolute.
	Files []string
}

// MaxGeneratedFiles bounds the files of a generated kustomization.
const MaxGeneratedFiles = 10000

// BuildOverlay builds the kustomization in dir with ov written into it, as the GitOps
// tool does. A directory without a kustomization is all of its manifests: every
// .yaml and .yml file below it that holds a Kubernetes object, and every
// subdirectory holding a kustomization (not entered further), as Flux generates it.
func BuildOverlay(dir string, ov *Overlay, env Env) *Result {
	abs, _ := filepath.Abs(dir)
	var k *kfile
	if path := File(abs); path != "" {
		var diags []graph.Diagnostic
		if k, diags = readKFile(path, env); len(diags) > 0 {
			return (&Result{Variant: ov.Variant, Diagnostics: diags}).withVariant()
		}
	} else {
		root, d := generated(abs, ov.Anchor, ov.Files, env)
		if d != nil {
			return (&Result{Variant: ov.Variant, Diagnostics: []graph.Diagnostic{*d}}).withVariant()
		}
		k = &kfile{dir: abs, path: filepath.Join(abs, "kustomization.yaml"), display: env.display(filepath.Join(abs, "kustomization.yaml")), root: root, at: ov.Anchor}
	}
	k = k.with(ov, env)
	return buildTree(abs, env, k, ov.Variant).withVariant()
}

// with is the kustomization with ov written into it.
func (k *kfile) with(ov *Overlay, env Env) *kfile {
	root := &graph.Node{Kind: graph.Map, Range: k.root.Range}
	root.SetFields(append([]graph.Field(nil), k.root.Fields()...))
	set := func(key string, v *graph.Node) {
		for i, f := range root.Fields() {
			if f.Key == key {
				root.Fields()[i].Value = v
				return
			}
		}
		root.AddFields(graph.Field{Key: key, KeyRange: v.Range, Value: v})
	}
	appendTo := func(key string, items []*graph.Node) {
		if len(items) == 0 {
			return
		}
		list := graph.NewList(items[0].Range, append(append([]*graph.Node(nil), root.Get(key).Items()...), items...))
		set(key, list)
	}
	for _, kv := range []struct {
		key string
		v   *graph.Node
	}{{"namespace", ov.Namespace}, {"namePrefix", ov.NamePrefix}, {"nameSuffix", ov.NameSuffix}} {
		if kv.v.IsString() {
			set(kv.key, kv.v)
		}
	}
	appendTo("patches", ov.Patches)
	appendTo("components", ov.Components)
	appendTo("images", ov.Images)
	if ov.CommonLabels.Is(graph.Map) {
		// commonLabels as the labels entry it means (kustomize warns on the
		// deprecated field, on its own output).
		at := ov.CommonLabels.Range
		entry := graph.NewMap(at, []graph.Field{{Key: "pairs", KeyRange: at, Value: ov.CommonLabels},
			{Key: "includeSelectors", KeyRange: at, Value: &graph.Node{Kind: graph.Bool, Range: at, Scalar: "true"}}})
		appendTo("labels", []*graph.Node{entry})
	}
	out := &kfile{dir: k.dir, path: k.path, display: k.display, data: k.data, root: root, at: k.at, subst: map[*graph.Node]string{}}
	out.parse(env)
	mine := map[*graph.Node]bool{}
	for _, e := range ov.Patches {
		mine[e.Get("patch")] = true
	}
	for i, p := range out.patches {
		if p.inline != nil && mine[p.inline] && ov.Source != nil {
			out.patches[i].name, out.patches[i].data = ov.Anchor.File, ov.Source
		}
	}
	return out
}

// generated is the kustomization Flux writes for a directory without one, or the
// list of files given.
func generated(dir string, at graph.Range, given []string, env Env) (*graph.Node, *graph.Diagnostic) {
	var files []string
	walk := filepath.WalkDir
	if given != nil {
		if len(given) > MaxGeneratedFiles {
			given = given[:MaxGeneratedFiles+1]
		}
		walk = func(_ string, fn fs.WalkDirFunc) error {
			for _, p := range given {
				info, err := os.Lstat(p)
				if err != nil {
					continue
				}
				if err := fn(p, fs.FileInfoToDirEntry(info), nil); err != nil && err != filepath.SkipDir {
					return err
				}
			}
			return nil
		}
	}
	err := walk(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if p != dir && File(p) != "" {
				files = append(files, p)
				return filepath.SkipDir
			}
			return nil
		}
		if ext := strings.ToLower(filepath.Ext(p)); ext != ".yaml" && ext != ".yml" && (given == nil || ext != ".json") || !d.Type().IsRegular() {
			return nil
		}
		if len(files) >= MaxGeneratedFiles {
			return fmt.Errorf("more than %d manifest files", MaxGeneratedFiles)
		}
		data, bad := env.read(p)
		if bad != nil {
			return nil // the walk reports it as the repository's file
		}
		if rs, _ := manifest.Parse(env.display(p), data, manifest.Options{Limits: env.Limits, SkipConfigData: true}); len(rs) > 0 {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		d := diagAt(at, fmt.Sprintf("the directory %s has no kustomization and %v; not built", env.display(dir), err))
		return nil, &d
	}
	list := graph.NewList(at, nil)
	for _, f := range files {
		rel, _ := filepath.Rel(dir, f)
		list.AddItems(&graph.Node{Kind: graph.String, Range: at, Scalar: filepath.ToSlash(rel)})
	}
	return graph.NewMap(at, []graph.Field{{Key: "resources", KeyRange: at, Value: list}}), nil
}
