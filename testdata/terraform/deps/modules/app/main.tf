variable "claim" {
  type = string
}

resource "kubernetes_pod_v1" "job" {
  metadata {
    name = "job"
  }
  spec {
    container {
      name  = "c"
      image = "busybox"
    }
    volume {
      name = "data"
      persistent_volume_claim {
        claim_name = var.claim
      }
    }
  }
}
