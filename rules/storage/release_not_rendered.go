package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// ReleaseNotRendered (PVL024) reports what a GitOps tool deploys that pvlint did not
// render, so that a run never says "no findings" about workloads it did not see: an
// Argo CD Application or ApplicationSet entry, a Flux Kustomization or HelmRelease
// whose chart is not in the chart cache, whose repository is not this one, whose
// generator is not expanded or whose values come from a Secret that is not in the
// repository (docs/gitops.md). The loader decides (parsers/gitops) and leaves one
// graph.FactUnrendered entry per source not rendered, at the line that names it.
var ReleaseNotRendered = &lint.Rule{
	ID:       "PVL024",
	Name:     "release-not-rendered",
	Severity: lint.Note,
	Summary:  "a GitOps release was not rendered, so its workloads were not linted",
	Description: "An Argo CD Application or ApplicationSet, or a Flux Kustomization or HelmRelease, deploys " +
		"workloads that pvlint did not render: the chart comes from a Helm or OCI repository and is not in the " +
		"chart cache (--charts), the source is another Git repository, an ApplicationSet generator is not " +
		"expanded, values come from a ConfigMap or Secret that is not in the repository, or settings such as " +
		"postBuild substitution were not applied to the files linted. Hazards in what it deploys are not " +
		"reported: the note says what was not rendered and what would render it.",
	Remediation: "Fill a chart cache before linting (pvlint chart-pulls prints the helm pull lines; run them in a " +
		"trusted CI step) and pass it with --charts; list other URLs of this repository under " +
		"gitops.repositories in .pvlint.yaml; or accept the note (rules: {PVL024: off}).",
	Tags:  []string{"inputs", "gitops"},
	Kinds: []string{"Application", "ApplicationSet", "HelmRelease", "Kustomization"},
	Check: checkReleaseNotRendered,
}

func checkReleaseNotRendered(p *lint.Pass) {
	for _, kind := range []string{"Application", "ApplicationSet", "HelmRelease", "Kustomization"} {
		for _, r := range p.Graph.ByKind(kind) {
			for _, n := range r.Facts[graph.FactUnrendered].Items() {
				p.Report(r, n.Range, lint.SeverityNone, n.Scalar)
			}
		}
	}
}
