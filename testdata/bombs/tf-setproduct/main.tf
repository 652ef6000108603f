# setproduct of three 1000-element lists: 10^9 combinations.
locals {
  l = range(1000)
  p = setproduct(local.l, local.l, local.l)
}

resource "kubernetes_storage_class_v1" "product" {
  metadata {
    name = "product"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  parameters = {
    n = length(local.p)
  }
}
