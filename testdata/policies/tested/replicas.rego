# METADATA
# title: Production workloads run at least two replicas
# custom:
#   id: ACME004
#   name: prod-replicas
#   kinds: [Deployment, StatefulSet]
package acme.replicas

import rego.v1

replicas := to_number(object.get(input, ["spec", "replicas"], 1))

warn contains {"msg": msg, "path": ["spec", "replicas"]} if {
	data.pvlint.resource.namespace == "prod"
	replicas < 2
	msg := sprintf("%s %s runs %d replica in prod", [input.kind, input.metadata.name, replicas])
}
