variable "name" {
  type = string
}

variable "namespace" {
  type = string
}

variable "replicas" {
  type = number
}

variable "claim" {
  type = string
}

variable "image" {
  type    = string
  default = "nginx:1.27"
}

resource "kubernetes_deployment_v1" "this" {
  metadata {
    name      = var.name
    namespace = var.namespace
  }
  spec {
    replicas = var.replicas
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
          name  = var.name
          image = var.image
          volume_mount {
            name       = "data"
            mount_path = "/data"
          }
        }
        dynamic "volume" {
          for_each = { data = var.claim }
          content {
            name = volume.key
            persistent_volume_claim {
              claim_name = volume.value
            }
          }
        }
      }
    }
  }
}

output "class" {
  value = "local-path"
}
