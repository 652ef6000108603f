# Terraform claims and workloads; the classes are storage.yaml's.
resource "kubernetes_persistent_volume_claim_v1" "tf_single" {
  metadata {
    name = "tf-single"
  }
  spec {
    access_modes       = ["ReadWriteOnce"] # want `^note: PVC tf-single \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\) is mounted by one pod at a time, of Deployment tf-single \(replicas 1, strategy Recreate\)`
    storage_class_name = "gp3"
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "tf_single" {
  metadata {
    name = "tf-single"
  }
  spec {
    replicas = 1
    strategy {
      type = "Recreate"
    }
    template {
      metadata {}
      spec {
        container {
          name  = "app"
          image = "registry.example.com/app:1.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.tf_single.metadata[0].name
          }
        }
      }
    }
  }
}

resource "kubernetes_stateful_set_v1" "tf_db" {
  metadata {
    name = "tf-db"
  }
  spec {
    replicas     = 3
    service_name = "tf-db"
    template {
      metadata {}
      spec {
        container {
          name  = "db"
          image = "postgres:17.2"
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "data"
      }
      spec {
        access_modes       = ["ReadWriteOnce"] # want `^note: volumeClaimTemplate data of StatefulSet tf-db \(ReadWriteOnce, class standard → pd\.csi\.storage\.gke\.io\) gives each replica a claim of its own`
        storage_class_name = "standard"
        resources {
          requests = {
            storage = "10Gi"
          }
        }
      }
    }
  }
}

# Trap: the provider's default strategy is RollingUpdate, which surges.
resource "kubernetes_persistent_volume_claim_v1" "tf_rolling" {
  metadata {
    name = "tf-rolling"
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
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "tf_rolling" {
  metadata {
    name = "tf-rolling"
  }
  spec {
    template {
      metadata {}
      spec {
        container {
          name  = "app"
          image = "registry.example.com/app:1.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "tf-rolling"
          }
        }
      }
    }
  }
}
