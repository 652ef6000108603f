package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// ClaimsDeletedWithOwner (PVL026) reports a resource whose claim policy deletes its
// per-pod claims when the resource is deleted, while the claims' class deletes the
// volume with its claim (reclaimPolicy Delete, the default): ECK's
// volumeClaimDeletePolicy (DeleteOnScaledownAndClusterDeletion by default), Strimzi's
// deleteClaim: true, and persistentVolumeClaimRetentionPolicy.whenDeleted: Delete on a
// StatefulSet or a Prometheus Operator resource. Deleting the resource — a rename, an
// uninstall, a GitOps prune, a namespace deletion — then destroys the data.
//
// A class that retains volumes (reclaimPolicy Retain) keeps the data: quiet. A class
// not in the linted set cannot be judged: a note. Where the resource offers no such
// policy (CloudNativePG and Crunchy PGO own their PVCs), the class's reclaimPolicy is
// PVL020's (docs/rules.md#decision-18).
var ClaimsDeletedWithOwner = &lint.Rule{
	ID:       "PVL026",
	Name:     "claims-deleted-with-owner",
	Severity: lint.Warning,
	Summary:  "a resource deletes its claims, and their class their volumes, when the resource is deleted",
	Description: "The resource's own policy deletes the claims of its pods when the resource is deleted: ECK's " +
		"spec.volumeClaimDeletePolicy (DeleteOnScaledownAndClusterDeletion, the default), Strimzi's storage " +
		"deleteClaim: true, a persistentVolumeClaimRetentionPolicy.whenDeleted of Delete on a StatefulSet or a " +
		"Prometheus Operator resource. The claims' StorageClass has reclaimPolicy Delete (or leaves it unset, which " +
		"means Delete), so the provisioner deletes each volume with its claim. Deleting the resource — renaming it, " +
		"uninstalling a chart, a GitOps tool pruning it, deleting its namespace — then destroys the data of every " +
		"instance, not only the pods. When the class is not in the linted set its reclaimPolicy cannot be read, and " +
		"the finding is a note.",
	Remediation: "Keep the claims when the resource is deleted: ECK volumeClaimDeletePolicy: DeleteOnScaledownOnly, " +
		"Strimzi deleteClaim: false, persistentVolumeClaimRetentionPolicy.whenDeleted: Retain (pvlint fix sets " +
		"these), or use a class with reclaimPolicy: Retain so the volumes outlive their claims.",
	Tags:  []string{"data-loss", "operators"},
	Kinds: append([]string{"StatefulSet"}, operatorKindNames...),
	Check: checkClaimsDeletedWithOwner,
}

// deletingOwner is one resource whose policy deletes its claims with it.
type deletingOwner struct {
	owner  *graph.Resource
	label  string
	policy graph.Deletion
	claims []groupClaim
	create []lint.Related
}

func deletingOwners(g *graph.Graph) []*deletingOwner {
	var out []*deletingOwner
	for _, w := range g.ByKind("StatefulSet") {
		n := w.Get("spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted")
		if n.Str() != "Delete" {
			continue
		}
		d := &deletingOwner{owner: w, label: "StatefulSet " + w.Name,
			policy: graph.Deletion{WithOwner: true, Policy: true, Node: n, Text: "persistentVolumeClaimRetentionPolicy.whenDeleted Delete"}}
		for _, pg := range podGroups(g) {
			if pg.owner == w {
				d.claims = pg.claims
			}
		}
		out = append(out, d)
	}
	byOwner := map[*graph.Resource]*deletingOwner{}
	for _, s := range g.OperatorSets() {
		if !s.Deletion.Policy || !s.Deletion.WithOwner {
			continue
		}
		d := byOwner[s.Resource]
		if d == nil {
			r := s.Resource
			d = &deletingOwner{owner: r, label: r.Kind + " " + r.Name + " (" + s.Operator + ")", policy: s.Deletion}
			byOwner[r] = d
			out = append(out, d)
		}
		for _, c := range s.Claims {
			if !c.Ephemeral {
				d.claims = append(d.claims, groupClaim{claim: c.Claim, label: c.Field, class: c.Path("spec", "storageClassName"), base: c.Base, op: c})
			}
		}
		at := s.Resource.Locate(s.Path...)
		if len(s.Path) == 0 {
			at = s.Resource.Locate("metadata", "name")
		}
		d.create = append(d.create, lint.Related{Range: at, Message: s.Creates})
	}
	return out
}

func checkClaimsDeletedWithOwner(p *lint.Pass) {
	g := p.Graph
	for _, d := range deletingOwners(g) {
		if d.owner.IsContext() {
			continue
		}
		var deleting, unknown []string
		hint := "" // what would give the first unknown class, when something would
		var related []lint.Related
		for _, c := range d.claims {
			ref := g.ClassOf(c.claim)
			if c.claim.Spec().Get("volumeName").Str() != "" {
				continue // pre-bound: the PV's own policy applies
			}
			if ref.Class == nil {
				unknown = append(unknown, "PVC "+c.claim.Name+" ("+c.label+", "+backendChain(g, c.claim)+")")
				if hint == "" {
					hint = classHint(ref)
				}
				continue
			}
			rp := ref.Class.Get("reclaimPolicy")
			if rp.IsUnknown() || rp.Str() != "" && rp.Str() != "Delete" {
				continue
			}
			policy := "reclaimPolicy Delete"
			if rp.IsNull() {
				policy = "reclaimPolicy unset, defaults to Delete"
			}
			deleting = append(deleting, "PVC "+c.claim.Name+" ("+c.label+", class "+ref.Name+classVia(ref)+", "+policy+")")
			related = append(related, lint.Related{Range: reclaimAt(ref.Class), Message: "StorageClass " + ref.Name + ": " + policy})
			related = append(related, lint.Related{Range: d.owner.Locate(c.class...), Message: c.label + ": class " + ref.Name + classVia(ref)})
		}
		sev := lint.Warning
		var msg string
		switch {
		case len(deleting) > 0:
			msg = d.label + " deletes its pods' claims when it is deleted (" + d.policy.Text + "), and their class deletes the volumes with them: " +
				strings.Join(deleting, "; ") + ". Deleting the resource (a rename, an uninstall, a GitOps prune) destroys every instance's data"
		case len(unknown) > 0:
			sev = lint.Note
			msg = d.label + " deletes its pods' claims when it is deleted (" + d.policy.Text + "): " + strings.Join(unknown, "; ") +
				"; if that class's reclaimPolicy is Delete (the default), deleting the resource destroys every instance's data" + hint
		default:
			continue
		}
		at := d.owner.Locate(d.policyPath()...)
		if d.policy.Node != nil && d.policy.Node.Range.IsValid() {
			at = d.policy.Node.Range
		}
		related = append(related, d.create...)
		p.ReportFix(d.fix(), d.owner, at, d.policyPath(), sev, msg, exceptAt(dedupe(related), at)...)
	}
}

func (d *deletingOwner) policyPath() []string {
	if d.policy.Path != nil {
		return d.policy.Path
	}
	return []string{"spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted"}
}

// fix keeps the claims: the policy value that retains them.
func (d *deletingOwner) fix() *lint.Fix {
	path := d.policyPath()
	key := path[len(path)-1]
	parent := d.owner.Get(path[:len(path)-1]...)
	switch key {
	case "volumeClaimDeletePolicy":
		return &lint.Fix{Description: "Set volumeClaimDeletePolicy: DeleteOnScaledownOnly, so ECK keeps the claims when the Elasticsearch resource is deleted",
			Edits: lint.Put(parent, key, lint.String("DeleteOnScaledownOnly"))}
	case "deleteClaim":
		return &lint.Fix{Description: "Set deleteClaim: false, so Strimzi keeps the claims when the cluster is deleted",
			Edits: lint.Put(parent, key, lint.Bool(false))}
	case "whenDeleted":
		return &lint.Fix{Description: "Set persistentVolumeClaimRetentionPolicy.whenDeleted: Retain, so the claims outlive the resource",
			Edits: lint.Put(parent, key, lint.String("Retain"))}
	}
	return nil
}

// dedupe drops repeated related locations (one class behind several claims).
func dedupe(rs []lint.Related) []lint.Related {
	seen := map[lint.Related]bool{}
	out := rs[:0:0]
	for _, r := range rs {
		if !seen[r] {
			seen[r] = true
			out = append(out, r)
		}
	}
	return out
}
