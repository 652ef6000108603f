package storage

import (
	"github.com/pvlint/pvlint/rules/lint"
)

// StatefulSetSharedClaim (PVL004) reports StatefulSets with more than one replica
// whose pod template mounts one single-writer claim by name, so every ordinal shares
// it instead of getting its own from volumeClaimTemplates. A claim template of the same
// name takes precedence over the template volume (graph.Mount.Shadowed) and is fine.
//
// It is the only multi-pod rule for StatefulSets (docs/rules.md#decision-2) and stays
// quiet for claims whose PV allows multi-attach (docs/rules.md#decision-3).
var StatefulSetSharedClaim = &lint.Rule{
	ID:       "PVL004",
	Name:     "statefulset-shared-claim",
	Severity: lint.Error,
	Summary:  "a StatefulSet shares one single-writer claim across its replicas",
	Description: "A StatefulSet with more than one replica (or an autoscaler allowing more) mounts a " +
		"ReadWriteOnce or ReadWriteOncePod PersistentVolumeClaim through a pod template volume " +
		"(persistentVolumeClaim.claimName) instead of volumeClaimTemplates, so every ordinal mounts the same " +
		"claim. Ordinals scheduled off pod-0's node hit a Multi-Attach error on attachable storage, or are " +
		"Unschedulable with ReadWriteOncePod; under the default OrderedReady policy the stuck ordinal blocks " +
		"every higher one. Ordinals that land on the same node write to one volume.",
	Remediation: "Move the claim into spec.volumeClaimTemplates (and drop the template volume), so each " +
		"ordinal gets its own PersistentVolumeClaim.",
	Tags:  []string{"multi-attach", "statefulset", "access-modes"},
	Kinds: []string{"StatefulSet"},
	Check: checkStatefulSetSharedClaim,
}

func checkStatefulSetSharedClaim(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.ByKind("StatefulSet") {
		c := g.ConcurrencyOf(w)
		if !c.Multi() {
			continue
		}
		for _, m := range sharedClaims(g, w) {
			if !m.Claim.Known() || !g.AccessModes(m.Claim).SingleWriter() {
				continue
			}
			msg := workload(w, c.Why) + " mounts " + claimChain(g, m.Claim) +
				" from its pod template: every replica shares the claim instead of getting its own from volumeClaimTemplates"
			related := append(concurrencyLinks(w, c), claimLinks(g, m.Claim)...)
			p.Report(w, volumeAt(w, m), lint.SeverityNone, msg, related...)
		}
	}
}
