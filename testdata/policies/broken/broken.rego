package acme.broken

import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	msg := sprintf("%s is broken", [input.metadata.name]
}
