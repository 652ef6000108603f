# Terraform StatefulSets mounting the YAML claims of storage.yaml.
variable "db_replicas" {
  type    = number
  default = 3
}

resource "kubernetes_stateful_set_v1" "tf_db" {
  metadata {
    name = "tf-db"
  }
  spec {
    replicas     = var.db_replicas
    service_name = "tf-db"
    template {
      metadata {}
      spec {
        container {
          name  = "db"
          image = "postgres:16"
          volume_mount {
            name       = "data"
            mount_path = "/var/lib/postgresql/data"
          }
        }
        volume { # want `^error: StatefulSet tf-db \(replicas 3\) mounts PVC data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\) from its pod template: every replica shares the claim`
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
      }
    }
  }
}

# Negative: a claim template of the same name takes precedence over the volume.
resource "kubernetes_stateful_set_v1" "tf_templated" {
  metadata {
    name = "tf-templated"
  }
  spec {
    replicas     = 3
    service_name = "tf-templated"
    template {
      metadata {}
      spec {
        container {
          name  = "db"
          image = "postgres:16"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "data"
      }
      spec {
        access_modes       = ["ReadWriteOnce"]
        storage_class_name = "gp3"
        resources {
          requests = {
            storage = "10Gi"
          }
        }
      }
    }
  }
}

# Negative: one replica.
resource "kubernetes_stateful_set" "tf_single" {
  metadata {
    name = "tf-single"
  }
  spec {
    replicas     = 1
    service_name = "tf-single"
    template {
      metadata {}
      spec {
        container {
          name  = "db"
          image = "postgres:16"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "exclusive"
          }
        }
      }
    }
  }
}
