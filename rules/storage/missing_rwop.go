package storage

import (
	"fmt"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// MissingRWOP (PVL005) suggests ReadWriteOncePod for a ReadWriteOnce claim that one
// pod at a time is meant to write: ReadWriteOnce still lets several pods on one node
// mount it, ReadWriteOncePod makes the scheduler enforce a single pod. It is advice
// (a note), given only where following it is safe: a CSI backend, exactly one
// consumer that never runs two pods, not even during a rollout (RWOP under a surging
// rollout is PVL003's deadlock), and a target version where RWOP is GA.
var MissingRWOP = &lint.Rule{
	ID:       "PVL005",
	Name:     "missing-rwop",
	Severity: lint.Note,
	Summary:  "a single-writer claim could enforce it with ReadWriteOncePod",
	Description: "A PersistentVolumeClaim whose only access mode is ReadWriteOnce, on a CSI driver, is " +
		"mounted by exactly one workload that runs one pod and never surges a second one (strategy Recreate, " +
		"a StatefulSet's per-replica claim, or maxSurge 0, whose replacement pod still starts while the old one " +
		"terminates: there ReadWriteOncePod is what makes the rollout safe). ReadWriteOnce restricts the " +
		"volume to one node, not one pod: a second pod on the same node (a manual run, a copy of the " +
		"manifest, a replacement started while the old pod terminates) mounts it read-write too. " +
		"ReadWriteOncePod makes the scheduler refuse any second pod, as the Kubernetes documentation " +
		"recommends for production. Reported only when the target version is at least 1.29, where " +
		"ReadWriteOncePod is GA.",
	Remediation: "Use accessModes: [ReadWriteOncePod]. Access modes are immutable: create a new claim " +
		"(or restore a snapshot into one) and move the data, or recreate the StatefulSet's claims. The CSI " +
		"sidecars must be at least csi-provisioner 3.0.0, csi-attacher 3.3.0 and csi-resizer 1.3.0.",
	Tags:  []string{"access-modes", "rwop"},
	Kinds: []string{"PersistentVolumeClaim", "StatefulSet"},
	Check: checkMissingRWOP,
	Options: []lint.Option{{
		Name:    "min-version",
		Default: rwopGA.String(),
		Usage:   "the oldest target version advised to use ReadWriteOncePod: 1.29 (GA) or down to 1.27 (beta, on by default)",
		Check:   checkMinVersion,
	}},
}

// ReadWriteOncePod's GA and beta versions (Kubernetes blog: RWOP GA in 1.29, beta in
// 1.27; docs/storage-facts.md#f2). PVL005 advises it from GA on, or from beta when the
// min-version option says so; never for alpha versions, where it needs a feature gate
// (PVL007).
var (
	rwopGA   = lint.Version{Major: 1, Minor: 29}
	rwopBeta = lint.Version{Major: 1, Minor: 27}
)

func checkMinVersion(v string) error {
	min, err := lint.ParseVersion(v)
	if err != nil {
		return err
	}
	if min.Less(rwopBeta) {
		return fmt.Errorf("min-version %s is before 1.27: ReadWriteOncePod needs a feature gate there", min)
	}
	return nil
}

func checkMissingRWOP(p *lint.Pass) {
	min, err := lint.ParseVersion(p.Option("min-version"))
	if err != nil {
		p.Fail(fmt.Errorf("min-version: %w", err))
		return
	}
	if p.Target.Less(min) {
		return
	}
	g := p.Graph
	var byOrdinal ordinalMounts // built on first use
	for _, s := range sites(g) {
		modes := g.AccessModes(s.Claim)
		if len(modes.Claim) != 1 || modes.Claim[0] != graph.RWO || !modes.OnlyRWO() {
			continue
		}
		b := g.BackendOf(s.Claim)
		if b.Provisioner == "" || !b.Row.CSI {
			continue
		}
		at, path := s.field("spec", "accessModes")
		backend := exceptAt(claimLinks(g, s.Claim), at)
		switch {
		case s.Mount == nil:
			if preboundToRWO(g, s.Owner) {
				// The claim would never bind to a ReadWriteOnce-only PV: the PV has to
				// change first, which is not a one-line edit to advise (or to fix).
				continue
			}
			cs := consumersOf(g, s.Owner)
			if len(cs) != 1 {
				continue
			}
			c := cs[0]
			why, ok := singlePod(g, c)
			if !ok {
				continue
			}
			msg := s.chain(g) + " is mounted by one pod at a time, of " + workload(c.W, why) +
				": ReadWriteOncePod would make the scheduler refuse a second pod, which ReadWriteOnce allows on the same node"
			if rollsWithoutSurge(g, c.W) {
				// maxSurge 0 is not one pod at a time: the replacement starts while the old
				// pod terminates (PVL022). ReadWriteOncePod is what makes it safe.
				msg = s.chain(g) + " is mounted by one pod, of " + workload(c.W, why) +
					", whose replacement starts while the old pod terminates: ReadWriteOncePod would make the scheduler hold it Pending until the old pod is gone, which ReadWriteOnce does not"
			}
			p.ReportFix(rwopFix(s.Owner.Get(path...)), s.Owner, at, path, lint.SeverityNone, msg, append(consumerLinks(cs, false), backend...)...)
		case s.Owner.Kind == "StatefulSet" && s.Mount.Volume == s.Claim.Object || s.Mount.Shadowed:
			if byOrdinal == nil {
				byOrdinal = indexOrdinalMounts(g)
			}
			if byOrdinal.mounted(s.Owner, s.Claim.Name) {
				continue
			}
			msg := s.chain(g) + " gives each replica a claim of its own: ReadWriteOncePod would make the scheduler refuse a second pod, which ReadWriteOnce allows on the same node"
			p.ReportFix(rwopFix(s.Owner.Get(path...)), s.Owner, at, path, lint.SeverityNone, msg, backend...)
		}
	}
}

// singlePod reports whether a consumer runs exactly one pod and starts no second one
// during an update, with the phrase that says why.
func singlePod(g *graph.Graph, c consumer) (string, bool) {
	if !c.C.Known || c.C.Many || c.C.N != 1 {
		return "", false
	}
	switch c.W.Kind {
	case "Deployment":
		s := g.SurgeOf(c.W)
		if !s.Known || s.N != 0 {
			return "", false
		}
		return c.C.Why + ", " + s.Why, true
	case "Rollout":
		// Blue-green runs the preview beside the active pods (PVL012); a canary must
		// not surge.
		if c.W.Get("spec", "strategy", "blueGreen") != nil {
			return "", false
		}
		s := g.SurgeOf(c.W)
		if !s.Known || s.N != 0 {
			return "", false
		}
		return c.C.Why + ", " + s.Why, true
	case "DaemonSet":
		// A DaemonSet pinned to one node; an update may surge when maxSurge is set.
		ms := c.W.Get("spec", "updateStrategy", "rollingUpdate", "maxSurge")
		if v := strings.TrimSuffix(ms.Str(), "%"); ms != nil && v != "0" {
			return "", false
		}
	}
	return c.C.Why, true
}

// ordinalMounts holds the claims that workloads mount by claimName whose names end in
// -<ordinal>, keyed by namespace and the name without that suffix: the claims a
// StatefulSet's template creates are <template>-<statefulset>-<ordinal>, so a backup
// Job reading data-db-0 is a second consumer that ReadWriteOncePod would lock out.
// One pass over the graph builds it, so each claim template costs a lookup rather than
// a scan of every workload.
type ordinalMounts map[[2]string]bool

func indexOrdinalMounts(g *graph.Graph) ordinalMounts {
	idx := ordinalMounts{}
	for _, w := range g.Resources {
		if !graph.IsWorkload(w.Kind) {
			continue
		}
		for _, m := range g.Mounts(w) {
			if !m.Shared() {
				continue
			}
			if prefix, ok := ordinalPrefix(m.Claim.Name); ok {
				idx[[2]string{w.Namespace, prefix}] = true
			}
		}
	}
	return idx
}

// ordinalPrefix splits "data-db-0" into "data-db": the name before a final "-" and
// one or more ASCII digits.
func ordinalPrefix(name string) (string, bool) {
	i := len(name)
	for i > 0 && name[i-1] >= '0' && name[i-1] <= '9' {
		i--
	}
	if i == len(name) || i == 0 || name[i-1] != '-' {
		return "", false
	}
	return name[:i-1], true
}

// mounted reports whether a workload in the StatefulSet's namespace mounts, by
// claimName, one of the claims its template creates.
func (idx ordinalMounts) mounted(sts *graph.Resource, template string) bool {
	return idx[[2]string{sts.Namespace, template + "-" + sts.Name}]
}

// rwopFix replaces ReadWriteOnce with ReadWriteOncePod in a claim's accessModes. It is
// unsafe: access modes are immutable, so applying it to a claim that exists means a
// new claim and a data migration (or recreated StatefulSet claims).
func rwopFix(modes *graph.Node) *lint.Fix {
	var edits []lint.Edit
	for _, it := range modes.List() {
		if it.Str() == string(graph.RWO) && it.Is(graph.String) {
			edits = append(edits, lint.Set(it, lint.String(string(graph.RWOP))))
		}
	}
	return &lint.Fix{Description: "Replace ReadWriteOnce with ReadWriteOncePod in accessModes (unsafe: access modes are immutable, so an existing claim must be recreated and its data moved)",
		Unsafe: true, Edits: edits}
}

// preboundToRWO reports whether a claim is pre-bound to a PersistentVolume, by its
// volumeName or by a PV's claimRef, whose access modes do not offer ReadWriteOncePod
// (or are unknown: the PV is not in the linted set). Binding requires the PV to offer
// every mode the claim asks for, so a claim changed to ReadWriteOncePod would stay
// Pending.
func preboundToRWO(g *graph.Graph, claim *graph.Resource) bool {
	offers := func(pv *graph.Resource) bool {
		return slices.Contains(pv.Get("spec", "accessModes").Strings(), string(graph.RWOP))
	}
	if name := claim.Get("spec", "volumeName").Str(); name != "" {
		pv := g.LookupNear("PersistentVolume", "", name, claim.Range.File)
		return pv == nil || !offers(pv)
	}
	for _, pv := range g.ByKind("PersistentVolume") {
		ref := pv.Get("spec", "claimRef")
		if ref.Get("name").Str() != claim.Name {
			continue
		}
		if ns := ref.Get("namespace").Str(); ns != "" && ns != claim.Namespace {
			continue
		}
		if !offers(pv) {
			return true
		}
	}
	return false
}
