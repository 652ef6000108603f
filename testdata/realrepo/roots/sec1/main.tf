# One course section: its own terraform apply. Its class is a plain manifest of its
# own directory tree (k8s/class.yaml).
resource "kubernetes_persistent_volume_claim_v1" "mysql" {
  metadata {
    name = "ebs-mysql-pv-claim"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "ebs-sc"
    resources {
      requests = { storage = "4Gi" }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "mysql" {
  metadata {
    name = "mysql"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "mysql" }
    }
    template {
      metadata {
        labels = { app = "mysql" }
      }
      spec {
        container {
          name  = "mysql"
          image = "mysql:8"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "ebs-mysql-pv-claim"
          }
        }
      }
    }
  }
}
