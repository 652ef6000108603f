package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// RollingTerminatingOverlap (PVL022) reports the one-replica Deployment (or canary Argo
// Rollout) that rolls out with maxSurge 0 over a ReadWriteOnce claim, on the belief that
// no surge means the old pod is gone before the new one starts. It is not: the rolling
// path counts the ReplicaSets' desired replicas, not live pods, so once the old
// ReplicaSet is scaled down its pod is only Terminating and the replacement is created at
// once. Only strategy Recreate waits until no old pod runs. The new pod then writes next
// to the terminating one during its grace period on the same node, or waits on a
// Multi-Attach error on another.
//
// It speaks only where PVL002 (several pods), PVL003 (a surge) and PVL019 (a pinned
// workload that runs several pods or surges) do not: C(w) is exactly 1 and the surge is
// 0. A ReadWriteOncePod claim is safe with maxSurge 0 (the scheduler keeps the new pod
// Pending until the old one is gone), and claims whose PV allows multi-attach are
// intended sharing.
var RollingTerminatingOverlap = &lint.Rule{
	ID:       "PVL022",
	Name:     "rolling-terminating-overlap",
	Severity: lint.Warning,
	Summary:  "maxSurge 0 still starts the new pod while the old one terminates",
	Description: "A Deployment, or an Argo Rollout with a canary strategy, runs one pod and rolls out with " +
		"RollingUpdate and maxSurge 0, and mounts a shared claim whose only access mode is ReadWriteOnce. " +
		"maxSurge 0 does not wait for the old pod to be gone: the controller scales the old ReplicaSet down " +
		"and creates the replacement as soon as the old pod starts terminating (terminating pods are not " +
		"counted). On the same node both pods write to the volume during the old pod's termination grace " +
		"period (30 seconds by default), which is how single-writer databases such as PostgreSQL or SQLite " +
		"get corrupted; on another node the new pod waits on a Multi-Attach error until the volume detaches.",
	Remediation: "Set strategy.type: Recreate (with no rollingUpdate block), which waits until no old pod " +
		"runs before creating the new one; or make the claim ReadWriteOncePod, with which maxSurge 0 is safe " +
		"(the scheduler keeps the new pod Pending until the old one is gone).",
	Tags:  []string{"rollout", "access-modes", "data-integrity"},
	Kinds: []string{"Deployment", "Rollout"},
	Check: checkRollingTerminatingOverlap,
}

func checkRollingTerminatingOverlap(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if !rollsWithoutSurge(g, w) {
			continue
		}
		c := g.ConcurrencyOf(w)
		if !c.Known || c.Many || c.N != 1 {
			continue
		}
		s := g.SurgeOf(w)
		host, pin, src := pinnedTo(g, w)
		grace := graceOf(src)
		// One finding per consequence: the claims whose overlap is the same are one
		// hazard with one remedy, named together (as PVL002, PVL003 and PVL009 report).
		var hazards []*hazard
		for _, m := range sharedClaims(g, w) {
			if !m.Claim.Known() || !g.AccessModes(m.Claim).OnlyRWO() {
				continue
			}
			hazardOf(&hazards, g, w, m, lint.SeverityNone, overlapOnReplace(g.BackendOf(m.Claim).Class, host, grace))
		}
		for _, h := range hazards {
			msg := workload(w, c.Why+", "+s.Why) + " mounts " + h.claims() +
				": the replacement pod is created as soon as the old pod starts terminating, not once it is gone; " + h.consequence
			related := h.volumes
			if host != "" {
				field, _ := pinField(src, pin)
				related = append(related, lint.Related{Range: pinAt(w, src, pin), Message: w.Kind + " " + w.Name + " is pinned to node " + host + " (" + field + ")"})
			}
			p.ReportFix(recreateFix(w), w, surgeAt(w), volumePath(w, h.first), h.sev, msg, append(related, h.links...)...)
		}
	}
}

// rollsWithoutSurge reports whether a workload rolls out with RollingUpdate (a
// Deployment's default, an Argo Rollout's canary) and its effective surge is known to
// be zero. Recreate and blue-green are not rolling updates; replicas 0 is left to C(w).
func rollsWithoutSurge(g *graph.Graph, w *graph.Resource) bool {
	switch w.Kind {
	case "Deployment":
		if t := w.Get("spec", "strategy", "type"); t != nil && t.Str() != "RollingUpdate" {
			return false
		}
	case "Rollout":
		if w.Get("spec", "strategy", "canary") == nil {
			return false
		}
	default:
		return false
	}
	s := g.SurgeOf(w)
	return s.Known && s.N == 0
}

// graceOf is the pod template's terminationGracePeriodSeconds, for messages: how long
// the old pod may keep writing after its replacement starts.
func graceOf(w *graph.Resource) string {
	if n := graph.PodSpec(w).Get("terminationGracePeriodSeconds"); n != nil && !n.IsNull() && !n.IsUnknown() && n.Str() != "" {
		return "terminationGracePeriodSeconds " + n.Str()
	}
	return "terminationGracePeriodSeconds 30 (default)"
}

func overlapOnReplace(b graph.BackendClass, host, grace string) string {
	switch {
	case host != "":
		return "both pods run on node " + host + " and write to the volume together during the old pod's " + grace
	case b == graph.NonAttachable:
		return "nothing enforces ReadWriteOnce on this backend, so both pods write to the volume during the old pod's " + grace
	case b == graph.Attachable:
		return "on the same node both pods write to the volume during the old pod's " + grace +
			"; on another node the new pod waits on a Multi-Attach error until the volume detaches"
	}
	return "on the same node both pods write to the volume during the old pod's " + grace +
		"; on another node the new pod may wait on a Multi-Attach error until the volume detaches"
}
