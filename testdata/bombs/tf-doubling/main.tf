# A string doubled in a chain of locals: 8 bytes times 2^40.
locals {
  s0 = "xxxxxxxx"
  s1 = "${local.s0}${local.s0}"
  s2 = "${local.s1}${local.s1}"
  s3 = "${local.s2}${local.s2}"
  s4 = "${local.s3}${local.s3}"
  s5 = "${local.s4}${local.s4}"
  s6 = "${local.s5}${local.s5}"
  s7 = "${local.s6}${local.s6}"
  s8 = "${local.s7}${local.s7}"
  s9 = "${local.s8}${local.s8}"
  s10 = "${local.s9}${local.s9}"
  s11 = "${local.s10}${local.s10}"
  s12 = "${local.s11}${local.s11}"
  s13 = "${local.s12}${local.s12}"
  s14 = "${local.s13}${local.s13}"
  s15 = "${local.s14}${local.s14}"
  s16 = "${local.s15}${local.s15}"
  s17 = "${local.s16}${local.s16}"
  s18 = "${local.s17}${local.s17}"
  s19 = "${local.s18}${local.s18}"
  s20 = "${local.s19}${local.s19}"
  s21 = "${local.s20}${local.s20}"
  s22 = "${local.s21}${local.s21}"
  s23 = "${local.s22}${local.s22}"
  s24 = "${local.s23}${local.s23}"
  s25 = "${local.s24}${local.s24}"
  s26 = "${local.s25}${local.s25}"
  s27 = "${local.s26}${local.s26}"
  s28 = "${local.s27}${local.s27}"
  s29 = "${local.s28}${local.s28}"
  s30 = "${local.s29}${local.s29}"
  s31 = "${local.s30}${local.s30}"
  s32 = "${local.s31}${local.s31}"
  s33 = "${local.s32}${local.s32}"
  s34 = "${local.s33}${local.s33}"
  s35 = "${local.s34}${local.s34}"
  s36 = "${local.s35}${local.s35}"
  s37 = "${local.s36}${local.s36}"
  s38 = "${local.s37}${local.s37}"
  s39 = "${local.s38}${local.s38}"
  s40 = "${local.s39}${local.s39}"
}

resource "kubernetes_storage_class_v1" "doubling" {
  metadata {
    name = "doubling"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  parameters = {
    s = local.s40
  }
}
