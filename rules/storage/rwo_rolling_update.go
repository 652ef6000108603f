package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// RWORollingUpdate (PVL003) reports Deployments (and canary Argo Rollouts) whose
// rolling update starts a surge pod that needs the single-writer volume the old pod
// still holds. It fires even with one replica: the default RollingUpdate with maxSurge
// 25% rounds up to one extra pod.
//
// Claims whose PV allows multi-attach are intended sharing (docs/rules.md#decision-3),
// and a ReadWriteOnce claim of a consumer pinned to one node is PVL019's
// (docs/rules.md#decision-2). A pinned ReadWriteOncePod claim stays here: the scheduler
// refuses the surge pod on the pinned node as on any other, so the rollout deadlocks all
// the same.
var RWORollingUpdate = &lint.Rule{
	ID:       "PVL003",
	Name:     "rwo-rolling-update",
	Severity: lint.Error,
	Summary:  "a rolling update surges a pod onto a single-writer volume",
	Description: "A Deployment, or an Argo Rollout with a canary strategy, rolls out by starting new pods " +
		"before stopping old ones (RollingUpdate is the default; maxSurge 25% rounds up to at least one pod) " +
		"and mounts a shared ReadWriteOnce or ReadWriteOncePod claim. With ReadWriteOncePod the new pod is " +
		"Unschedulable while the old one runs, and the old one is only removed once the new one is ready: the " +
		"rollout deadlocks. With ReadWriteOnce on attachable storage a new pod on another node cannot attach " +
		"the volume and the rollout stalls until its progress deadline; on the same node, or on storage that " +
		"does not enforce ReadWriteOnce, old and new pods write at the same time. Error for ReadWriteOncePod " +
		"and for ReadWriteOnce on attachable backends, warning otherwise.",
	Remediation: "Set strategy.type: Recreate (with no rollingUpdate block): it is the only Deployment strategy " +
		"that waits until the old pod is gone before starting the new one. maxSurge: 0 removes the rollout stall " +
		"but not the overlap: the new pod still starts while the old one terminates (PVL022). An Argo Rollout has " +
		"no Recreate: give it a ReadWriteOncePod claim and maxSurge: 0. Or move the data into a StatefulSet.",
	Tags:  []string{"multi-attach", "rollout", "access-modes"},
	Kinds: []string{"Deployment", "Rollout"},
	Check: checkRWORollingUpdate,
}

func checkRWORollingUpdate(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if w.Kind != "Deployment" && w.Kind != "Rollout" {
			continue
		}
		pin := pinned(g, w)
		s := g.SurgeOf(w)
		if !s.Known || s.N < 1 {
			continue
		}
		// One finding per workload: its surge is one hazard, whatever number of
		// single-writer claims it reaches, each named with its own consequence.
		var (
			parts   []string
			related []lint.Related
			first   *graph.Mount
		)
		sev := lint.Warning
		for _, m := range sharedClaims(g, w) {
			if !m.Claim.Known() {
				continue
			}
			modes := g.AccessModes(m.Claim)
			if !modes.SingleWriter() || pin && modes.OnlyRWO() {
				continue
			}
			b := g.BackendOf(m.Claim)
			if modes.HasRWOP() || b.Class == graph.Attachable {
				sev = lint.Error
			}
			if first == nil {
				first = m
			}
			parts = append(parts, claimChain(g, m.Claim)+": "+surgeConsequence(modes, b.Class, unknownBackend(g, m.Claim)))
			related = append(append(related, lint.Related{Range: volumeAt(w, m), Message: "volume " + m.VolumeName + " mounts PVC " + m.Claim.Name}), claimLinks(g, m.Claim)...)
		}
		if first == nil {
			continue
		}
		msg := workload(w, s.Why) + " mounts " + strings.Join(parts, "; and ")
		p.ReportFix(recreateFix(w), w, surgeAt(w), volumePath(w, first), sev, msg, related...)
	}
}

// surgeAt is where PVL003 reports (docs/rules.md#decision-8): maxSurge when set, else the
// strategy type, else the nearest existing parent of the strategy.
func surgeAt(w *graph.Resource) graph.Range {
	base := []string{"spec", "strategy", "rollingUpdate"}
	if w.Kind == "Rollout" {
		base = []string{"spec", "strategy", "canary"}
	}
	if n := w.Get(append(base, "maxSurge")...); n != nil {
		return w.Locate(append(base, "maxSurge")...)
	}
	if w.Kind == "Deployment" && w.Get("spec", "strategy", "type") != nil {
		return w.Locate("spec", "strategy", "type")
	}
	return w.Locate(base...)
}

// recreateFix sets a Deployment's strategy to Recreate and drops a rollingUpdate
// block that would no longer apply (the API rejects rollingUpdate with Recreate).
// Argo Rollouts have no Recreate strategy: they get no automatic fix.
func recreateFix(w *graph.Resource) *lint.Fix {
	if w.Kind != "Deployment" {
		return nil
	}
	spec, strategy := w.Get("spec"), w.Get("spec", "strategy")
	what := "Set strategy.type: Recreate"
	var edits []lint.Edit
	switch {
	case strategy == nil:
		edits = lint.Put(spec, "strategy", lint.Map("type", lint.String("Recreate")))
	case strategy.Is(graph.Map):
		if edits = lint.Put(strategy, "type", lint.String("Recreate")); edits != nil && strategy.Field("rollingUpdate") != nil {
			edits = append(edits, lint.Delete(strategy, "rollingUpdate"))
			what += " and drop rollingUpdate, which only RollingUpdate allows"
		}
	}
	return &lint.Fix{Description: what + ", so the old pod releases the volume before the new one starts", Edits: edits}
}

func surgeConsequence(m graph.Modes, b graph.BackendClass, unknown string) string {
	switch {
	case m.HasRWOP():
		return "the new pod is Unschedulable while the old pod holds the volume, and the old pod waits for the new one: the rollout deadlocks"
	case b == graph.Attachable:
		return "a new pod on another node cannot attach it (Multi-Attach error) and the rollout stalls"
	case b == graph.NonAttachable:
		return "old and new pods write to it at the same time during every rollout"
	}
	return unknown + ": during a rollout the new pod either cannot attach it or writes alongside the old one"
}
