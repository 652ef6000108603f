resource "kubernetes_deployment_v1" "pinned" {
  metadata {
    name = "pinned-tf"
  }
  spec {
    replicas = 2
    strategy {
      type = "Recreate"
    }
    template {
      spec {
        node_selector = {
          "kubernetes.io/hostname" = "worker-9" # want `^warning: Deployment pinned-tf \(replicas 2\) is pinned to node worker-9 \(nodeSelector kubernetes\.io/hostname\) and mounts PVC data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\)`
        }
        container {
          name  = "app"
          image = "registry.example.com/app:1.0"
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

# One replica that is replaced, never surged: nothing to share with.
resource "kubernetes_deployment_v1" "single" {
  metadata {
    name = "single-tf"
  }
  spec {
    replicas = "1"
    strategy {
      type = "Recreate"
    }
    template {
      spec {
        node_name = "worker-9"
        container {
          name  = "app"
          image = "registry.example.com/app:1.0"
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
