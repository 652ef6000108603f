# METADATA
# title: A StatefulSet's claims carry its backup label
# description: >-
#   The backup operator snapshots the claims whose `backup` label names a schedule. A
#   StatefulSet labelled `backup: <schedule>` expects every claim it uses, claim
#   templates and existing claims alike, to carry the same label; a claim without it is
#   silently left out of the backups.
# custom:
#   id: ACME002
#   name: claim-backup-label
#   remediation: Label every claim of the StatefulSet (claim templates and mounted claims) with its backup schedule.
#   kinds: [StatefulSet]
#   tags: [backup]
package acme.backup

import rego.v1

schedule := input.metadata.labels.backup

# claims are the PersistentVolumeClaims of the StatefulSet's namespace, from the
# inventory (Gatekeeper's layout).
claims := data.inventory.namespace[data.pvlint.resource.namespace].v1.PersistentVolumeClaim

backup(obj) := object.get(obj, ["metadata", "labels", "backup"], "none")

deny contains {"msg": msg, "path": ["spec", "volumeClaimTemplates", i, "metadata"]} if {
	some i, template in input.spec.volumeClaimTemplates
	backup(template) != schedule
	msg := sprintf("claim template %s has backup label %s, not %s like StatefulSet %s", [
		template.metadata.name, backup(template), schedule, input.metadata.name,
	])
}

deny contains result if {
	some i, volume in input.spec.template.spec.volumes
	name := volume.persistentVolumeClaim.claimName
	claim := claims[name]
	backup(claim) != schedule
	result := {
		"msg": sprintf("claim %s has backup label %s, not %s like StatefulSet %s", [name, backup(claim), schedule, input.metadata.name]),
		"path": ["spec", "template", "spec", "volumes", i, "persistentVolumeClaim", "claimName"],
		"related": [{"kind": "PersistentVolumeClaim", "name": name, "path": ["metadata", "labels"], "msg": sprintf("claim %s", [name])}],
	}
}

warn contains {"msg": msg, "path": ["spec", "template", "spec", "volumes", i]} if {
	some i, volume in input.spec.template.spec.volumes
	name := volume.persistentVolumeClaim.claimName
	not claims[name]
	msg := sprintf("claim %s is not in the linted files, so its backup label cannot be checked", [name])
}
