variable "name" {
  type = string
}

variable "replicas" {
  type = number
}

variable "claim" {
  type = string
}

resource "kubernetes_deployment_v1" "this" {
  metadata {
    name = var.name
  }
  spec {
    replicas = var.replicas # want `^error: Deployment tf-module-app \(replicas 2\) mounts PVC tf-data`
    selector {
      match_labels = {
        app = var.name
      }
    }
    template {
      metadata {
        labels = {
          app = var.name
        }
      }
      spec {
        container {
          name  = "app"
          image = "nginx:1.27"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = var.claim
          }
        }
      }
    }
  }
}
