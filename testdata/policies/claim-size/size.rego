# METADATA
# title: Claims request at most 200Gi
# description: Larger volumes are provisioned by the storage team.
# custom:
#   id: ACME003
#   name: claim-size-limit
#   severity: warning
#   remediation: Request less, or ask the storage team for a pre-provisioned volume.
#   kinds: [PersistentVolumeClaim]
package acme.claim_size

import rego.v1

limit := units.parse_bytes("200Gi")

deny contains {"msg": msg, "path": "spec.resources.requests.storage"} if {
	requested := input.spec.resources.requests.storage
	units.parse_bytes(requested) > limit
	msg := sprintf("claim %s requests %s, more than 200Gi", [input.metadata.name, requested])
}
