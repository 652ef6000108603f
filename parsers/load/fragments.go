package load

import (
	"path"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Patch fragments.
//
// Kustomize users (and every kubebuilder scaffold) keep strategic-merge patches
// beside their kustomization: config/default/manager_metrics_patch.yaml holds a
// Deployment with only the fields it changes. A kustomization that builds them reads
// them as patches, and its output is linted; but one that lists them only in
// comments, as scaffolds do, leaves them on disk as files nobody applies, which
// would be read as plain manifests: several Deployments of one name in one directory
// (a false duplicate-resource), workloads mounting whatever the patch mentions.
//
// A plain manifest is a fragment, neither a definition nor a consumer, when both
// hold:
//   - it lies in the directory of a kustomization of the run, or below it; and
//   - it lacks a field the API server requires of the object as a whole: an apps/v1
//     Deployment, ReplicaSet, StatefulSet or DaemonSet without spec.selector or
//     spec.template, a Job or ReplicationController without spec.template, a CronJob
//     without spec.jobTemplate.spec.template, a CustomResourceDefinition without
//     spec.group or spec.names (kubebuilder's config/crd/patches).
//
// Such a document cannot be applied on its own (kubectl apply rejects it), so it is
// only ever a patch. The same object outside a kustomization's tree stays a plain
// manifest (fixtures and examples often leave out the selector), and a complete
// object in a kustomization's directory that the kustomization does not build is
// still linted: kubectl may apply it on its own. Files a kustomization builds are
// already its own, never plain (docs/rules.md#decision-12).

// dropFragments removes the patch fragments from the plain manifests.
func (l *loader) dropFragments() {
	if len(l.kustomizations) == 0 {
		return
	}
	dirs := make([]string, 0, len(l.kustomizations))
	for _, k := range l.kustomizations {
		dirs = append(dirs, l.display(k.dir))
	}
	base := l.res.Base[:0]
	for _, r := range l.res.Base {
		if plain(r) && incomplete(r) && underAny(path.Dir(r.Origin.File), dirs) {
			continue
		}
		base = append(base, r)
	}
	l.res.Base = base
}

// underAny reports whether slash directory d is one of dirs or lies under one.
func underAny(d string, dirs []string) bool {
	for _, k := range dirs {
		if underDir(d, k) {
			return true
		}
	}
	return false
}

// incomplete reports whether a workload lacks a field the API server requires of a
// whole object of its kind: the shape of a strategic-merge patch.
func incomplete(r *graph.Resource) bool {
	spec := r.Get("spec")
	switch r.Kind {
	case "Deployment", "ReplicaSet", "StatefulSet", "DaemonSet":
		if !strings.HasPrefix(r.APIVersion, "apps/") {
			return spec.Get("template") == nil
		}
		return spec.Get("selector") == nil || spec.Get("template") == nil
	case "Job", "ReplicationController":
		return spec.Get("template") == nil
	case "CronJob":
		return spec.Get("jobTemplate", "spec", "template") == nil
	case "CustomResourceDefinition":
		// kubebuilder's config/crd/patches: only the conversion webhook or an
		// annotation of the CRD.
		return spec.Get("group") == nil || spec.Get("names") == nil
	}
	return false
}
