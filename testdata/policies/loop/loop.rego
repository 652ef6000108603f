# METADATA
# title: A policy that never finishes
# description: >-
#   Compares every pair of a hundred thousand numbers for every resource: billions of
#   steps, which --policy-timeout stops.
package acme.loop

import rego.v1

deny contains "unreachable" if {
	some i in numbers.range(1, 100000)
	some j in numbers.range(1, 100000)
	i == j + 100000
}
