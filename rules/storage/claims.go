package storage

import (
	"sort"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// consumer is one workload that mounts a claim through a shared volume.
type consumer struct {
	W     *graph.Resource
	Mount *graph.Mount
	C     graph.Concurrency
}

// consumersOf returns the distinct workloads that mount a claim resource through a
// shared volume: long-running workloads first, then Jobs and CronJobs, each in input
// order (Helm renders CronJobs before Deployments, but "the app and its backup" reads
// better). A workload defined twice under one identity (two files linted together) is
// one consumer, as it is one object in a cluster, and two volumes of one workload
// naming the claim are one mount.
func consumersOf(g *graph.Graph, claim *graph.Resource) []consumer {
	var out []consumer
	seen := map[graph.Key]bool{}
	for _, m := range g.Consumers(claim) {
		w := m.Workload
		k := graph.Key{Kind: w.Kind, Namespace: w.Namespace, Name: w.Name}
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, consumer{W: w, Mount: m, C: g.ConcurrencyOf(w)})
	}
	sort.SliceStable(out, func(i, j int) bool { return !isBatch(out[i].W.Kind) && isBatch(out[j].W.Kind) })
	return out
}

func isBatch(kind string) bool { return kind == "Job" || kind == "CronJob" }

// running keeps the consumers that run at least one pod: C(w) is known and not zero,
// so replicas: 0 and suspend: true never count as a second user of a claim.
func running(cs []consumer) []consumer {
	var out []consumer
	for _, c := range cs {
		if c.C.Known && (c.C.Many || c.C.N >= 1) {
			out = append(out, c)
		}
	}
	return out
}

// names renders consumers for messages: "Deployment app (replicas 1) and CronJob
// backup (concurrencyPolicy Forbid)".
func names(cs []consumer) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = workload(c.W, c.C.Why)
	}
	if len(parts) <= 2 {
		return strings.Join(parts, " and ")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// consumerLinks are the related locations of a claim-centred finding's consumers:
// each one's volume, and for a consumer that runs several pods the field that says so.
func consumerLinks(cs []consumer, withConcurrency bool) []lint.Related {
	var out []lint.Related
	for _, c := range cs {
		out = append(out, lint.Related{
			Range:   volumeAt(c.W, c.Mount),
			Message: workload(c.W, c.C.Why) + " mounts it as volume " + c.Mount.VolumeName,
		})
		if withConcurrency && c.C.Multi() {
			out = append(out, concurrencyLinks(c.W, c.C)...)
		}
	}
	return out
}

// site is where a claim is defined: a PersistentVolumeClaim, or a per-pod claim
// template inside a workload (StatefulSet volumeClaimTemplates, generic ephemeral
// volumes). Claim-centred rules report on the site.
type site struct {
	// Owner is the PersistentVolumeClaim, or the workload holding the template.
	Owner *graph.Resource
	Claim *graph.Claim
	// Path is the template's field path within Owner; nil for a PersistentVolumeClaim.
	Path []string
	// Mount is the template's mount; nil for a PersistentVolumeClaim.
	Mount *graph.Mount
	// Op is the operator claim when Owner is a custom resource an operator turns into
	// per-pod claims (graph.OperatorSet); its fields map to the resource's.
	Op *graph.OperatorClaim
}

// sites lists every claim definition of the graph: the PersistentVolumeClaims in
// input order, then each workload's claim templates.
func sites(g *graph.Graph) []site {
	var out []site
	for _, r := range g.ByKind("PersistentVolumeClaim") {
		out = append(out, site{Owner: r, Claim: claimOf(r)})
	}
	for _, w := range g.Resources {
		if !graph.IsWorkload(w.Kind) {
			continue
		}
		for _, m := range g.Mounts(w) {
			if !m.Claim.PerPod {
				continue
			}
			// An Argo Rollout's workloadRef mounts the Deployment's templates, which
			// are the Deployment's to report.
			if p := pathTo(w.Object, m.Claim.Object); p != nil {
				out = append(out, site{Owner: w, Claim: m.Claim, Path: p, Mount: m})
			}
		}
	}
	return out
}

// field returns the range and field path (within Owner) of a field of the claim
// object, or of its nearest existing parent when the field is missing.
func (s site) field(path ...string) (graph.Range, []string) {
	full := s.fieldPath(path...)
	return s.Owner.Locate(full...), full
}

// fieldPath is the path within Owner of a field of the claim object: for an operator
// claim, the resource's field that sets it.
func (s site) fieldPath(path ...string) []string {
	if s.Op != nil {
		return s.Op.Path(path...)
	}
	return append(append([]string{}, s.Path...), path...)
}

// allSites is sites followed by the claims operators create from custom resources
// (graph.OperatorSets), for the rules about a claim's own modes and backend.
func allSites(g *graph.Graph) []site {
	out := sites(g)
	for _, set := range g.OperatorSets() {
		for _, c := range set.Claims {
			out = append(out, site{Owner: set.Resource, Claim: c.Claim, Op: c})
		}
	}
	return out
}

// label names the claim in messages: "PVC data", or "volumeClaimTemplate data of
// StatefulSet db".
func (s site) label() string {
	switch {
	case s.Op != nil:
		return s.Op.Label()
	case s.Mount == nil:
		return "PVC " + s.Claim.Name
	case s.Owner.Kind == "StatefulSet" && s.Mount.Volume == s.Claim.Object || s.Mount.Shadowed:
		return "volumeClaimTemplate " + s.Claim.Name + " of " + s.Owner.Kind + " " + s.Owner.Name
	}
	return "ephemeral volume " + s.Claim.Name + " of " + s.Owner.Kind + " " + s.Owner.Name
}

// chain renders the claim with its modes and backend, as claimChain does for a PVC.
func (s site) chain(g *graph.Graph) string {
	return s.label() + strings.TrimPrefix(claimChain(g, s.Claim), "PVC "+s.Claim.Name)
}

// pathTo returns the field path from root to the node target (list indexes as
// decimal strings), or nil when target is not inside root.
func pathTo(root, target *graph.Node) []string {
	if root == nil || target == nil {
		return nil
	}
	if root == target {
		return []string{}
	}
	for _, f := range root.Fields() {
		if p := pathTo(f.Value, target); p != nil {
			return append([]string{f.Key}, p...)
		}
	}
	for i, it := range root.Items() {
		if p := pathTo(it, target); p != nil {
			return append([]string{strconv.Itoa(i)}, p...)
		}
	}
	return nil
}

// exceptAt drops related locations at the finding's own range: a claim-centred
// finding is reported at the claim's accessModes, which claimLinks also lists.
func exceptAt(links []lint.Related, at graph.Range) []lint.Related {
	out := links[:0:0]
	for _, l := range links {
		if l.Range != at {
			out = append(out, l)
		}
	}
	return out
}

// claimOf is the claim a PersistentVolumeClaim resource defines.
func claimOf(r *graph.Resource) *graph.Claim {
	return &graph.Claim{Name: r.Name, Namespace: r.Namespace, Resource: r, Object: r.Object}
}

// reportOnClaim reports a claim-centred finding on the claim (docs/rules.md#decision-8)
// or, when the claim is cluster context (a snapshot's: the repository cannot edit
// it, and findings on it are not reported), on the volume of the first consumer the
// repository does define, with the claim as a related location. A hazard only
// context workloads cause is not reported at all.
func reportOnClaim(p *lint.Pass, claim *graph.Resource, at graph.Range, path []string, cs []consumer, msg string, related []lint.Related) {
	if !claim.IsContext() {
		p.ReportPath(claim, at, path, lint.SeverityNone, msg, related...)
		return
	}
	for _, c := range cs {
		if c.W.IsContext() {
			continue
		}
		related = append(related, lint.Related{Range: at, Message: "PVC " + claim.Name + ": accessModes " +
			strings.Join(claim.Get("spec", "accessModes").Strings(), ", ")})
		p.ReportPath(c.W, volumeAt(c.W, c.Mount), volumePath(c.W, c.Mount), lint.SeverityNone, msg, exceptAt(related, volumeAt(c.W, c.Mount))...)
		return
	}
}
