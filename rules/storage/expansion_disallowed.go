package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// ExpansionDisallowed (PVL027) reports the claims of an operator resource whose
// operator documents growing their volumes (CloudNativePG, ECK, Strimzi, Crunchy PGO:
// graph.OperatorSet.Grows) when their StorageClass does not allow volume expansion: the
// resize the operator makes when the size is raised is rejected by the API server, at
// the moment the disk is full. Crunchy PGO's autoGrow, which raises the size by
// itself, is a warning; the others are notes.
var ExpansionDisallowed = &lint.Rule{
	ID:       "PVL027",
	Name:     "expansion-disallowed",
	Severity: lint.Note,
	Summary:  "an operator that grows its volumes uses a class that does not allow expansion",
	Description: "CloudNativePG, ECK, Strimzi and Crunchy PGO grow a volume by raising its claim's storage request " +
		"when the size in the resource grows (Crunchy PGO's autoGrow does it by itself when the disk fills). Kubernetes " +
		"accepts a larger request only when the claim's StorageClass sets allowVolumeExpansion: true; otherwise the API " +
		"server rejects the resize, and the operator reports an error or keeps retrying while the database or broker " +
		"runs out of space. The flag is usually discovered when it is needed most.",
	Remediation: "Set allowVolumeExpansion: true on the class (the field can be changed in place) when its driver " +
		"supports expansion, or move the data to a class whose driver does.",
	Tags:  []string{"capacity", "storage-class", "operators"},
	Kinds: []string{"Cluster", "KafkaNodePool", "Kafka", "Elasticsearch", "PostgresCluster"},
	Check: checkExpansionDisallowed,
}

func checkExpansionDisallowed(p *lint.Pass) {
	g := p.Graph
	for _, s := range g.OperatorSets() {
		if s.Grows == "" || s.Resource.IsContext() {
			continue
		}
		for _, c := range s.Claims {
			if c.Ephemeral {
				continue
			}
			ref := g.ClassOf(c.Claim)
			sc := ref.Class
			if sc == nil || sc.Get("provisioner").Str() == "kubernetes.io/no-provisioner" {
				continue
			}
			ave := sc.Get("allowVolumeExpansion")
			if ave.IsUnknown() {
				continue
			}
			if b, ok := ave.Bool(); ok && b {
				continue
			}
			flag := "allowVolumeExpansion unset, defaults to false"
			if ave != nil {
				flag = "allowVolumeExpansion " + ave.Str()
			}
			sev, grows := lint.SeverityNone, s.Grows
			if ag := c.Claim.Spec().Get("autoGrow"); ag != nil {
				sev = lint.Warning
				grows = "Crunchy PGO grows it automatically when the disk fills (" + c.Field + ".autoGrow)"
			}
			path := c.Path("spec", "storageClassName")
			at := s.Resource.Locate(path...)
			msg := c.Label() + " uses class " + ref.Name + classVia(ref) + " (provisioner " + orUnset(sc.Get("provisioner").Str()) + ", " + flag +
				"): " + grows + ", and the API server rejects a larger request on a class that does not allow expansion"
			related := []lint.Related{{Range: expansionAt(sc), Message: "StorageClass " + sc.Name + ": " + flag}}
			if size := c.Claim.Spec().Get("resources", "requests", "storage"); size != nil && size.Range.IsValid() {
				related = append(related, lint.Related{Range: size.Range, Message: c.Label() + ": size " + size.Str()})
			}
			p.ReportPath(s.Resource, at, path, sev, msg, exceptAt(related, at)...)
		}
	}
}

// expansionAt is a class's allowVolumeExpansion, or its provisioner when it is unset.
func expansionAt(sc *graph.Resource) graph.Range {
	if sc.Get("allowVolumeExpansion") != nil {
		return sc.Locate("allowVolumeExpansion")
	}
	return sc.Locate("provisioner")
}
