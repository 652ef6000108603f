# One builtin call asks for half a gigabyte: a shift by four billion bits, which OPA
# computes in one step without looking at the policy's time budget.
package hostile.lsh

import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	n := bits.lsh(1, 4000000000)
	msg := sprintf("%v", [n > 0])
}
