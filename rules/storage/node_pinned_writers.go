package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// NodePinnedWriters (PVL019) reports workloads pinned to one node that run several pods
// at once, or surge one during a rollout, over one ReadWriteOnce claim. Pinning dodges
// the Multi-Attach error PVL002 and PVL003 warn about, because every pod lands on the
// node that holds the volume, but ReadWriteOnce allows any number of pods on that node:
// they all write to the volume at once.
//
// It takes over exactly the consumers PVL002 and PVL003 hand off
// (docs/rules.md#decision-2): the same kinds, the same concurrency and surge,
// ReadWriteOnce only. A pinned ReadWriteOncePod claim stays PVL003's (the scheduler
// refuses the surge pod on the same node too) or PVL006's.
var NodePinnedWriters = &lint.Rule{
	ID:       "PVL019",
	Name:     "node-pinned-writers",
	Severity: lint.Warning,
	Summary:  "pods pinned to one node share a ReadWriteOnce volume read-write",
	Description: "A Deployment, ReplicaSet, ReplicationController, DaemonSet, Job or Argo Rollout is pinned to one " +
		"node (spec.nodeName, a nodeSelector on kubernetes.io/hostname, or a required node affinity naming one " +
		"hostname) and can run more than one pod at once (replicas, an autoscaler, Job parallelism) or starts a " +
		"surge pod during rolling updates, and it mounts a ReadWriteOnce claim. ReadWriteOnce is enforced per " +
		"node, not per pod: all these pods run on the pinned node and mount the volume read-write together, with " +
		"no error anywhere. Applications that assume one writer (databases, SQLite, most file-based stores) " +
		"corrupt their data.",
	Remediation: "Run one pod: replicas 1 with strategy Recreate, and make the claim ReadWriteOncePod so Kubernetes " +
		"itself refuses a second pod; or give each pod its own claim (a StatefulSet with volumeClaimTemplates).",
	Tags:  []string{"access-modes", "data-integrity", "scheduling"},
	Kinds: []string{"Deployment", "ReplicaSet", "ReplicationController", "DaemonSet", "Job", "Rollout"},
	Check: checkNodePinnedWriters,
}

func checkNodePinnedWriters(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if !multiPodKind(w.Kind) {
			continue
		}
		host, pin, src := pinnedTo(g, w)
		if host == "" {
			continue
		}
		why, related := pinnedConcurrency(g, w)
		if why == "" {
			continue
		}
		for _, m := range sharedClaims(g, w) {
			if !m.Claim.Known() || !g.AccessModes(m.Claim).OnlyRWO() {
				continue
			}
			field, _ := pinField(src, pin)
			msg := workload(w, why) + " is pinned to node " + host + " (" + field + ") and mounts " +
				claimChain(g, m.Claim) + ": every pod runs on that node, where ReadWriteOnce lets them all write to the volume at once"
			links := append(append([]lint.Related{{Range: volumeAt(w, m), Message: "volume " + m.VolumeName + " mounts PVC " + m.Claim.Name}},
				related...), claimLinks(g, m.Claim)...)
			p.ReportPath(w, pinAt(w, src, pin), volumePath(w, m), lint.SeverityNone, msg, links...)
		}
	}
}

// pinnedTo returns the node a workload's pods are pinned to, the deciding node and the
// resource it sits in (an Argo Rollout's workloadRef Deployment when the template comes
// from there); "" when the pods are not pinned.
func pinnedTo(g *graph.Graph, w *graph.Resource) (string, *graph.Node, *graph.Resource) {
	src := w
	if ref := g.WorkloadRef(w); ref != nil {
		src = ref
	}
	host, n := graph.PinnedHost(src)
	return host, n, src
}

// pinnedConcurrency says why a pinned workload runs several pods together: C(w) > 1,
// else a rolling-update surge of at least one pod, with the deciding fields as related
// locations; "" when it runs one pod at a time. These are PVL002's and PVL003's
// conditions, so the hand-off leaves no gap.
func pinnedConcurrency(g *graph.Graph, w *graph.Resource) (string, []lint.Related) {
	if c := g.ConcurrencyOf(w); c.Multi() {
		return c.Why, concurrencyLinks(w, c)
	}
	if w.Kind != "Deployment" && w.Kind != "Rollout" {
		return "", nil
	}
	if s := g.SurgeOf(w); s.Known && s.N >= 1 {
		return s.Why, []lint.Related{{Range: surgeAt(w), Message: w.Kind + " " + w.Name + ": " + s.Why}}
	}
	return "", nil
}

// pinField names the field that pins the pods, for messages, with its path in the pod
// spec (nil for a node affinity, whose match expression is the pin node itself).
func pinField(src *graph.Resource, pin *graph.Node) (string, []string) {
	spec := graph.PodSpec(src)
	switch pin {
	case spec.Get("nodeName"):
		return "nodeName", []string{"nodeName"}
	case spec.Get("nodeSelector", graph.HostnameLabel):
		return "nodeSelector " + graph.HostnameLabel, []string{"nodeSelector", graph.HostnameLabel}
	}
	return "required node affinity on " + graph.HostnameLabel, nil
}

// pinAt is where PVL019 reports: the workload's pinning field (the key of nodeName or
// of the nodeSelector entry, the affinity's match expression), or the Rollout's
// workloadRef when the pin is in the referenced Deployment.
func pinAt(w, src *graph.Resource, pin *graph.Node) graph.Range {
	if src != w {
		return w.Locate("spec", "workloadRef")
	}
	if _, path := pinField(src, pin); path != nil {
		return w.Locate(append(graph.PodSpecPath(w.Kind), path...)...)
	}
	if pin != nil && pin.Range.IsValid() {
		return pin.Range
	}
	return w.Locate(graph.PodSpecPath(w.Kind)...)
}
