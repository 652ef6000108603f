# METADATA
# title: StorageClass binds volumes before their pod is scheduled
# description: >-
#   A StorageClass whose volumeBindingMode is Immediate, or unset (the default is
#   Immediate, also in Terraform), provisions and binds each claim as soon as the claim
#   exists, before the scheduler has chosen a node for the pod. On zonal block storage
#   the volume can land in a zone where the pod cannot run; on node-local storage it
#   lands on an arbitrary node, or provisioning fails. The level follows the backend:
#   error for node-local provisioners, warning for zonal block storage and
#   provisioners pvlint does not know, note for storage reachable from every
#   node (a local-path class its local-path-config serves from a sharedFileSystemPath
#   included) and for classes whose allowedTopologies pin exactly one zone.
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

# The levels by backend are docs/rules.md#decision-1.

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
		"fix": fix,
	}
}

# The fix sets the mode, or adds it when the class leaves it to the default. The field
# is immutable, so the description says the class must be recreated.
fix := {
	"description": fix_text,
	"edits": [{"op": "set", "path": ["volumeBindingMode"], "value": "WaitForFirstConsumer"}],
} if {
	"volumeBindingMode" in object.keys(input)
	is_string(mode)
} else := {
	"description": fix_text,
	"edits": [{"op": "insert", "key": "volumeBindingMode", "value": "WaitForFirstConsumer"}],
}

fix_text := concat(" ", [
	"Set volumeBindingMode: WaitForFirstConsumer.",
	"The field is immutable: the StorageClass must be deleted and recreated (Terraform replaces it);",
	"existing volumes are unaffected.",
])

name := object.get(input, ["metadata", "name"], "")

mode := object.get(input, "volumeBindingMode", null)

immediate if mode == null

immediate if mode == "Immediate"

mode_text := "volumeBindingMode Immediate" if mode == "Immediate"

else := "volumeBindingMode unset, defaults to Immediate"

provisioner := object.get(input, "provisioner", "")

# class is what the graph derives for this StorageClass (data.pvlint.classes): its
# placement is decided in Go, in one place, from the provisioner table and, for
# local-path-provisioner, the local-path-config ConfigMap.
class := data.pvlint.classes[name] if {
	data.pvlint.classes[name].provisioner == provisioner
} else := {}

# topology is the class's placement; without one (a class without a name, a test
# without a graph), the provisioner table's (data.pvlint.provisioners); names neither
# knows are "unknown".
topology := class.topology if {
	class.topology
} else := data.pvlint.provisioners[provisioner].topology if {
	data.pvlint.provisioners[provisioner]
} else := "unknown"

local_path := object.get(class, "local_path", "")

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

else := "shared file system from local-path-config, reachable from every node" if local_path == "shared-filesystem"

else := "reachable from every node" if topology == "topology-free"

else := "local-path-config unreadable, node paths or a shared file system unknown to pvlint" if local_path == "unknown"

else := "zonal block storage" if topology == "zonal"

else := sprintf("topology unknown to pvlint; --provisioner-class %v=attachable|file|local would declare it", [provisioner]) if {
	is_string(provisioner)
	provisioner != ""
}

else := "topology unknown to pvlint"

consequence := "the volume's node is chosen before the pod is scheduled, so the pod can only run there or the claim never binds" if topology == "node-local"

else := "the zone is already decided, so this only fixes placement early" if single_zone

else := "placement does not matter for this backend, but WaitForFirstConsumer keeps provisioning in step with the pod" if topology == "topology-free"

else := "with node paths, the volume's node is chosen before the pod is scheduled and the claim never binds" if local_path == "unknown"

else := "the volume's zone is chosen before the pod is scheduled, so the pod can become unschedulable" if topology == "zonal"

# A backend pvlint does not know may be zonal, node-local or network storage: the
# message says what happens in the first two cases, not that there are zones.
else := "if its volumes are zonal or node-local, their zone or node is chosen before the pod is scheduled, so the pod can become unschedulable"

report_path := ["volumeBindingMode"] if "volumeBindingMode" in object.keys(input)

else := ["provisioner"] if "provisioner" in object.keys(input)

else := ["metadata", "name"]

related := array.concat(provisioner_related, config_related)

provisioner_related := [{"path": ["provisioner"], "msg": sprintf("provisioner %v (%s)", [provisioner, backend_text])}] if {
	"volumeBindingMode" in object.keys(input)
	"provisioner" in object.keys(input)
}

else := []

# The local-path-config ConfigMap that decided the class's mode, when one did.
config_related := [{
	"kind": class.config.kind, "namespace": class.config.namespace, "name": class.config.name,
	"path": ["data", "config.json"],
	"msg": sprintf("ConfigMap %s: %s for class %s", [class.config.name, config_text, name]),
}] if {
	class.config
} else := []

config_text := "sharedFileSystemPath" if local_path == "shared-filesystem"

else := "config.json unreadable" if local_path == "unknown"

else := "node paths"
