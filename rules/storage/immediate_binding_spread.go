package storage

import (
	"strconv"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// ImmediateBindingSpread (PVL025) reports a group of pods that each get their own
// claim and are kept apart by pod anti-affinity or topology spread, when the claims'
// class binds immediately on storage that pins a pod to where its volume is: node-local
// storage (any spread), zonal storage (a spread over zones or regions). The volumes
// are placed before the pods are scheduled, without regard to the spread, so two
// instances' volumes can land on one node or zone: a required spread then leaves a pod
// Pending for ever, a preferred one runs the instances together (cloudnative-pg#3671).
//
// The groups are StatefulSets with claim templates and the pod groups operators
// create from custom resources (graph.OperatorSets). PVL001 reports the class itself;
// this rule reports the workload whose spread the class defeats
// (docs/rules.md#decision-18).
var ImmediateBindingSpread = &lint.Rule{
	ID:       "PVL025",
	Name:     "immediate-binding-spread",
	Severity: lint.Warning,
	Summary:  "per-pod volumes bound immediately defeat the pods' anti-affinity or topology spread",
	Description: "A StatefulSet, or a database or queue an operator runs (a CloudNativePG Cluster, a Prometheus, " +
		"a Strimzi node pool, an ECK nodeSet, a Crunchy PGO instance set), gives each of its pods its own claim and " +
		"keeps the pods apart with pod anti-affinity or topology spread constraints, but the claims' StorageClass " +
		"binds immediately (volumeBindingMode Immediate or unset) on storage a pod must follow: node-local volumes " +
		"(local-path, local PVs, TopoLVM, OpenEBS local) or zonal disks with a spread over zones. Each volume is " +
		"placed when its claim is created, before the scheduler chooses the pod's node, and without regard to the " +
		"spread, so two instances' volumes can land on the same node (or zone). With a required spread the second " +
		"pod can never be scheduled and stays Pending; with a preferred one both instances run on one node and a " +
		"single node failure takes down both (cloudnative-pg#3671).",
	Remediation: "Use a StorageClass with volumeBindingMode: WaitForFirstConsumer for the claims (the field is " +
		"immutable: create a new class and point the resource's class field at it), so each volume is placed " +
		"where the scheduler puts its pod, honouring the spread.",
	Tags:  []string{"scheduling", "storage-class", "operators"},
	Kinds: append([]string{"StatefulSet"}, operatorKindNames...),
	Check: checkImmediateBindingSpread,
}

// operatorKindNames are the custom resource kinds operators turn into pods with claims.
var operatorKindNames = []string{"Cluster", "Prometheus", "PrometheusAgent", "Alertmanager", "ThanosRuler", "Kafka", "KafkaNodePool", "Elasticsearch", "PostgresCluster"}

// podGroup is a group of pods that each have their own claims: a StatefulSet or an
// operator's set.
type podGroup struct {
	owner   *graph.Resource
	label   string // "StatefulSet db", "Cluster pg (CloudNativePG)"
	pods    int
	why     string
	podsAt  *graph.Node
	spread  []graph.Spread
	claims  []groupClaim
	creates *lint.Related // what the operator creates from the resource
	set     *graph.OperatorSet
}

// groupClaim is one per-pod claim of a group, with where the resource sets its class.
type groupClaim struct {
	claim *graph.Claim
	label string   // "spec.storage", "volumeClaimTemplate data"
	class []string // path of the field choosing the class (or where it belongs)
	base  []string // path of the claim's definition
	op    *graph.OperatorClaim
}

// podGroups lists the StatefulSets with claim templates and the operator sets.
func podGroups(g *graph.Graph) []podGroup {
	var out []podGroup
	for _, w := range g.ByKind("StatefulSet") {
		c := g.ConcurrencyOf(w)
		pg := podGroup{owner: w, label: "StatefulSet " + w.Name, pods: c.N, why: c.Why, podsAt: c.Node}
		if !c.Known || c.Many {
			pg.pods = 0
		}
		spec := graph.PodSpec(w)
		pg.spread = graphSpread(spec.Get("affinity"), spec.Get("topologySpreadConstraints"))
		for i, t := range w.Get("spec", "volumeClaimTemplates").List() {
			name := t.Get("metadata", "name").Str()
			base := []string{"spec", "volumeClaimTemplates", strconv.Itoa(i)}
			for _, m := range g.Mounts(w) {
				if m.Claim.PerPod && m.Claim.Object == t {
					pg.claims = append(pg.claims, groupClaim{claim: m.Claim, label: "volumeClaimTemplate " + name,
						class: append(base[:3:3], "spec", "storageClassName"), base: base})
					break
				}
			}
		}
		out = append(out, pg)
	}
	for _, s := range g.OperatorSets() {
		pg := podGroup{owner: s.Resource, label: s.Label(), pods: s.Pods, why: s.PodsWhy, podsAt: s.PodsNode, spread: s.Spread, set: s}
		if !s.Known {
			pg.pods = 0
		}
		at := s.Resource.Locate(s.Path...)
		if len(s.Path) == 0 {
			at = s.Resource.Locate("metadata", "name")
		}
		pg.creates = &lint.Related{Range: at, Message: s.Creates}
		for _, c := range s.Claims {
			pg.claims = append(pg.claims, groupClaim{claim: c.Claim, label: c.Field, class: c.Path("spec", "storageClassName"), base: c.Base, op: c})
		}
		out = append(out, pg)
	}
	return out
}

// graphSpread reads a pod spec's anti-affinity and spread constraints.
func graphSpread(affinity, tsc *graph.Node) []graph.Spread {
	return graph.PodSpread(affinity, tsc)
}

func checkImmediateBindingSpread(p *lint.Pass) {
	g := p.Graph
	for _, pg := range podGroups(g) {
		if pg.pods < 2 || len(pg.spread) == 0 || pg.owner.IsContext() {
			continue
		}
		for _, c := range pg.claims {
			ref := g.ClassOf(c.claim)
			sc := ref.Class
			if sc == nil || c.claim.Spec().Get("volumeName").Str() != "" {
				continue
			}
			mode := sc.Get("volumeBindingMode")
			if mode.IsUnknown() || mode.Str() != "" && mode.Str() != "Immediate" {
				continue
			}
			place := g.PlacementOf(sc)
			var sp *graph.Spread
			for i := range pg.spread {
				s := &pg.spread[i]
				fits := place.Topology == graph.NodeLocal ||
					place.Topology == graph.Zonal && s.Key != graph.HostnameKey && sc.Get("allowedTopologies") == nil
				if fits && (sp == nil || s.Required && !sp.Required) {
					sp = s
				}
			}
			if sp == nil {
				continue
			}
			where, unit := "node-local", "node"
			if place.Topology == graph.Zonal {
				where, unit = "zonal", "zone"
			}
			modeText := "volumeBindingMode Immediate"
			if mode.IsNull() {
				modeText = "volumeBindingMode unset, defaults to Immediate"
			}
			sev, outcome := lint.Warning, "the pods then run together on one "+unit+", so one "+unit+" failure takes down more than one instance"
			if sp.Required {
				sev, outcome = lint.Error, "the spread is required, so a pod whose volume shares a "+unit+" with another's can never be scheduled and stays Pending"
			}
			what := c.label
			if pg.set == nil {
				what = c.label + " of " + pg.label
			}
			who := pg.label + " (" + pg.why + ")"
			if pg.set != nil {
				who = pg.set.LabelWith(pg.why)
			}
			msg := who + " keeps its pods apart with " + sp.Text + ", but " + what + " uses class " + ref.Name +
				classVia(ref) + " (provisioner " + orUnset(sc.Get("provisioner").Str()) + ", " + where + "), which binds immediately (" + modeText +
				"): each pod's volume is placed before the pod is scheduled, without regard to the spread, so two pods' volumes can share a " +
				unit + "; " + outcome
			at := pg.owner.Locate(c.class...)
			related := []lint.Related{{Range: bindingAt(sc), Message: "StorageClass " + sc.Name + ": " + modeText}}
			if sp.Node != nil && sp.Node.Range.IsValid() {
				related = append(related, lint.Related{Range: sp.Node.Range, Message: pg.label + ": " + sp.Text})
			}
			if pg.podsAt != nil && pg.podsAt.Range.IsValid() {
				related = append(related, lint.Related{Range: pg.podsAt.Range, Message: pg.label + ": " + pg.why})
			}
			if pg.creates != nil {
				related = append(related, *pg.creates)
			}
			p.ReportPath(pg.owner, at, c.class, sev, msg, exceptAt(related, at)...)
		}
	}
}

// bindingAt is a class's volumeBindingMode, or its provisioner when the mode is unset.
func bindingAt(sc *graph.Resource) graph.Range {
	if sc.Get("volumeBindingMode") != nil {
		return sc.Locate("volumeBindingMode")
	}
	return sc.Locate("provisioner")
}
