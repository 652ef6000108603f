package load

import (
	"maps"
	"path/filepath"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/kustomize"
)

// buildKustomizations builds the top-level kustomizations the walk found, each as a
// world of its own, and drops the files they consume from the plain manifests:
// a base or a patch is linted as part of the builds that use it, not alone.
func (l *loader) buildKustomizations() {
	if len(l.kustomizations) == 0 {
		return
	}
	dirs := unique(l.kustomizations)
	roots := map[string]string{}
	var paths []string
	for _, d := range dirs {
		paths = append(paths, d.dir)
		roots[d.dir] = d.root
	}
	env := func(root string) kustomize.Env {
		return kustomize.Env{Display: l.display, Inside: within(root), MaxFileSize: l.opts.MaxFileSize, Limits: l.opts.Limits, SkipConfigData: l.opts.SkipConfigData,
			MaxOutput: l.opts.MaxKustomizeOutput}
	}
	// The plan reads every kustomization the builds will read, confined to each
	// path's root as the builds are: nothing outside is opened, even to learn its name.
	plan := kustomize.NewPlan(paths, func(dir string) kustomize.Env { return env(roots[dir]) })
	l.res.Diagnostics = append(l.res.Diagnostics, plan.Notes...)
	kept := l.yamls[:0]
	for _, p := range l.yamls {
		abs, err := filepath.Abs(p.path)
		if err == nil && plan.Consumed[abs] {
			continue
		}
		kept = append(kept, p)
	}
	l.yamls = kept
	if pr := l.opts.Progress; pr != nil {
		pr.Kustomizations.Store(int64(len(plan.Builds)))
		pr.Files.Store(int64(len(l.yamls)))
	}
	results := make([]*kustomize.Result, len(plan.Builds))
	parallel(len(plan.Builds), func(i int) {
		if l.spent() {
			name := l.display(plan.Builds[i])
			results[i] = &kustomize.Result{Diagnostics: []graph.Diagnostic{l.unfinishedDiag(l.display(kustomize.File(plan.Builds[i])), "the kustomization "+name)}}
			return
		}
		l.guard("the kustomization "+l.display(plan.Builds[i]), func() {
			e := env(roots[plan.Builds[i]])
			e.Run = l.kustomizeRun(roots[plan.Builds[i]], "the kustomization "+l.display(plan.Builds[i]))
			results[i] = kustomize.Build(plan.Builds[i], e)
		})
		l.opts.Progress.built()
	})
	for i, res := range results {
		if res == nil {
			continue // the build panicked: an internal error
		}
		l.addVariant(Variant{Name: res.Variant, Resources: res.Resources}, l.display(plan.Builds[i]))
		l.res.Diagnostics = append(l.res.Diagnostics, res.Diagnostics...)
		maps.Copy(l.res.Sources, res.Sources)
	}
}

// kustomizationDir reports whether a directory holds a kustomization.
func kustomizationDir(dir string) bool { return kustomize.File(dir) != "" }

// kustomizationFile reports whether a file is a kustomization (never a plain manifest).
func kustomizationFile(path string) bool { return kustomize.IsFileName(filepath.Base(path)) }
