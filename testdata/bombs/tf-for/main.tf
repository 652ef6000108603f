# Nested for expressions over range(1024): 2^30 strings.
locals {
  cube = flatten([for a in range(1024) : [for b in range(1024) : [for c in range(1024) : "${a}-${b}-${c}"]]])
}

resource "kubernetes_storage_class_v1" "cube" {
  metadata {
    name = "cube"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  parameters = {
    n = length(local.cube)
  }
}
