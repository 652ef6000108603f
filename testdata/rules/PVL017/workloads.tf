resource "kubernetes_deployment_v1" "worker" {
  metadata {
    name = "worker-tf"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    template {
      spec {
        toleration { # want `^warning: Deployment worker-tf tolerates node\.kubernetes\.io/unreachable with no tolerationSeconds and mounts PVC data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\)`
          key      = "node.kubernetes.io/unreachable"
          operator = "Exists"
          effect   = "NoExecute"
        }
        toleration {
          key                = "node.kubernetes.io/not-ready"
          operator           = "Exists"
          effect             = "NoExecute"
          toleration_seconds = "300"
        }
        container {
          name  = "app"
          image = "registry.example.com/worker:1.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
      }
    }
  }
}

# The fix: a bounded toleration.
resource "kubernetes_deployment_v1" "bounded" {
  metadata {
    name = "bounded-tf"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    template {
      spec {
        toleration {
          key                = "node.kubernetes.io/unreachable"
          operator           = "Exists"
          effect             = "NoExecute"
          toleration_seconds = "300"
        }
        container {
          name  = "app"
          image = "registry.example.com/worker:1.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
      }
    }
  }
}
