package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// WFFCNodeName (PVL011) reports pod templates that set nodeName and mount a claim
// whose class binds WaitForFirstConsumer: nodeName bypasses the scheduler, and the
// scheduler is what tells a WaitForFirstConsumer claim where to provision, so the
// claim stays Pending and the pod never starts. Claims pre-bound with volumeName are
// already bound and do not fire; claims whose class is not in the linted set cannot
// be judged.
var WFFCNodeName = &lint.Rule{
	ID:       "PVL011",
	Name:     "wffc-node-name",
	Severity: lint.Error,
	Summary:  "nodeName bypasses the scheduler a WaitForFirstConsumer claim waits for",
	Description: "A pod template sets spec.nodeName and mounts a claim (shared, per-replica or " +
		"ephemeral) whose StorageClass has volumeBindingMode: WaitForFirstConsumer and that is not " +
		"pre-bound to a volume. Such a claim is provisioned only once the scheduler has picked a node for " +
		"its first pod; a pod with nodeName is never scheduled, it goes straight to the kubelet. The claim " +
		"stays Pending and the pod waits for its volume forever.",
	Remediation: "Replace nodeName with nodeSelector: {kubernetes.io/hostname: NODE} (or a required node " +
		"affinity), so the scheduler places the pod and the claim is provisioned for that node.",
	Tags:  []string{"scheduling", "binding"},
	Kinds: []string{"Pod", "Deployment", "ReplicaSet", "ReplicationController", "StatefulSet", "DaemonSet", "Job", "CronJob", "Rollout"},
	Check: checkWFFCNodeName,
}

func checkWFFCNodeName(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if !graph.IsWorkload(w.Kind) {
			continue
		}
		nn := graph.PodSpec(w).Get("nodeName")
		if nn == nil || nn.IsNull() || !nn.IsUnknown() && nn.Str() == "" {
			continue
		}
		nodePath := append(graph.PodSpecPath(w.Kind), "nodeName")
		host := nn.Str()
		if nn.IsUnknown() {
			host = "(computed)"
		}
		// One finding per pod template: every claim left unprovisioned by its
		// nodeName is named in it (one remedy: drop nodeName).
		seen := map[*graph.Node]bool{}
		var (
			parts   []string
			related []lint.Related
			path    []string
		)
		for _, m := range g.Mounts(w) {
			c := m.Claim
			if !c.Known() || seen[c.Object] {
				continue
			}
			seen[c.Object] = true
			if vn := c.Spec().Get("volumeName"); vn != nil && !vn.IsNull() {
				continue
			}
			ref := g.ClassOf(c)
			if ref.Class == nil {
				continue
			}
			bm := ref.Class.Get("volumeBindingMode")
			if bm.Str() != "WaitForFirstConsumer" {
				continue
			}
			parts = append(parts, mountLabel(m)+" ("+backendChain(g, c)+", volumeBindingMode WaitForFirstConsumer)")
			related = append(related,
				lint.Related{Range: volumeAt(w, m), Message: "volume " + m.VolumeName + " mounts " + mountLabel(m)},
				lint.Related{Range: bm.Range, Message: "StorageClass " + ref.Name + ": volumeBindingMode WaitForFirstConsumer"})
			if path == nil {
				if path = pathTo(w.Object, m.Volume); path == nil {
					path = nodePath
				}
			}
		}
		if len(parts) == 0 {
			continue
		}
		consequence := "the pod bypasses the scheduler, so the claim is never provisioned and stays Pending"
		if len(parts) > 1 {
			consequence = "the pod bypasses the scheduler, so the claims are never provisioned and stay Pending"
		}
		msg := w.Kind + " " + w.Name + " sets nodeName " + host + " and mounts " + strings.Join(parts, " and ") + ": " + consequence
		p.ReportPath(w, nn.Range, path, lint.SeverityNone, msg, related...)
	}
}

// mountLabel names the claim a mount refers to: "PVC data", "volumeClaimTemplate data",
// "ephemeral volume scratch".
func mountLabel(m *graph.Mount) string {
	switch {
	case !m.Claim.PerPod:
		return "PVC " + m.Claim.Name
	case m.Workload.Kind == "StatefulSet" && (m.Volume == m.Claim.Object || m.Shadowed):
		return "volumeClaimTemplate " + m.Claim.Name
	}
	return "ephemeral volume " + m.Claim.Name
}
