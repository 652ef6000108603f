# Another section, applied on its own: the same claim name, and a backup CronJob
# from a module this root calls (part of this root's world).
resource "kubernetes_storage_class_v1" "ebs" {
  metadata {
    name = "ebs-sc"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  reclaim_policy      = "Retain"
}

resource "kubernetes_persistent_volume_claim_v1" "mysql" {
  metadata {
    name = "ebs-mysql-pv-claim"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.ebs.metadata[0].name
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

module "backup" {
  source = "../modules/backup"
  claim  = "ebs-mysql-pv-claim"
}
