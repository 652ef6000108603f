# Terraform CronJobs mounting storage.yaml's claims. The provider's concurrency_policy
# defaults to "Allow", as the API does.
resource "kubernetes_cron_job_v1" "tf_backup" {
  metadata {
    name = "tf-backup"
  }
  spec { # want `^warning: CronJob tf-backup \(concurrencyPolicy Allow \(default\)\) mounts PVC archive \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\): a run that starts before the previous one ends`
    schedule = "*/15 * * * *"
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
              name = "archive"
              persistent_volume_claim {
                claim_name = "archive"
              }
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_cron_job_v1" "tf_replace" {
  metadata {
    name = "tf-replace"
  }
  spec {
    schedule           = "@hourly"
    concurrency_policy = "Replace" # want `^error: CronJob tf-replace \(concurrencyPolicy Replace\) mounts PVC exclusive \(ReadWriteOncePod, class gp3 → ebs\.csi\.aws\.com\): .* \(Replace deletes the running Job`
    job_template {
      metadata {}
      spec {
        template {
          metadata {}
          spec {
            container {
              name  = "sync"
              image = "registry.example.com/sync:1.0"
            }
            volume {
              name = "exclusive"
              persistent_volume_claim {
                claim_name = "exclusive"
              }
            }
          }
        }
      }
    }
  }
}

# Trap: Forbid.
resource "kubernetes_cron_job_v1" "tf_forbid" {
  metadata {
    name = "tf-forbid"
  }
  spec {
    schedule           = "*/5 * * * *"
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
              name = "archive"
              persistent_volume_claim {
                claim_name = "archive"
              }
            }
          }
        }
      }
    }
  }
}

# activeDeadlineSeconds (issue 28). Negative: 600 s plus the default 30 s of grace
# end every run before the next, an hour later.
resource "kubernetes_cron_job_v1" "tf_deadline_short" {
  metadata {
    name = "tf-deadline-short"
  }
  spec {
    schedule = "@hourly"
    job_template {
      metadata {}
      spec {
        active_deadline_seconds = 600
        template {
          metadata {}
          spec {
            container {
              name  = "backup"
              image = "registry.example.com/backup:1.0"
            }
            volume {
              name = "archive"
              persistent_volume_claim {
                claim_name = "archive"
              }
            }
          }
        }
      }
    }
  }
}

# Positive: a deadline of an hour outlasts the 15 minutes between runs.
resource "kubernetes_cron_job_v1" "tf_deadline_long" {
  metadata {
    name = "tf-deadline-long"
  }
  spec { # want `^warning: CronJob tf-deadline-long \(concurrencyPolicy Allow \(default\)\) mounts PVC archive .* \(activeDeadlineSeconds 3600 plus 30 s of termination grace is not shorter than the 900 s between runs\)$`
    schedule = "*/15 * * * *"
    job_template {
      metadata {}
      spec {
        active_deadline_seconds = 3600
        template {
          metadata {}
          spec {
            container {
              name  = "backup"
              image = "registry.example.com/backup:1.0"
            }
            volume {
              name = "archive"
              persistent_volume_claim {
                claim_name = "archive"
              }
            }
          }
        }
      }
    }
  }
}
