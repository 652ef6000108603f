// Package storage holds pvlint's native Go rules about claims shared by workloads, one
// file per rule. Each rule reads the graph's derived facts (ConcurrencyOf, SurgeOf,
// AccessModes, BackendOf, ClassOf, Mounts, PinnedHost) rather than raw fields, so
// every input format and every default is interpreted in one place, and names in its
// message the whole chain it reasoned over, with a related location per link.
package storage

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// claimChain renders a claim and what backs it, for messages:
// "PVC data (ReadWriteOnce, class gp3 → ebs.csi.aws.com)".
func claimChain(g *graph.Graph, c *graph.Claim) string {
	modes := g.AccessModes(c).Short()
	if modes == "" {
		modes = "no accessModes"
	}
	from := ""
	if c.Resource.IsContext() {
		from = " from " + c.Resource.Origin.Context
	}
	return "PVC " + c.Name + from + " (" + modes + ", " + backendChain(g, c) + ")"
}

// contextOf names where a context resource of a claim's chain comes from: " (GKE
// default classes)", " (cluster snapshot snap.yaml)"; "" for a linted resource, or
// one from the same place as the claim, which the chain already names.
func contextOf(c *graph.Claim, r *graph.Resource) string {
	if !r.IsContext() || c.Resource != nil && c.Resource.Origin.Context == r.Origin.Context {
		return ""
	}
	return " (" + r.Origin.Context + ")"
}

// backendChain renders how the claim's backend was found: its pre-bound PV, or its
// class and provisioner.
func backendChain(g *graph.Graph, c *graph.Claim) string {
	b := g.BackendOf(c)
	if pv := g.PVOf(c); pv != nil {
		if b.Via == "pv" {
			return "PV " + pv.Name + contextOf(c, pv) + " → " + b.Provisioner
		}
		return "PV " + pv.Name + contextOf(c, pv)
	}
	ref := g.ClassOf(c)
	switch {
	case ref.Class != nil:
		s := "class " + ref.Name + contextOf(c, ref.Class) + " → " + orUnset(b.Provisioner)
		if ref.Via == "default" {
			s = "default " + s
		}
		return s
	case ref.Known && ref.Name == "":
		return `storageClassName ""`
	case ref.Known:
		return "class " + ref.Name + ", not in the linted set"
	case ref.Node != nil:
		return "class not known statically"
	}
	return "default class not in the linted set"
}

// unknownBackend is "the backend is unknown", with the flag that would make it known
// when one would (issue 28): a message that only says what pvlint does not know
// leaves the user to find out what to give it.
func unknownBackend(g *graph.Graph, c *graph.Claim) string {
	return "the backend is unknown" + resolveHint(g, c)
}

// resolveHint names the flag that would resolve a claim's storage, as " (...)", or ""
// when none would (the class name is not known statically, or storageClassName ""
// without a PV): a provisioner the table does not know is declared with
// --provisioner-class; a PV, a class or the default class not in the linted set is
// in the cluster, which --cluster (a platform's default classes) or --context (a
// snapshot of the cluster's objects) describe (docs/clusters.md).
func resolveHint(g *graph.Graph, c *graph.Claim) string {
	b := g.BackendOf(c)
	if b.Provisioner != "" {
		return " (--provisioner-class " + b.Provisioner + "=attachable|file|local would declare it)"
	}
	if pv := c.Spec().Get("volumeName"); pv.Str() != "" && g.PVOf(c) == nil {
		return " (--context PATH with the cluster's PersistentVolumes would give PV " + pv.Str() + ")"
	}
	return classHint(g.ClassOf(c))
}

// classHint is resolveHint for a claim's class alone.
func classHint(ref graph.ClassRef) string {
	switch {
	case ref.Class != nil, ref.Known && ref.Name == "", ref.Node != nil && !ref.Known:
		return ""
	case ref.Known:
		return " (--cluster NAME or --context PATH would give class " + ref.Name + ")"
	}
	return " (--cluster NAME or --context PATH would give the default class)"
}

func orUnset(s string) string {
	if s == "" {
		return "no provisioner"
	}
	return s
}

// claimLinks are the related locations of a claim's chain: the claim's access modes,
// its pre-bound PV, its StorageClass's provisioner and a CSIDriver that decided
// whether the driver attaches.
func claimLinks(g *graph.Graph, c *graph.Claim) []lint.Related {
	var out []lint.Related
	if c.Resource != nil {
		out = append(out, lint.Related{
			Range:   c.Resource.Locate("spec", "accessModes"),
			Message: "PVC " + c.Name + ": accessModes " + strings.Join(g.AccessModes(c).Claim, ", "),
		})
	}
	if pv := g.PVOf(c); pv != nil {
		out = append(out, lint.Related{
			Range:   pv.Locate("spec", "accessModes"),
			Message: "PV " + pv.Name + ": accessModes " + strings.Join(pv.Get("spec", "accessModes").Strings(), ", "),
		})
	}
	b := g.BackendOf(c)
	if ref := g.ClassOf(c); ref.Class != nil && b.Via == "class" && ref.Class.Range.File != "" {
		out = append(out, lint.Related{
			Range:   ref.Class.Locate("provisioner"),
			Message: "StorageClass " + ref.Name + ": provisioner " + orUnset(b.Provisioner) + " (" + b.Class.String() + ")",
		})
	}
	if d := g.Lookup("CSIDriver", "", b.Provisioner); d != nil && b.Provisioner != "" {
		out = append(out, lint.Related{
			Range:   d.Locate("spec", "attachRequired"),
			Message: "CSIDriver " + d.Name + ": attachRequired " + orDefault(d.Get("spec", "attachRequired").Str(), "true (default)"),
		})
	}
	return out
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// workload names a consumer with what decides its concurrency: "Deployment web (replicas 3)".
func workload(w *graph.Resource, why string) string {
	return w.Kind + " " + w.Name + " (" + why + ")"
}

// concurrencyLinks are the related locations of C(w): the workload field that set it
// and the autoscaler that raised it.
func concurrencyLinks(w *graph.Resource, c graph.Concurrency) []lint.Related {
	var out []lint.Related
	if c.Scaler != nil {
		s := c.Scaler.Resource
		at := s.Range
		if c.Scaler.MaxNode != nil {
			at = c.Scaler.MaxNode.Range
		}
		out = append(out, lint.Related{Range: at, Message: s.Kind + " " + s.Name + " scales " + w.Kind + " " + w.Name + " up to " + strconv.Itoa(c.Scaler.Max) + " replicas"})
		if rn := w.Get("spec", "replicas"); rn != nil {
			out = append(out, lint.Related{Range: rn.Range, Message: w.Kind + " " + w.Name + ": replicas " + rn.Str()})
		}
	} else if c.Node != nil {
		out = append(out, lint.Related{Range: c.Node.Range, Message: w.Kind + " " + w.Name + ": " + c.Why})
	}
	return out
}

// concurrencyAt is where a multi-pod finding is reported (docs/rules.md#decision-8): the
// workload field that set C(w) (replicas, parallelism), the workload's replicas when
// an autoscaler raised it, otherwise the volume entry (a DaemonSet, default replicas
// under an autoscaler).
func concurrencyAt(w *graph.Resource, c graph.Concurrency, m *graph.Mount) graph.Range {
	if c.Scaler == nil && c.Node != nil && c.Node.Range.IsValid() {
		return c.Node.Range
	}
	if rn := w.Get("spec", "replicas"); c.Scaler != nil && rn != nil && rn.Range.IsValid() {
		return rn.Range
	}
	return volumeAt(w, m)
}

// volumeAt is the range of a mount's volume entry (the pod template's volumes[] item).
func volumeAt(w *graph.Resource, m *graph.Mount) graph.Range {
	if m.Volume != nil && m.Volume.Range.IsValid() {
		return m.Volume.Range
	}
	return w.Locate(append(graph.PodSpecPath(w.Kind), "volumes")...)
}

// volumePath is the field path of a mount's volume entry in the workload's own pod
// template (spec.template.spec.volumes.2), nil when the volume lives elsewhere (an Argo
// Rollout's workloadRef). Rules that report one finding per claim at a shared field
// (replicas, maxSurge) give it as the finding's path so the findings stay distinct.
func volumePath(w *graph.Resource, m *graph.Mount) []string {
	base := graph.PodSpecPath(w.Kind)
	for i, v := range w.Get(base...).Get("volumes").List() {
		if v == m.Volume {
			return append(append(base[:len(base):len(base)], "volumes"), strconv.Itoa(i))
		}
	}
	return nil
}

// sharedClaims returns a workload's shared mounts, one per claim: two volumes naming
// the same claim are one hazard.
func sharedClaims(g *graph.Graph, w *graph.Resource) []*graph.Mount {
	var out []*graph.Mount
	seen := map[string]bool{}
	for _, m := range g.Mounts(w) {
		if !m.Shared() || seen[m.Claim.Name] {
			continue
		}
		seen[m.Claim.Name] = true
		out = append(out, m)
	}
	return out
}

// pinned reports whether a workload's pods are pinned to one node (nodeName, a
// hostname nodeSelector or required affinity), looking through an Argo Rollout's
// workloadRef. It is the hook of docs/rules.md#decision-2: PVL019 (node-pinned-writers)
// reports pinned consumers of ReadWriteOnce claims, so PVL002 and PVL003 skip those.
func pinned(g *graph.Graph, w *graph.Resource) bool {
	src := w
	if ref := g.WorkloadRef(w); ref != nil {
		src = ref
	}
	host, _ := graph.PinnedHost(src)
	return host != ""
}

// A hazard is one finding a rule reports for the claims of one workload whose hazard
// is the same (same level, same consequence): one remedy, so one finding naming each
// claim, not one identical-looking finding per claim at the same field.
type hazard struct {
	sev         lint.Severity
	consequence string
	first       *graph.Mount   // its volume is the finding's path
	chains      []string       // each claim's chain, in mount order
	volumes     []lint.Related // each claim's volume entry
	links       []lint.Related // each claim's PV, class and provisioner links
}

// hazardOf returns the hazard of hs with this level and consequence, appending a new
// one when there is none, and names m's claim in it.
func hazardOf(hs *[]*hazard, g *graph.Graph, w *graph.Resource, m *graph.Mount, sev lint.Severity, consequence string) *hazard {
	var h *hazard
	for _, x := range *hs {
		if x.sev == sev && x.consequence == consequence {
			h = x
		}
	}
	if h == nil {
		h = &hazard{sev: sev, consequence: consequence, first: m}
		*hs = append(*hs, h)
	}
	h.chains = append(h.chains, claimChain(g, m.Claim))
	h.volumes = append(h.volumes, lint.Related{Range: volumeAt(w, m), Message: "volume " + m.VolumeName + " mounts PVC " + m.Claim.Name})
	h.links = append(h.links, claimLinks(g, m.Claim)...)
	return h
}

// claims names the hazard's claims: "PVC a (...) and PVC b (...)".
func (h *hazard) claims() string { return strings.Join(h.chains, " and ") }

var itWord = regexp.MustCompile(`\bit\b|\bthe claim\b`)

// explains words the consequence, written of one claim ("fail to attach it"), for the
// hazard's claims ("fail to attach them").
func (h *hazard) explains() string {
	if len(h.chains) < 2 {
		return h.consequence
	}
	return itWord.ReplaceAllStringFunc(h.consequence, func(w string) string {
		if w == "it" {
			return "them"
		}
		return "the claims"
	})
}
