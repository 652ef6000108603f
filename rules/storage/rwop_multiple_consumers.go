package storage

import (
	"github.com/pvlint/pvlint/rules/lint"
)

// RWOPMultipleConsumers (PVL006) reports ReadWriteOncePod claims that more than one pod
// can want at once: a consumer running several pods, or two consumers. The scheduler
// keeps every pod after the first Pending, so the extra replicas, the second app or the
// backup job never run while the first pod lives.
//
// It speaks for RWOP where PVL002 and PVL008 speak for RWO (docs/rules.md#decision-2). A
// StatefulSet's replicas are PVL004's, a CronJob's overlapping runs PVL009's, and a
// Deployment's surge PVL003's; consumers that run no pod (replicas: 0, suspend: true)
// do not count.
var RWOPMultipleConsumers = &lint.Rule{
	ID:       "PVL006",
	Name:     "rwop-multiple-consumers",
	Severity: lint.Error,
	Summary:  "a ReadWriteOncePod claim has more than one possible pod",
	Description: "A PersistentVolumeClaim with access mode ReadWriteOncePod is mounted by a workload " +
		"that runs more than one pod at once (replicas, an HPA or KEDA maximum, a DaemonSet, Job " +
		"parallelism), or by two or more workloads (an application and its backup CronJob). " +
		"ReadWriteOncePod admits exactly one pod in the whole cluster: the scheduler keeps every other " +
		"pod that mounts the claim Pending for as long as the first one runs.",
	Remediation: "Give each consumer its own claim (volumeClaimTemplates for per-replica data), run one " +
		"consumer per ReadWriteOncePod claim, or use a ReadWriteMany class if the pods are meant to share " +
		"the data.",
	Tags:  []string{"access-modes", "rwop", "scheduling"},
	Kinds: []string{"PersistentVolumeClaim"},
	Check: checkRWOPMultipleConsumers,
}

func checkRWOPMultipleConsumers(p *lint.Pass) {
	g := p.Graph
	for _, r := range g.ByKind("PersistentVolumeClaim") {
		s := site{Owner: r, Claim: claimOf(r)}
		if !g.AccessModes(s.Claim).HasRWOP() {
			continue
		}
		cs := running(consumersOf(g, r))
		var multi []consumer
		for _, c := range cs {
			// StatefulSet replicas are PVL004's, CronJob runs PVL009's.
			if c.C.Multi() && c.W.Kind != "StatefulSet" && c.W.Kind != "CronJob" {
				multi = append(multi, c)
			}
		}
		if len(cs) < 2 && len(multi) == 0 {
			continue
		}
		at, path := s.field("spec", "accessModes")
		var msg string
		if len(cs) >= 2 {
			msg = s.chain(g) + " is mounted by " + names(cs) +
				": ReadWriteOncePod admits one pod, so while one of them runs the others' pods stay Pending"
		} else {
			msg = s.chain(g) + " is mounted by " + names(multi) +
				": ReadWriteOncePod admits one pod, so every replica after the first stays Pending"
		}
		related := append(consumerLinks(cs, true), exceptAt(claimLinks(g, s.Claim), at)...)
		reportOnClaim(p, r, at, path, cs, msg, related)
	}
}
