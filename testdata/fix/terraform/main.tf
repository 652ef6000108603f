# Storage and workloads of the cache, in Terraform.
resource "kubernetes_storage_class_v1" "standard" {
  metadata {
    name = "standard"
  }
  storage_provisioner = "pd.csi.storage.gke.io"
  reclaim_policy      = "Retain"
  # volume_binding_mode is left to the provider's default, Immediate.
}

resource "kubernetes_storage_class_v1" "zonal" {
  metadata {
    name = "zonal"
  }
  storage_provisioner = "pd.csi.storage.gke.io"
  reclaim_policy      = "Retain"
  volume_binding_mode = "Immediate" # set on purpose, long ago
}

resource "kubernetes_storage_class_v1" "wffc" {
  metadata {
    name = "wffc"
  }
  storage_provisioner = "pd.csi.storage.gke.io"
  reclaim_policy      = "Retain"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_persistent_volume_claim_v1" "cache" {
  metadata {
    name = "cache"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "logs" {
  metadata {
    name = "logs"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = true
}

resource "kubernetes_deployment_v1" "cache" {
  metadata {
    name = "cache"
  }
  spec {
    replicas = 1
    selector {
      match_labels = {
        app = "cache"
      }
    }
    template {
      metadata {
        labels = {
          app = "cache"
        }
      }
      spec {
        container {
          name  = "cache"
          image = "redis:7"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.cache.metadata[0].name
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "shipper" {
  metadata {
    name = "shipper"
  }
  spec {
    replicas = 1
    strategy {
      type = "RollingUpdate"
      rolling_update {
        max_surge       = "1"
        max_unavailable = "0"
      }
    }
    selector {
      match_labels = {
        app = "shipper"
      }
    }
    template {
      metadata {
        labels = {
          app = "shipper"
        }
      }
      spec {
        container {
          name  = "shipper"
          image = "fluent/fluent-bit:3.1"
        }
        volume {
          name = "logs"
          persistent_volume_claim {
            claim_name = "logs"
          }
        }
      }
    }
  }
}

resource "kubernetes_cron_job_v1" "compact" {
  metadata {
    name = "compact"
  }
  spec {
    schedule = "*/10 * * * *"
    job_template {
      metadata {}
      spec {
        template {
          metadata {}
          spec {
            container {
              name  = "compact"
              image = "busybox:1.36"
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
  }
}

# notes rolls out with max_surge 0, which still overlaps the terminating pod.
resource "kubernetes_persistent_volume_claim_v1" "notes" {
  metadata {
    name = "notes"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "notes" {
  metadata {
    name = "notes"
  }
  spec {
    replicas = 1
    strategy {
      rolling_update {
        max_surge       = "0"
        max_unavailable = "1"
      }
    }
    selector {
      match_labels = {
        app = "notes"
      }
    }
    template {
      metadata {
        labels = {
          app = "notes"
        }
      }
      spec {
        container {
          name  = "notes"
          image = "registry.example.com/notes:1.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.notes.metadata[0].name
          }
        }
      }
    }
  }
}
