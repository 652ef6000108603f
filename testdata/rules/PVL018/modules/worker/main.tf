variable "claim" {
  type = string
}

resource "kubernetes_daemon_set_v1" "this" {
  metadata {
    name = "tf-worker"
  }
  spec {
    template {
      metadata {}
      spec {
        container {
          name  = "worker"
          image = "busybox"
        }
        volume { # want `^warning: DaemonSet tf-worker \(one pod per node\) mounts PVC tf-worker-data, which is not in the linted set`
          name = "data"
          persistent_volume_claim {
            claim_name = var.claim
          }
        }
      }
    }
  }
}
