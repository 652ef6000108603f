package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// RWOMultiPod (PVL002) reports workloads that can run several pods at once and share
// one ReadWriteOnce claim: on attachable storage every pod off the first node fails
// with a Multi-Attach error, elsewhere they all write to a volume meant for one writer.
//
// StatefulSets (PVL004) and CronJobs (PVL009) have rules of their own, RWOP claims
// belong to PVL006, claims whose PV allows multi-attach are intended sharing, and a
// consumer pinned to one node is PVL019's (docs/rules.md#decision-2, #decision-3).
var RWOMultiPod = &lint.Rule{
	ID:       "PVL002",
	Name:     "rwo-multi-pod",
	Severity: lint.Error,
	Summary:  "a multi-pod workload shares one ReadWriteOnce claim",
	Description: "A Deployment, ReplicaSet, ReplicationController, DaemonSet, Job or Argo Rollout that can run " +
		"more than one pod at once (replicas, an HPA or KEDA maximum, one pod per node, Job parallelism) mounts " +
		"one PersistentVolumeClaim whose only access mode is ReadWriteOnce. On attachable storage (EBS, " +
		"Persistent Disk, Azure Disk, Ceph RBD, Longhorn...) the pods scheduled on a second node stay in " +
		"ContainerCreating with a Multi-Attach error; on other storage nothing enforces ReadWriteOnce across " +
		"nodes and every pod writes to the volume. Error on attachable backends, warning otherwise.",
	Remediation: "Give each pod its own claim (a StatefulSet with volumeClaimTemplates), use a ReadWriteMany " +
		"class if the application supports shared writers (EFS, Filestore, Azure Files, CephFS, NFS), or run " +
		"one replica with strategy Recreate and a ReadWriteOncePod claim.",
	Tags:  []string{"multi-attach", "access-modes", "availability"},
	Kinds: []string{"Deployment", "ReplicaSet", "ReplicationController", "DaemonSet", "Job", "Rollout"},
	Check: checkRWOMultiPod,
}

func checkRWOMultiPod(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if !multiPodKind(w.Kind) || pinned(g, w) {
			continue
		}
		c := g.ConcurrencyOf(w)
		if !c.Multi() {
			continue
		}
		// One finding per field that makes the workload multi-pod and per level: the
		// claims it reaches there are one hazard with one remedy, each named with its
		// own consequence. Claims reported at their own volume (no replicas field to
		// point at) stay one finding each.
		type hazard struct {
			at      graph.Range
			sev     lint.Severity
			first   *graph.Mount
			parts   []string
			related []lint.Related
		}
		var hazards []*hazard
		for _, m := range sharedClaims(g, w) {
			if !m.Claim.Known() || !g.AccessModes(m.Claim).OnlyRWO() {
				continue
			}
			at := concurrencyAt(w, c, m)
			b := g.BackendOf(m.Claim)
			sev := lint.Warning
			if b.Class == graph.Attachable {
				sev = lint.Error
			}
			var h *hazard
			for _, x := range hazards {
				if x.at == at && x.sev == sev {
					h = x
				}
			}
			if h == nil {
				h = &hazard{at: at, sev: sev, first: m, related: concurrencyLinks(w, c)}
				hazards = append(hazards, h)
			}
			h.parts = append(h.parts, claimChain(g, m.Claim)+": "+multiPodConsequence(b.Class, unknownBackend(g, m.Claim)))
			h.related = append(h.related, claimLinks(g, m.Claim)...)
		}
		for _, h := range hazards {
			msg := workload(w, c.Why) + " mounts " + strings.Join(h.parts, "; and ")
			p.ReportPath(w, h.at, volumePath(w, h.first), h.sev, msg, h.related...)
		}
	}
}

// multiPodKind lists the consumers PVL002 speaks for; Pods run one pod, StatefulSets
// are PVL004's and CronJobs PVL009's (docs/rules.md#decision-2).
func multiPodKind(kind string) bool {
	switch kind {
	case "Deployment", "ReplicaSet", "ReplicationController", "DaemonSet", "Job", "Rollout":
		return true
	}
	return false
}

func multiPodConsequence(b graph.BackendClass, unknown string) string {
	switch b {
	case graph.Attachable:
		return "pods on a second node fail to attach it (Multi-Attach error), pods on the same node share it read-write"
	case graph.NonAttachable:
		return "nothing enforces ReadWriteOnce on this backend, so every pod writes to it at once"
	}
	return unknown + ": pods on a second node either fail to attach it or all write to it at once"
}
