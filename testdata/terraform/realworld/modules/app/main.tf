variable "name" {
  type = string
}

variable "replicas" {
  type = number
}

variable "storage" {
  type     = string
  default  = "10Gi"
  nullable = false
}

variable "class" {
  type = string
}

variable "volume" {
  type    = string
  default = null
}

resource "kubernetes_persistent_volume_claim_v1" "data" {
  metadata {
    name = "${var.name}-data"
    labels = {
      volume = coalesce(var.volume, "dynamic")
    }
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = var.class
    resources {
      requests = {
        storage = var.storage
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "app" {
  metadata {
    name = var.name
  }
  spec {
    replicas = var.replicas
    selector {
      match_labels = { app = var.name }
    }
    strategy {
      type = "Recreate"
    }
    template {
      metadata {
        labels = { app = var.name }
      }
      spec {
        container {
          name  = "app"
          image = "example/${var.name}:1.0"
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

output "claim" {
  value = kubernetes_persistent_volume_claim_v1.data.metadata[0].uid
}
