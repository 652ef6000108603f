# Names pvlint cannot know (variables without a value), but references that say
# which resource is meant: the Deployment mounts the claim at that address, and the
# claim uses the class at that address, whatever their names evaluate to.
variable "addr_claim_name" {
  type = string
}

variable "addr_class_name" {
  type = string
}

variable "addr_other_claim" {
  type = string
}

resource "kubernetes_storage_class_v1" "by_address" {
  metadata {
    name = var.addr_class_name
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_persistent_volume_claim_v1" "by_address" {
  metadata {
    name = var.addr_claim_name
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.by_address.metadata[0].name
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "by_address" {
  metadata {
    name = "tf-by-address"
  }
  spec {
    replicas = 3 # want `^error: Deployment tf-by-address \(replicas 3\) mounts PVC kubernetes_persistent_volume_claim_v1\.by_address \(ReadWriteOnce, class kubernetes_storage_class_v1\.by_address → ebs\.csi\.aws\.com\)`
    selector {
      match_labels = { app = "by-address" }
    }
    template {
      metadata {
        labels = { app = "by-address" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.by_address.metadata.0.name
          }
        }
      }
    }
  }
}

# Negative: a name from a variable is no reference; the claim is not known
# (PVL018 says so), so its modes are not guessed.
resource "kubernetes_deployment_v1" "by_variable" {
  metadata {
    name = "tf-by-variable"
  }
  spec {
    replicas = 3
    selector {
      match_labels = { app = "by-variable" }
    }
    template {
      metadata {
        labels = { app = "by-variable" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = var.addr_other_claim
          }
        }
      }
    }
  }
}
