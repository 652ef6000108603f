variable "claim" {
  type = string
}

resource "kubernetes_cron_job_v1" "backup" {
  metadata {
    name = "mysql-backup"
  }
  spec {
    schedule           = "0 3 * * *"
    concurrency_policy = "Forbid"
    job_template {
      metadata {}
      spec {
        template {
          metadata {}
          spec {
            container {
              name  = "dump"
              image = "mysql:8"
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
  }
}
