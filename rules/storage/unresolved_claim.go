package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
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
			what := "PVC " + m.Claim.Name + ", which is not in the linted set (--context PATH with the cluster's claims would give it)"
			if m.Claim.Name == "" {
				what = "a PVC whose name is not known statically"
			}
			msg := workload(w, why) + " mounts " + what + ": its access modes cannot be checked"
			links := related
			if elsewhere := claimsElsewhere(g, m.Claim.Name, w.Namespace); len(elsewhere) > 0 && !w.Get("metadata", "namespace").IsUnknown() {
				// The claim exists, in the wrong namespace: that is the problem to name.
				var nss []string
				links = append([]lint.Related(nil), related...)
				for _, c := range elsewhere {
					nss = append(nss, c.Namespace)
					links = append(links, lint.Related{Range: c.Range, Message: "PVC " + c.Name + " in namespace " + c.Namespace})
				}
				msg = workload(w, why) + " mounts PVC " + m.Claim.Name + ", which is not in its namespace " + w.Namespace +
					" but in namespace " + strings.Join(nss, ", ") + ": a pod can only mount a claim of its own namespace, so the pod stays Pending"
			}
			p.Report(w, volumeAt(w, m), lint.SeverityNone, msg, links...)
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

// claimsElsewhere returns the claims of a name defined in namespaces other than ns.
func claimsElsewhere(g *graph.Graph, name, ns string) []*graph.Resource {
	if name == "" {
		return nil
	}
	var out []*graph.Resource
	for _, c := range g.ByKind("PersistentVolumeClaim") {
		if c.Name == name && c.Namespace != ns {
			out = append(out, c)
		}
	}
	return out
}
