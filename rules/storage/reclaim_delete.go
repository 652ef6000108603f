package storage

import (
	"strconv"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// ReclaimDelete (PVL020) reports StorageClasses whose reclaimPolicy is Delete (the
// default) and that provision the volumes of stateful consumers: StatefulSet claim
// templates, and claims mounted by a workload as their single writer. Deleting such a
// claim, by hand, by `helm uninstall` or by `terraform destroy`, deletes the volume.
//
// Claims that operators create from custom resources (graph.OperatorSets) count as
// stateful claims too, unless the resource's own policy deletes them with it (PVL026).
//
// Not reported: classes of kubernetes.io/no-provisioner (their PVs are created by hand
// with their own policy), claims pre-bound to a PV (the PV's policy applies), generic
// ephemeral volumes (deleted with their pod by design), and StatefulSets whose
// persistentVolumeClaimRetentionPolicy.whenDeleted is Delete (data deletion was chosen).
var ReclaimDelete = &lint.Rule{
	ID:       "PVL020",
	Name:     "reclaim-delete",
	Severity: lint.Note,
	Summary:  "a StorageClass deletes the volumes of stateful workloads with their claims",
	Description: "A StorageClass whose reclaimPolicy is Delete, or unset (the default is Delete, also in " +
		"Terraform), provisions the volume of a StatefulSet's claim template or of a claim mounted by a " +
		"single-writer workload. When the claim is deleted, on purpose or as a side effect of `helm uninstall`, " +
		"`kubectl delete -k`, `terraform destroy` or a namespace deletion, the provisioner deletes the volume and " +
		"the data with it; with Retain the PersistentVolume and its disk stay until an administrator removes them.",
	Remediation: "Set reclaimPolicy: Retain on the class for stateful data (the field is immutable: create a " +
		"new class, or patch existing PVs with persistentVolumeReclaimPolicy: Retain), and keep backups.",
	Tags:  []string{"data-loss", "storage-class"},
	Kinds: []string{"StorageClass"},
	Check: checkReclaimDelete,
}

func checkReclaimDelete(p *lint.Pass) {
	g := p.Graph
	backed := statefulClaims(g)
	for _, sc := range g.ByKind("StorageClass") {
		rp := sc.Get("reclaimPolicy")
		if rp.IsUnknown() || rp.Str() != "" && rp.Str() != "Delete" {
			continue
		}
		if sc.Get("provisioner").Str() == "kubernetes.io/no-provisioner" {
			continue
		}
		claims := backed[sc]
		if len(claims) == 0 {
			continue
		}
		policy := "reclaimPolicy Delete"
		if rp.IsNull() {
			policy = "reclaimPolicy unset, defaults to Delete"
		}
		msg := "StorageClass " + sc.Name + " (provisioner " + orUnset(sc.Get("provisioner").Str()) + ", " + policy +
			") backs " + claims[0].text
		if n := len(claims) - 1; n > 0 {
			msg += ", and " + strconv.Itoa(n) + " more stateful claim" + plural(n)
		}
		msg += ": deleting the claim deletes the volume and its data"
		var related []lint.Related
		for _, c := range claims {
			related = append(related, lint.Related{Range: c.at, Message: c.text})
		}
		p.Report(sc, reclaimAt(sc), lint.SeverityNone, msg, related...)
	}
}

// statefulClaim is a claim whose data belongs to a stateful consumer.
type statefulClaim struct {
	text string      // "PVC data of StatefulSet db (volumeClaimTemplates)"
	at   graph.Range // the claim or claim template
}

// statefulClaims maps each StorageClass to the stateful claims it provisions, in input
// order: StatefulSet claim templates, and PVC resources with single-writer modes that
// a workload in the set mounts.
func statefulClaims(g *graph.Graph) map[*graph.Resource][]statefulClaim {
	out := map[*graph.Resource][]statefulClaim{}
	for _, r := range g.Resources {
		switch {
		case r.Kind == "PersistentVolumeClaim":
			c := &graph.Claim{Name: r.Name, Namespace: r.Namespace, Resource: r, Object: r.Object}
			consumers := g.Consumers(r)
			if len(consumers) == 0 || !g.AccessModes(c).SingleWriter() || c.Spec().Get("volumeName").Str() != "" {
				continue
			}
			ref := g.ClassOf(c)
			if ref.Class == nil {
				continue
			}
			w := consumers[0].Workload
			text := "PVC " + c.Name + " (" + g.AccessModes(c).Short() + classVia(ref) + "), mounted by " + w.Kind + " " + w.Name
			out[ref.Class] = append(out[ref.Class], statefulClaim{text: text, at: r.Locate("metadata", "name")})
		case r.Kind == "StatefulSet":
			if r.Get("spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted").Str() == "Delete" {
				continue
			}
			for _, m := range g.Mounts(r) {
				if !m.Claim.PerPod || m.Volume.Get("ephemeral") != nil {
					continue
				}
				ref := g.ClassOf(m.Claim)
				if ref.Class == nil {
					continue
				}
				text := "claim template " + m.Claim.Name + " (" + orDefault(g.AccessModes(m.Claim).Short(), "no accessModes") + classVia(ref) +
					") of StatefulSet " + r.Name
				out[ref.Class] = append(out[ref.Class], statefulClaim{text: text, at: claimTemplateAt(r, m)})
			}
		}
	}
	for _, set := range g.OperatorSets() {
		if set.Deletion.Policy && set.Deletion.WithOwner {
			continue // the resource's own policy deletes the claims: PVL026 speaks
		}
		for _, c := range set.Claims {
			if c.Ephemeral {
				continue
			}
			ref := g.ClassOf(c.Claim)
			if ref.Class == nil {
				continue
			}
			text := "PVC " + c.Claim.Name + " of each pod (" + orDefault(g.AccessModes(c.Claim).Short(), "no accessModes") + classVia(ref) +
				") from " + c.Label()
			if set.Deletion.WithOwner {
				text += ", " + set.Deletion.Text
			}
			out[ref.Class] = append(out[ref.Class], statefulClaim{text: text, at: set.Resource.Locate(c.Base...)})
		}
	}
	return out
}

// claimTemplateAt is the range of a StatefulSet claim template's name.
func claimTemplateAt(sts *graph.Resource, m *graph.Mount) graph.Range {
	for _, t := range sts.Get("spec", "volumeClaimTemplates").List() {
		if t.Get("metadata", "name").Str() == m.Claim.Name {
			if rg := t.Locate("metadata", "name"); rg.IsValid() {
				return rg
			}
		}
	}
	return volumeAt(sts, m)
}

// classVia says how a claim got its class when it was not by name: ", default class".
func classVia(ref graph.ClassRef) string {
	if ref.Via == "default" {
		return ", default class"
	}
	return ""
}

// reclaimAt is where PVL020 reports: reclaimPolicy when set, else the provisioner line
// (next to which the missing field belongs), else the class's name.
func reclaimAt(sc *graph.Resource) graph.Range {
	for _, key := range []string{"reclaimPolicy", "provisioner"} {
		if sc.Get(key) != nil {
			return sc.Locate(key)
		}
	}
	return sc.Locate("metadata", "name")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
