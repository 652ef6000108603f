variable "replicas" {
  type    = number
  default = 1
}

resource "kubernetes_persistent_volume_claim_v1" "data" {
  metadata {
    name = "app-data"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "gp3"
    resources {
      requests = { storage = "10Gi" }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "app" {
  metadata {
    name = "app"
  }
  spec {
    replicas = var.replicas
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "app" }
    }
    template {
      metadata {
        labels = { app = "app" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.data.metadata[0].name
          }
        }
      }
    }
  }
}
