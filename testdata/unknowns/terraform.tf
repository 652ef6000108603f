# Values from variables without a value: unknown until apply.
variable "max_replicas" {
  type = number
}

variable "replicas" {
  type = number
}

variable "claim" {
  type = string
}

variable "class" {
  type = string
}

variable "modes" {
  type = list(string)
}

resource "kubernetes_storage_class_v1" "gp3" {
  metadata {
    name = "tf-gp3"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  reclaim_policy      = "Retain"
}

resource "kubernetes_persistent_volume_claim_v1" "api" {
  metadata {
    name = "tf-api"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.gp3.metadata[0].name
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

# An autoscaler whose maximum is unknown: C(w) is unknown, so neither PVL002 (several
# pods) nor PVL005 (exactly one pod) may speak.
resource "kubernetes_deployment_v1" "api" {
  metadata {
    name = "tf-api"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "tf-api" }
    }
    template {
      metadata {
        labels = { app = "tf-api" }
      }
      spec {
        container {
          name  = "api"
          image = "ghcr.io/example/api:1.0.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.api.metadata[0].name
          }
        }
      }
    }
  }
}

resource "kubernetes_horizontal_pod_autoscaler_v2" "api" {
  metadata {
    name = "tf-api"
  }
  spec {
    max_replicas = var.max_replicas
    scale_target_ref {
      api_version = "apps/v1"
      kind        = "Deployment"
      name        = kubernetes_deployment_v1.api.metadata[0].name
    }
  }
}

# Unknown replicas on a known ReadWriteOnce claim.
resource "kubernetes_persistent_volume_claim_v1" "worker" {
  metadata {
    name = "tf-worker"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.gp3.metadata[0].name
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "worker" {
  metadata {
    name = "tf-worker"
  }
  spec {
    replicas = var.replicas
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "tf-worker" }
    }
    template {
      metadata {
        labels = { app = "tf-worker" }
      }
      spec {
        container {
          name  = "worker"
          image = "ghcr.io/example/worker:1.0.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.worker.metadata[0].name
          }
        }
      }
    }
  }
}

# A claim name from a variable: PVL018's case when the workload runs several pods.
resource "kubernetes_deployment_v1" "reader" {
  metadata {
    name = "tf-reader"
  }
  spec {
    replicas = 2
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "tf-reader" }
    }
    template {
      metadata {
        labels = { app = "tf-reader" }
      }
      spec {
        container {
          name  = "reader"
          image = "ghcr.io/example/reader:1.0.0"
        }
        volume { // want `^warning: Deployment tf-reader \(replicas 2\) mounts a PVC whose name is not known statically: its access modes cannot be checked$`
          name = "data"
          persistent_volume_claim {
            claim_name = var.claim
          }
        }
      }
    }
  }
}

# A class and access modes from variables: PVL010 (block-only class), PVL002 (modes)
# and PVL016 (binding mode; wait_until_bound is off) cannot know.
resource "kubernetes_persistent_volume_claim_v1" "media" {
  metadata {
    name = "tf-media"
  }
  spec {
    access_modes       = var.modes
    storage_class_name = var.class
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "media" {
  metadata {
    name = "tf-media"
  }
  spec {
    replicas = 3
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "tf-media" }
    }
    template {
      metadata {
        labels = { app = "tf-media" }
      }
      spec {
        container {
          name  = "media"
          image = "ghcr.io/example/media:1.0.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.media.metadata[0].name
          }
        }
      }
    }
  }
}

# An autoscaler whose target is named by a variable without a value may scale any
# Deployment of its namespace: the single-replica Deployment below may run one pod or
# many, so neither PVL002 nor PVL005 may speak for it.
variable "target" {
  type = string
}

resource "kubernetes_persistent_volume_claim_v1" "reports" {
  metadata {
    name      = "tf-reports"
    namespace = "reports"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.gp3.metadata[0].name
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "reports" {
  metadata {
    name      = "tf-reports"
    namespace = "reports"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "tf-reports" }
    }
    template {
      metadata {
        labels = { app = "tf-reports" }
      }
      spec {
        container {
          name  = "reports"
          image = "ghcr.io/example/reports:1.0.0"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.reports.metadata[0].name
          }
        }
      }
    }
  }
}

resource "kubernetes_horizontal_pod_autoscaler_v2" "reports" {
  metadata {
    name      = "tf-reports"
    namespace = "reports"
  }
  spec {
    max_replicas = 4
    scale_target_ref {
      api_version = "apps/v1"
      kind        = "Deployment"
      name        = var.target
    }
  }
}
