variable "name" {
  type = string
}

variable "class" {
  type    = string
  default = null
}

resource "kubernetes_persistent_volume_claim_v1" "this" { # want `^error: PVC cache waits until it is bound \(wait_until_bound unset, defaults to true\) on the default StorageClass standard-rwo \(volumeBindingMode WaitForFirstConsumer\)` `^error: PVC scratch waits until it is bound \(wait_until_bound unset, defaults to true\) on the default StorageClass standard-rwo`
  metadata {
    name = var.name
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = var.class
  }
}
