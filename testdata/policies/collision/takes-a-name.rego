# METADATA
# title: A policy that takes the name of a built-in rule
# custom:
#   id: ACME009
#   name: immediate-binding
package acme.collision

import rego.v1

deny contains "never" if false
