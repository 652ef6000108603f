package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// JobOverlap (PVL009) reports CronJobs whose runs may overlap (concurrencyPolicy
// unset, Allow or Replace) and that mount a shared single-writer claim: a run that
// starts while the previous one still holds the volume cannot attach it on another
// node, writes alongside it on the same node, or with ReadWriteOncePod is Pending.
//
// It is the only rule for a CronJob's overlapping runs (docs/rules.md#decision-2); a Job
// with parallelism is PVL002's, and a CronJob sharing a claim with another workload is
// also PVL008's. Suspended CronJobs, Forbid, claims whose PV also lists RWX or ROX
// (docs/rules.md#decision-3), and runs whose activeDeadlineSeconds (plus the pods'
// termination grace) ends them before the schedule's next run (cron_interval.go) do
// not fire.
var JobOverlap = &lint.Rule{
	ID:       "PVL009",
	Name:     "job-overlap",
	Severity: lint.Warning,
	Summary:  "a CronJob's runs can overlap on a single-writer claim",
	Description: "A CronJob with concurrencyPolicy unset (Allow is the default), Allow or Replace mounts a " +
		"shared ReadWriteOnce or ReadWriteOncePod claim. When a run lasts longer than the schedule's " +
		"interval (a slow backup, a stuck upload, a retry), the next run starts while the previous one " +
		"still holds the volume. Replace deletes the running Job first, but its pods keep the volume " +
		"while they terminate. With ReadWriteOnce the new pod fails to attach the volume on another node " +
		"(Multi-Attach error) or writes alongside the old one on the same node; with ReadWriteOncePod it " +
		"stays Pending. Warning for ReadWriteOnce, error for ReadWriteOncePod.",
	Remediation: "Set concurrencyPolicy: Forbid, so a run is skipped while the previous one is active; " +
		"use an ephemeral volume for scratch data instead of a shared claim.",
	Tags:  []string{"multi-attach", "cronjob", "access-modes"},
	Kinds: []string{"CronJob"},
	Check: checkJobOverlap,
}

func checkJobOverlap(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.ByKind("CronJob") {
		c := g.ConcurrencyOf(w)
		if !c.Known || !c.Many {
			continue
		}
		bound, deadline := cronRunBound(w)
		if deadline && bound.endsBeforeNext() {
			continue // every run ends before the next starts
		}
		at := w.Locate("spec", "concurrencyPolicy")
		// One finding per hazard: the claims whose overlap has the same consequence
		// are one finding naming them all (the remedy, Forbid, is one), not one each.
		var hazards []*hazard
		for _, m := range sharedClaims(g, w) {
			if !m.Claim.Known() {
				continue
			}
			modes := g.AccessModes(m.Claim)
			if !modes.SingleWriter() {
				continue
			}
			sev := lint.Warning
			if modes.HasRWOP() {
				sev = lint.Error
			}
			hazardOf(&hazards, g, w, m, sev, overlapConsequence(modes, g.BackendOf(m.Claim).Class, unknownBackend(g, m.Claim)))
		}
		for _, h := range hazards {
			msg := workload(w, c.Why) + " mounts " + h.claims() + ": " + h.explains()
			if w.Get("spec", "concurrencyPolicy").Str() == "Replace" {
				msg += " (Replace deletes the running Job, but its pods hold the volume until they terminate)"
			}
			related := append(h.volumes, h.links...)
			if deadline {
				msg += " (" + bound.text() + ")"
				related = append(related, lint.Related{Range: bound.deadline.Range, Message: bound.text()})
			}
			fix := &lint.Fix{Description: "Set concurrencyPolicy: Forbid, so a run is skipped while the previous one still holds the claim",
				Edits: lint.Put(w.Get("spec"), "concurrencyPolicy", lint.String("Forbid"))}
			p.ReportFix(fix, w, at, volumePath(w, h.first), h.sev, msg, related...)
		}
	}
}

func overlapConsequence(m graph.Modes, b graph.BackendClass, unknown string) string {
	switch {
	case m.HasRWOP():
		return "a run that starts while the previous one still holds the claim stays Pending until that one ends"
	case b == graph.Attachable:
		return "a run that starts before the previous one ends fails to attach it on another node (Multi-Attach error) or writes to it alongside the previous run on the same node"
	case b == graph.NonAttachable:
		return "a run that starts before the previous one ends writes to it at the same time"
	}
	return unknown + ": a run that starts before the previous one ends either cannot attach it or writes to it alongside the previous run"
}
