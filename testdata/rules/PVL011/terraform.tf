# Terraform workloads with node_name; the claims and classes are storage.yaml's.
resource "kubernetes_pod_v1" "tf_pinned" {
  metadata {
    name = "tf-pinned"
  }
  spec {
    node_name = "node-7" # want `^error: Pod tf-pinned sets nodeName node-7 and mounts PVC cache \(class local-path → rancher\.io/local-path, volumeBindingMode WaitForFirstConsumer\)`
    container {
      name  = "app"
      image = "busybox:1.37"
    }
    volume {
      name = "cache"
      persistent_volume_claim {
        claim_name = "cache"
      }
    }
  }
}

resource "kubernetes_deployment_v1" "tf_pinned" {
  metadata {
    name = "tf-pinned"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    template {
      metadata {}
      spec {
        node_name = "node-8" # want `^error: Deployment tf-pinned sets nodeName node-8 and mounts PVC cache`
        container {
          name  = "app"
          image = "busybox:1.37"
        }
        volume {
          name = "cache"
          persistent_volume_claim {
            claim_name = "cache"
          }
        }
      }
    }
  }
}

# The remedy: node_selector goes through the scheduler.
resource "kubernetes_pod_v1" "tf_selected" {
  metadata {
    name = "tf-selected"
  }
  spec {
    node_selector = {
      "kubernetes.io/hostname" = "node-7"
    }
    container {
      name  = "app"
      image = "busybox:1.37"
    }
    volume {
      name = "cache"
      persistent_volume_claim {
        claim_name = "cache"
      }
    }
  }
}
