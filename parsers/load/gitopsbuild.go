package load

import (
	"maps"
	"path/filepath"

	"github.com/pvlint/pvlint/parsers/gitops"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/kustomize"
)

// buildGitOps builds the directories GitOps objects deploy with settings of their own
// (a Flux Kustomization's patches, namePrefix, postBuild substitution...): each a
// variant named after the object, which replaces the directory's own linting: the
// plain manifests the build read leave the base, and the world of a kustomization it
// built on is dropped. The GitOps objects among them stay as the walk read them (they
// carry the notes of what they deploy); their built copies are left out.
func (l *loader) buildGitOps(plan *gitops.Plan, failed map[*graph.Resource]bool) {
	if len(plan.Builds) == 0 {
		return
	}
	results := make([]*kustomize.Result, len(plan.Builds))
	parallel(len(plan.Builds), func(i int) {
		b := plan.Builds[i]
		ov := b.Overlay
		ov.Source = l.res.Sources[ov.Anchor.File]
		if l.spent() {
			results[i] = &kustomize.Result{Variant: ov.Variant, Diagnostics: []graph.Diagnostic{l.unfinishedDiag(ov.Anchor.File, ov.Variant)}}
			return
		}
		env := kustomize.Env{Display: l.display, Inside: within(b.Root), MaxFileSize: l.opts.MaxFileSize, Limits: l.opts.Limits,
			SkipConfigData: l.opts.SkipConfigData, MaxOutput: l.opts.MaxKustomizeOutput, Run: l.kustomizeRun(b.Root, ov.Variant)}
		l.guard(ov.Variant, func() { results[i] = kustomize.BuildOverlay(b.Dir, &ov, env) })
	})
	read := map[string]bool{} // files the builds read, as displayed
	var built []Variant
	for i, res := range results {
		b := plan.Builds[i]
		if res == nil || len(res.Resources) == 0 {
			failed[b.Object] = true // a PVL000 (or an internal error) says why
		}
		if res == nil {
			continue
		}
		l.res.Diagnostics = append(l.res.Diagnostics, res.Diagnostics...)
		maps.Copy(l.res.Sources, res.Sources)
		if len(res.Resources) == 0 {
			continue // what the walk read of the directory stays linted
		}
		for _, r := range res.Resources {
			if b.Namespace != "" && r.Get("metadata", "namespace").Str() == "" && !graph.IsClusterScoped(r.Kind) {
				r.Namespace = b.Namespace // Argo CD's destination
			}
		}
		if b.Vars != nil {
			for _, d := range gitops.Substitute(res.Resources, b.Vars, b.Subst) {
				d.Variant = res.Variant
				l.res.Diagnostics = append(l.res.Diagnostics, d)
			}
		}
		for name := range res.Sources {
			read[name] = true
		}
		var rs []*graph.Resource
		for _, r := range res.Resources {
			if !gitops.IsGitOps(r) {
				rs = append(rs, r)
			}
		}
		built = append(built, Variant{Name: res.Variant, Resources: rs})
	}
	// The plain manifests and kustomization worlds the builds read are linted
	// through them; their GitOps objects stay in the base.
	kept := l.res.Base[:0]
	var carried []*graph.Resource
	for _, r := range l.res.Base {
		if read[r.Origin.File] && !gitops.IsGitOps(r) && !r.IsContext() {
			continue
		}
		kept = append(kept, r)
	}
	l.res.Base = kept
	variants := l.res.Variants[:0]
	for _, v := range l.res.Variants {
		if len(v.Resources) > 0 && v.Resources[0].Origin.Format == graph.FormatKustomize && builtOn(read, v.Name) {
			for _, r := range v.Resources {
				if gitops.IsGitOps(r) {
					carried = append(carried, r)
				}
			}
			continue
		}
		variants = append(variants, v)
	}
	l.res.Variants = variants
	l.res.Base = append(l.res.Base, carried...)
	for _, v := range built {
		l.addVariant(v, v.Name)
	}
}

// builtOn reports whether a kustomization world (named by its directory) is one the
// builds read.
func builtOn(read map[string]bool, dir string) bool {
	for _, n := range []string{"kustomization.yaml", "kustomization.yml", "Kustomization"} {
		if read[filepath.ToSlash(filepath.Join(dir, n))] || read[dir+"/"+n] {
			return true
		}
	}
	return false
}
