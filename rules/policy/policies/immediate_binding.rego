# METADATA
# title: StorageClass binds volumes before their pod is scheduled
# description: >-
#   A StorageClass whose volumeBindingMode is Immediate, or unset (the default is
#   Immediate, also in Terraform), provisions and binds each claim as soon as the claim
#   exists, before the scheduler has chosen a node for the pod. On zonal block storage
#   the volume can land in a zone where the pod cannot run; on node-local storage it
#   lands on an arbitrary node, or provisioning fails. The level follows the backend
#   (rules.md Decision 1): error for node-local provisioners, warning for zonal block
#   storage and provisioners pvlint does not know, note for storage reachable from every
#   node and for classes whose allowedTopologies pin exactly one zone.
# custom:
#   id: PVL001
#   name: immediate-binding
#   severity: warning
#   remediation: >-
#     Set volumeBindingMode: WaitForFirstConsumer. The field is immutable: delete and
#     recreate the StorageClass (Terraform replaces it); existing volumes are unaffected.
#   kinds: [StorageClass]
#   tags: [scheduling, storage-class]
package pvlint.immediate_binding

# Findings are reported at volumeBindingMode when it is set, otherwise at provisioner:
# the line next to which the missing field belongs, and the line editors underline for
# a Terraform storage_provisioner too.
warn contains result if {
	immediate
	result := {
		"msg": sprintf("StorageClass %v (provisioner %v, %s) binds volumes immediately (%s): %s", [
			name, provisioner, backend_text, mode_text, consequence,
		]),
		"path": report_path,
		"severity": level,
		"related": related,
	}
}

name := object.get(input, ["metadata", "name"], "")

mode := object.get(input, "volumeBindingMode", null)

immediate if mode == null

immediate if mode == "Immediate"

mode_text := "volumeBindingMode Immediate" if mode == "Immediate"

else := "volumeBindingMode unset, defaults to Immediate"

provisioner := object.get(input, "provisioner", "")

# topology comes from pvlint's provisioner table (data.pvlint.provisioners), the one
# place backend knowledge lives; names it does not know are "unknown".
topology := data.pvlint.provisioners[provisioner].topology if {
	data.pvlint.provisioners[provisioner]
} else := "unknown"

# zones are the zone values allowedTopologies allows; the class is pinned to one zone
# when every term names zones and together they name exactly one.
zones := {v |
	some term in object.get(input, "allowedTopologies", [])
	some expr in object.get(term, "matchLabelExpressions", [])
	endswith(expr.key, "/zone")
	some v in expr.values
	is_string(v)
}

single_zone if {
	count(zones) == 1
	terms := object.get(input, "allowedTopologies", [])
	every term in terms {
		some expr in object.get(term, "matchLabelExpressions", [])
		endswith(expr.key, "/zone")
	}
}

level := "error" if topology == "node-local"

else := "note" if single_zone

else := "note" if topology == "topology-free"

else := "warning"

backend_text := "node-local" if topology == "node-local"

else := sprintf("allowedTopologies pins zone %s", [concat("", zones)]) if single_zone

else := "reachable from every node" if topology == "topology-free"

else := "zonal block storage" if topology == "zonal"

else := "topology unknown to pvlint"

consequence := "the volume's node is chosen before the pod is scheduled, so the pod can only run there or the claim never binds" if topology == "node-local"

else := "the zone is already decided, so this only fixes placement early" if single_zone

else := "placement does not matter for this backend, but WaitForFirstConsumer keeps provisioning in step with the pod" if topology == "topology-free"

else := "the volume's zone is chosen before the pod is scheduled, so the pod can become unschedulable"

report_path := ["volumeBindingMode"] if "volumeBindingMode" in object.keys(input)

else := ["provisioner"] if "provisioner" in object.keys(input)

else := ["metadata", "name"]

related := [{"path": ["provisioner"], "msg": sprintf("provisioner %v (%s)", [provisioner, backend_text])}] if {
	"volumeBindingMode" in object.keys(input)
	"provisioner" in object.keys(input)
}

else := []
