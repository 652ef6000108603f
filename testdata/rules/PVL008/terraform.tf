# A Terraform application and its backup CronJob on one claim; the class is
# storage.yaml's.
resource "kubernetes_persistent_volume_claim_v1" "tf_app" {
  metadata {
    name = "tf-app"
  }
  spec {
    access_modes       = ["ReadWriteOnce"] # want `^warning: PVC tf-app \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\) is mounted by Deployment tf-app \(replicas 1 \(default\)\) and CronJob tf-app-backup \(concurrencyPolicy Forbid\): a pod scheduled on a different node`
    storage_class_name = "gp3"
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "tf_app" {
  metadata {
    name = "tf-app"
  }
  spec {
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
            claim_name = kubernetes_persistent_volume_claim_v1.tf_app.metadata[0].name
          }
        }
      }
    }
  }
}

resource "kubernetes_cron_job_v1" "tf_app_backup" {
  metadata {
    name = "tf-app-backup"
  }
  spec {
    schedule           = "30 2 * * *"
    concurrency_policy = "Forbid"
    job_template {
      metadata {}
      spec {
        template {
          metadata {}
          spec {
            container {
              name  = "backup"
              image = "registry.example.com/backup:1.0"
            }
            volume {
              name = "data"
              persistent_volume_claim {
                claim_name = kubernetes_persistent_volume_claim_v1.tf_app.metadata[0].name
                read_only  = true
              }
            }
          }
        }
      }
    }
  }
}

# Trap: a suspended CronJob never runs.
resource "kubernetes_persistent_volume_claim_v1" "tf_quiet" {
  metadata {
    name = "tf-quiet"
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

resource "kubernetes_deployment_v1" "tf_quiet" {
  metadata {
    name = "tf-quiet"
  }
  spec {
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
            claim_name = "tf-quiet"
          }
        }
      }
    }
  }
}

resource "kubernetes_cron_job_v1" "tf_quiet_backup" {
  metadata {
    name = "tf-quiet-backup"
  }
  spec {
    schedule = "30 2 * * *"
    suspend  = true
    job_template {
      metadata {}
      spec {
        template {
          metadata {}
          spec {
            container {
              name  = "backup"
              image = "registry.example.com/backup:1.0"
            }
            volume {
              name = "data"
              persistent_volume_claim {
                claim_name = "tf-quiet"
              }
            }
          }
        }
      }
    }
  }
}
