package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// ClaimSharedByWorkloads (PVL008) reports a ReadWriteOnce claim mounted by two or more
// different workloads, typically an application and its backup or maintenance
// CronJob: on attachable storage the second one's pods fail to attach the volume on
// any other node, and on the same node (or on storage that does not attach) both
// write to it.
//
// ReadWriteOncePod claims are PVL006's, and claims whose PV also lists RWX or ROX are
// intended sharing (docs/rules.md#decision-2, #decision-3). A Job or CronJob sharing a
// claim with a long-running workload is reported here; PVL009 adds its own overlap if
// its policy allows one. Consumers that run no pod (replicas: 0, suspend: true) do not
// count.
var ClaimSharedByWorkloads = &lint.Rule{
	ID:       "PVL008",
	Name:     "claim-shared-by-workloads",
	Severity: lint.Warning,
	Summary:  "two or more workloads mount one ReadWriteOnce claim",
	Description: "A PersistentVolumeClaim whose only access mode is ReadWriteOnce is mounted by two or " +
		"more different workloads, such as an application and its backup CronJob. ReadWriteOnce limits the " +
		"volume to one node: on attachable storage (EBS, Persistent Disk, Azure Disk, Ceph RBD, Longhorn...) " +
		"a pod of the second workload scheduled on another node waits in ContainerCreating with a " +
		"Multi-Attach error; on the same node, or on storage that does not attach, both write to the volume " +
		"at once.",
	Remediation: "Keep one writer per claim: run the backup inside the application's pod (a sidecar or an " +
		"exec'd command), give the second workload its own claim (a snapshot or a copy), or use a " +
		"ReadWriteMany class if the application supports shared writers.",
	Tags:  []string{"multi-attach", "access-modes"},
	Kinds: []string{"PersistentVolumeClaim"},
	Check: checkClaimSharedByWorkloads,
}

func checkClaimSharedByWorkloads(p *lint.Pass) {
	g := p.Graph
	for _, r := range g.ByKind("PersistentVolumeClaim") {
		s := site{Owner: r, Claim: claimOf(r)}
		if !g.AccessModes(s.Claim).OnlyRWO() {
			continue
		}
		cs := running(consumersOf(g, r))
		if len(cs) < 2 {
			continue
		}
		at, path := s.field("spec", "accessModes")
		msg := s.chain(g) + " is mounted by " + names(cs) + ": " + sharedConsequence(g.BackendOf(s.Claim).Class, unknownBackend(g, s.Claim))
		related := append(consumerLinks(cs, false), exceptAt(claimLinks(g, s.Claim), at)...)
		reportOnClaim(p, r, at, path, cs, msg, related)
	}
}

func sharedConsequence(b graph.BackendClass, unknown string) string {
	switch b {
	case graph.Attachable:
		return "a pod scheduled on a different node than the others' fails to attach it (Multi-Attach error), pods on the same node write to it together"
	case graph.NonAttachable:
		return "nothing enforces ReadWriteOnce on this backend, so their pods write to it at once"
	}
	return unknown + ": their pods either fail to attach it on a second node or write to it together"
}
