# METADATA
# title: spin
# custom:
#   id: HOSTILE2
package pvlint.hostile.loop

deny contains msg if {
	some i in numbers.range(1, 100000000)
	some j in numbers.range(1, 100000000)
	i * j == -1
	msg := "never"
}
