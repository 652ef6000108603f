package storage

import (
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// Node taints that mark a failed node (k8s.io/api core/v1
// well_known_taints.go; docs/storage-facts.md#f6). The node lifecycle controller
// evicts pods that do not tolerate them; the out-of-service taint is what an operator
// sets to force-detach volumes of a shut-down node.
const (
	taintUnreachable  = "node.kubernetes.io/unreachable"
	taintNotReady     = "node.kubernetes.io/not-ready"
	taintOutOfService = "node.kubernetes.io/out-of-service"
)

// UnevictableSingleWriter (PVL017) reports workloads that tolerate a failed node
// forever while they hold a single-writer volume on attachable storage: the pod is
// never evicted from a dead node, so its volume stays attached there and no
// replacement can take it over. DaemonSets get such tolerations implicitly and are not
// reported (docs/rules.md#decision-7).
var UnevictableSingleWriter = &lint.Rule{
	ID:       "PVL017",
	Name:     "unevictable-single-writer",
	Severity: lint.Warning,
	Summary:  "a pod holding an attachable single-writer volume is never evicted from a failed node",
	Description: "A workload's pod template tolerates node.kubernetes.io/unreachable or node.kubernetes.io/not-ready " +
		"with effect NoExecute (or any effect) and no tolerationSeconds, or tolerates every taint (operator Exists " +
		"without a key), and mounts a ReadWriteOnce or ReadWriteOncePod claim on attachable storage (EBS, " +
		"Persistent Disk, Azure Disk, Ceph RBD, Longhorn...). When its node fails, the pod is never evicted " +
		"(other pods go after 300 s), so the volume stays attached to the dead node and no replacement pod can " +
		"start until an operator steps in. A key-less Exists toleration also tolerates the " +
		"node.kubernetes.io/out-of-service taint, which then cannot free the volume either.",
	Remediation: "Remove the toleration, or bound it with tolerationSeconds (the default is 300); keep the " +
		"node-failure runbook (`pvlint explain PVL017`) and the VolumeAttachedToNotReadyNode alert " +
		"(`pvlint alerts`) for the failures that remain.",
	Tags:  []string{"availability", "node-failure", "multi-attach"},
	Kinds: []string{"Pod", "Deployment", "ReplicaSet", "ReplicationController", "StatefulSet", "Job", "CronJob", "Rollout"},
	Check: checkUnevictableSingleWriter,
}

func checkUnevictableSingleWriter(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if !graph.IsWorkload(w.Kind) || w.Kind == "DaemonSet" {
			continue
		}
		if c := g.ConcurrencyOf(w); c.Known && c.N == 0 {
			continue // no pods: replicas 0 or suspended
		}
		held := attachedWriters(g, w)
		if len(held) == 0 {
			continue
		}
		src := w
		if ref := g.WorkloadRef(w); ref != nil {
			src = ref
		}
		base := graph.PodSpecPath(src.Kind)
		for i, t := range graph.PodSpec(src).Get("tolerations").List() {
			what, keyless := foreverToleration(t)
			if what == "" {
				continue
			}
			var chains []string
			for _, m := range held {
				chains = append(chains, mountChain(g, m))
			}
			msg := w.Kind + " " + w.Name + " tolerates " + what + " and mounts " + strings.Join(chains, " and ") +
				": when its node fails the pod is never evicted, so the volume stays attached to the dead node and no replacement can start"
			if keyless {
				msg += "; tolerating every taint, it also ignores " + taintOutOfService + ", so only deleting the pod by force frees the volume"
			}
			at, path := t.Range, append(append(base[:len(base):len(base)], "tolerations"), strconv.Itoa(i))
			if src != w {
				at = w.Locate("spec", "workloadRef")
			}
			var related []lint.Related
			for _, m := range held {
				related = append(related, lint.Related{Range: volumeAt(w, m), Message: "volume " + m.VolumeName + " mounts " + claimWord(m) + " " + m.Claim.Name})
				related = append(related, claimLinks(g, m.Claim)...)
			}
			p.ReportPath(w, at, path, lint.SeverityNone, msg, related...)
		}
	}
}

// attachedWriters are the mounts of w that pin a single-writer volume to one node: a
// shared claim or a StatefulSet claim template, known, with only RWO/RWOP modes, on
// attachable storage. Generic ephemeral volumes are left out: a replacement pod gets a
// volume of its own.
func attachedWriters(g *graph.Graph, w *graph.Resource) []*graph.Mount {
	var out []*graph.Mount
	seen := map[string]bool{}
	for _, m := range g.Mounts(w) {
		if !m.Claim.Known() || m.Volume.Get("ephemeral") != nil || seen[m.Claim.Name] {
			continue
		}
		if !g.AccessModes(m.Claim).SingleWriter() || g.BackendOf(m.Claim).Class != graph.Attachable {
			continue
		}
		seen[m.Claim.Name] = true
		out = append(out, m)
	}
	return out
}

// foreverToleration says what a toleration tolerates forever when it keeps a pod on a
// failed node: the unreachable or not-ready taint, or every taint, with effect
// NoExecute or any effect, and no tolerationSeconds. "" when it does not (a bound,
// another key, NoSchedule only, or a value pvlint cannot know).
func foreverToleration(t *graph.Node) (what string, keyless bool) {
	key, op, effect, secs := t.Get("key"), t.Get("operator"), t.Get("effect"), t.Get("tolerationSeconds")
	if key.IsUnknown() || op.IsUnknown() || effect.IsUnknown() || secs.IsUnknown() {
		return "", false
	}
	if secs != nil && !secs.IsNull() {
		return "", false
	}
	if e := effect.Str(); e != "" && e != "NoExecute" {
		return "", false
	}
	switch k := key.Str(); {
	case k == "" && op.Str() == "Exists":
		return "every taint (operator Exists without a key) with no tolerationSeconds", true
	case k == taintUnreachable || k == taintNotReady:
		return k + " with no tolerationSeconds", false
	}
	return "", false
}

// mountChain names a mounted claim and what backs it: "PVC data (ReadWriteOnce, class
// gp3 → ebs.csi.aws.com)", or "claim template data (...)" for a StatefulSet's.
func mountChain(g *graph.Graph, m *graph.Mount) string {
	chain := claimChain(g, m.Claim)
	if m.Claim.PerPod {
		return "claim template" + strings.TrimPrefix(chain, "PVC")
	}
	return chain
}

func claimWord(m *graph.Mount) string {
	if m.Claim.PerPod {
		return "claim template"
	}
	return "PVC"
}
