resource "kubernetes_deployment_v1" "web" {
  metadata {
    name = "web"
  }
  spec {
    replicas = 3
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx"
          volume_mount {
            name       = "data"
            mount_path = "/data"
          }
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
        volume {
          name = "cache"
          empty_dir {}
        }
        toleration {
          key                = "node.kubernetes.io/unreachable"
          operator           = "Exists"
          effect             = "NoExecute"
          toleration_seconds = "30"
        }
        affinity {
          node_affinity {
            required_during_scheduling_ignored_during_execution {
              node_selector_term {
                match_expressions {
                  key      = "kubernetes.io/hostname"
                  operator = "In"
                  values   = ["node-1"]
                }
              }
            }
          }
          pod_anti_affinity {
            required_during_scheduling_ignored_during_execution {
              topology_key = "kubernetes.io/hostname"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_stateful_set_v1" "db" {
  metadata {
    name = "db"
  }
  spec {
    replicas     = 2
    service_name = "db"
    template {
      metadata {}
      spec {
        container {
          name = "db"
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "pgdata"
      }
      spec {
        access_modes       = ["ReadWriteOnce"]
        storage_class_name = "fast"
      }
    }
  }
}

resource "kubernetes_daemonset" "agent" {
  metadata {
    name = "agent"
  }
  spec {
    strategy {
      rolling_update {
        max_unavailable = "2"
      }
    }
    template {
      metadata {}
      spec {
        container {
          name = "agent"
        }
      }
    }
  }
}

resource "kubernetes_job_v1" "once" {
  metadata {
    name = "once"
  }
  spec {
    parallelism = 5
    template {
      metadata {}
      spec {
        container {
          name = "job"
        }
      }
    }
  }
}

resource "kubernetes_cron_job_v1" "nightly" {
  metadata {
    name = "nightly"
  }
  spec {
    schedule = "0 3 * * *"
    job_template {
      metadata {}
      spec {
        template {
          metadata {}
          spec {
            container {
              name = "backup"
            }
          }
        }
      }
    }
  }
}

resource "kubernetes_horizontal_pod_autoscaler" "web" {
  metadata {
    name = "web"
  }
  spec {
    max_replicas = 10
    scale_target_ref {
      kind = "Deployment"
      name = "web"
    }
    target_cpu_utilization_percentage = 80
  }
}

resource "kubernetes_replication_controller" "legacy" {
  metadata {
    name = "legacy"
  }
  spec {
    selector = { app = "legacy" }
    template {
      container {
        name = "legacy"
      }
      node_name = "node-2"
    }
  }
}

resource "kubernetes_csi_driver_v1" "efs" {
  metadata {
    name = "efs.csi.aws.com"
  }
  spec {
    attach_required = false
  }
}
