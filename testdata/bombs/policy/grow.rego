# A custom policy that doubles a string forty times with concat: 8 bytes times 2^40,
# asked for well within its time budget.
package hostile.grow

import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	s0 := "xxxxxxxx"
	s1 := concat("", [s0, s0])
	s2 := concat("", [s1, s1])
	s3 := concat("", [s2, s2])
	s4 := concat("", [s3, s3])
	s5 := concat("", [s4, s4])
	s6 := concat("", [s5, s5])
	s7 := concat("", [s6, s6])
	s8 := concat("", [s7, s7])
	s9 := concat("", [s8, s8])
	s10 := concat("", [s9, s9])
	s11 := concat("", [s10, s10])
	s12 := concat("", [s11, s11])
	s13 := concat("", [s12, s12])
	s14 := concat("", [s13, s13])
	s15 := concat("", [s14, s14])
	s16 := concat("", [s15, s15])
	s17 := concat("", [s16, s16])
	s18 := concat("", [s17, s17])
	s19 := concat("", [s18, s18])
	s20 := concat("", [s19, s19])
	s21 := concat("", [s20, s20])
	s22 := concat("", [s21, s21])
	s23 := concat("", [s22, s22])
	s24 := concat("", [s23, s23])
	s25 := concat("", [s24, s24])
	s26 := concat("", [s25, s25])
	s27 := concat("", [s26, s26])
	s28 := concat("", [s27, s27])
	s29 := concat("", [s28, s28])
	s30 := concat("", [s29, s29])
	s31 := concat("", [s30, s30])
	s32 := concat("", [s31, s31])
	s33 := concat("", [s32, s32])
	s34 := concat("", [s33, s33])
	s35 := concat("", [s34, s34])
	s36 := concat("", [s35, s35])
	s37 := concat("", [s36, s36])
	s38 := concat("", [s37, s37])
	s39 := concat("", [s38, s38])
	s40 := concat("", [s39, s39])
	msg := sprintf("grew to %d bytes", [count(s40)])
}
