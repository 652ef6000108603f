package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
)

// UnresolvedClaim (PVL018) reports consumers that can run more than one pod and mount
// a claim that is not in the linted set: the multi-pod rules cannot check its access
// mode, so instead of staying silent pvlint says what it could not verify. Per-pod
// claims (volumeClaimTemplates, ephemeral volumes) are never shared and never fire.
var UnresolvedClaim = &lint.Rule{
	ID:       "PVL018",
	Name:     "unresolved-claim",
	Severity: lint.Warning,
	Summary:  "a multi-pod workload mounts a claim pvlint cannot see",
	Description: "A workload that can run more than one pod at once (replicas, an autoscaler, one pod per " +
		"node, Job parallelism, overlapping CronJob runs) or surges a pod during a rolling update mounts a " +
		"PersistentVolumeClaim that is not in the linted files. If that claim is ReadWriteOnce, the pods hit " +
		"Multi-Attach errors or write concurrently, but its access mode cannot be checked. Gatekeeper's " +
		"equivalent policy asks users to verify the claim's accessMode by hand in the same situation.",
	Remediation: "Lint the claim together with the workload (pass its file or directory too), or declare " +
		"the claim in the pvlint configuration.",
	Doc:   docs.Page("PVL018"),
	Tags:  []string{"coverage", "access-modes"},
	Kinds: []string{"Deployment", "ReplicaSet", "ReplicationController", "StatefulSet", "DaemonSet", "Job", "CronJob", "Rollout"},
	Check: checkUnresolvedClaim,
}

func checkUnresolvedClaim(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if !graph.IsWorkload(w.Kind) {
			continue
		}
		why, related := multiPodReason(g, w)
		if why == "" {
			continue
		}
		for _, m := range sharedClaims(g, w) {
			if m.Claim.Known() {
				continue
			}
			what := "PVC " + m.Claim.Name + ", which is not in the linted set"
			if m.Claim.Name == "" {
				what = "a PVC whose name is not known statically"
			}
			msg := workload(w, why) + " mounts " + what + ": its access modes cannot be checked"
			p.Report(w, volumeAt(w, m), lint.SeverityNone, msg, related...)
		}
	}
}

// multiPodReason says why a workload can run more than one pod (C(w) > 1, else a
// rolling-update surge), with the related locations of the deciding fields; "" when
// it cannot.
func multiPodReason(g *graph.Graph, w *graph.Resource) (string, []lint.Related) {
	if c := g.ConcurrencyOf(w); c.Multi() {
		return c.Why, concurrencyLinks(w, c)
	}
	if s := g.SurgeOf(w); s.Known && s.N >= 1 {
		var related []lint.Related
		if s.Node != nil && s.Node.Range.IsValid() {
			related = append(related, lint.Related{Range: surgeAt(w), Message: w.Kind + " " + w.Name + ": " + s.Why})
		}
		return s.Why, related
	}
	return "", nil
}
