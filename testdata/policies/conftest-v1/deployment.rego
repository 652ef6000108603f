package main

import rego.v1

# Conftest's example policy in Rego v1, unchanged.

deny contains msg if {
	input.kind == "Deployment"
	not input.spec.template.spec.securityContext.runAsNonRoot

	msg := "Containers must not run as root"
}

deny contains msg if {
	input.kind == "Deployment"
	not input.spec.selector.matchLabels.app

	msg := "Containers must provide app label for pod selectors"
}
