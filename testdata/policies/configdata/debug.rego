# METADATA
# title: Production configuration files leave debug off
# description: >-
#   The application reads app.conf from its ConfigMap; a file that turns debug on logs
#   request bodies, secrets included. This policy reads the embedded file, which
#   pvlint keeps for custom policies even though no built-in rule needs it.
# custom:
#   id: ACME003
#   name: config-debug-off
#   remediation: Set debug = false in app.conf.
#   kinds: [ConfigMap]
package acme.configdata

import rego.v1

deny contains {"msg": msg, "path": ["data", "app.conf"]} if {
	some line in split(input.data["app.conf"], "\n")
	trim_space(line) == "debug = true"
	msg := sprintf("ConfigMap %s turns debug on in app.conf", [input.metadata.name])
}
