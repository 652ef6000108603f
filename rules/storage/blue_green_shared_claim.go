package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// BlueGreenSharedClaim (PVL012) reports Argo Rollouts with a blue-green strategy whose
// pods mount a shared single-writer claim: the preview ReplicaSet starts next to the
// active one and both run until the switch, and the old one stays 30 seconds longer
// by default, so two versions want one ReadWriteOnce or ReadWriteOncePod volume. The
// pod template of a Rollout that uses workloadRef is its Deployment's.
var BlueGreenSharedClaim = &lint.Rule{
	ID:       "PVL012",
	Name:     "blue-green-shared-claim",
	Severity: lint.Error,
	Summary:  "a blue-green Rollout runs two versions on one single-writer claim",
	Description: "An Argo Rollout with strategy.blueGreen (its own pod template, or a Deployment's through " +
		"workloadRef) mounts a shared ReadWriteOnce or ReadWriteOncePod claim. Blue-green starts the preview " +
		"ReplicaSet while the active one runs and keeps the old one for scaleDownDelaySeconds (30 by " +
		"default) after the switch. With ReadWriteOncePod the preview pods stay Pending, so the preview " +
		"never becomes ready; with ReadWriteOnce on attachable storage preview pods on another node fail to " +
		"attach the volume (Multi-Attach error); on the same node, or on storage that does not attach, both " +
		"versions write to it at once.",
	Remediation: "Give each pod its own storage (a StatefulSet with volumeClaimTemplates, or an ephemeral " +
		"volume for scratch data), use a ReadWriteMany class if both versions may write, or use a canary " +
		"strategy with maxSurge: 0 and a ReadWriteOncePod claim (with ReadWriteOnce the new pod still starts " +
		"while the old one terminates: PVL022).",
	Tags:  []string{"multi-attach", "rollout", "argo-rollouts"},
	Kinds: []string{"Rollout"},
	Check: checkBlueGreenSharedClaim,
}

func checkBlueGreenSharedClaim(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.ByKind("Rollout") {
		bg := w.Get("spec", "strategy", "blueGreen")
		if bg == nil || !bg.Is(graph.Map) {
			continue
		}
		c := g.ConcurrencyOf(w)
		if !c.Known || c.N == 0 {
			continue
		}
		at := w.Locate("spec", "strategy", "blueGreen")
		var ref []lint.Related
		if d := g.WorkloadRef(w); d != nil {
			ref = append(ref, lint.Related{Range: w.Locate("spec", "workloadRef"), Message: "Rollout " + w.Name + " takes its pod template from " + d.Kind + " " + d.Name})
		}
		// One finding per consequence: the claims whose sharing between the blue and
		// green pods has the same effect are one hazard, named together.
		var hazards []*hazard
		for _, m := range sharedClaims(g, w) {
			if !m.Claim.Known() {
				continue
			}
			modes := g.AccessModes(m.Claim)
			if !modes.SingleWriter() {
				continue
			}
			hazardOf(&hazards, g, w, m, lint.SeverityNone, blueGreenConsequence(modes, g.BackendOf(m.Claim).Class, unknownBackend(g, m.Claim)))
		}
		for _, h := range hazards {
			msg := workload(w, "blueGreen, "+c.Why) + " mounts " + h.claims() + ": " + h.explains()
			path := pathTo(w.Object, h.first.Volume)
			if path == nil { // the volume is the workloadRef Deployment's
				path = []string{"spec", "workloadRef", h.first.VolumeName}
			}
			related := append(append(append([]lint.Related{}, ref...), h.volumes...), h.links...)
			p.ReportPath(w, at, path, h.sev, msg, related...)
		}
	}
}

func blueGreenConsequence(m graph.Modes, b graph.BackendClass, unknown string) string {
	switch {
	case m.HasRWOP():
		return "the preview pods stay Pending while the active ones hold the claim, so the preview never becomes ready"
	case b == graph.Attachable:
		return "preview pods on another node than the active ones fail to attach it (Multi-Attach error), on the same node both versions write to it"
	case b == graph.NonAttachable:
		return "the preview and active versions write to it at the same time"
	}
	return unknown + ": preview pods either fail to attach it or write to it alongside the active version"
}
