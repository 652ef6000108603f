# METADATA
# title: Workloads name the team that owns them
# description: >-
#   Every Deployment and StatefulSet carries an `owner` label, so that an alert or a
#   finding on it reaches a team.
# custom:
#   id: ACME001
#   name: owner-label
#   remediation: "Add an owner label (`owner: <team>`) to metadata.labels."
#   kinds: [Deployment, StatefulSet]
#   tags: [ownership]
package acme.owner

import rego.v1

deny contains {"msg": msg, "path": ["metadata", "labels"]} if {
	not input.metadata.labels.owner
	msg := sprintf("%s %s has no owner label", [input.kind, input.metadata.name])
}
