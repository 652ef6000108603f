variable "name" {
  type = string
}

variable "strategy" {
  type = string
}

resource "kubernetes_deployment_v1" "this" {
  metadata {
    name = var.name
  }
  spec {
    strategy {
      type = var.strategy # want `^error: Deployment tf-module-web \(maxSurge 25% \(default\) → 1\) mounts PVC data`
    }
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
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
