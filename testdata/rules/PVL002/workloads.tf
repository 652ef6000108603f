# Terraform workloads sharing claims with YAML classes (storage.yaml): one graph.
resource "kubernetes_persistent_volume_claim_v1" "tf_data" {
  metadata {
    name = "tf-data"
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

resource "kubernetes_deployment_v1" "tf_web" {
  metadata {
    name = "tf-web"
  }
  spec {
    replicas = 3 # want `^error: Deployment tf-web \(replicas 3\) mounts PVC tf-data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\): pods on a second node fail to attach it`
    selector {
      match_labels = {
        app = "tf-web"
      }
    }
    template {
      metadata {
        labels = {
          app = "tf-web"
        }
      }
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
          volume_mount {
            name       = "data"
            mount_path = "/data"
          }
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.tf_data.metadata[0].name
          }
        }
      }
    }
  }
}

# The YAML claim "data", mounted on every node.
resource "kubernetes_daemon_set_v1" "tf_agent" {
  metadata {
    name = "tf-agent"
  }
  spec {
    selector {
      match_labels = {
        app = "tf-agent"
      }
    }
    template {
      metadata {
        labels = {
          app = "tf-agent"
        }
      }
      spec {
        container {
          name  = "agent"
          image = "busybox"
        }
        volume { # want `^error: DaemonSet tf-agent \(one pod per node\) mounts PVC data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\)`
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
      }
    }
  }
}

# Negative: Terraform sends completions = 1 when unset, so one pod runs at a time.
resource "kubernetes_job_v1" "tf_serial" {
  metadata {
    name = "tf-serial"
  }
  spec {
    parallelism = 5
    template {
      metadata {}
      spec {
        container {
          name  = "job"
          image = "busybox"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "tf-data"
          }
        }
        restart_policy = "Never"
      }
    }
  }
}

resource "kubernetes_job_v1" "tf_parallel" {
  metadata {
    name = "tf-parallel"
  }
  spec {
    parallelism = 3 # want `^error: Job tf-parallel \(parallelism 3\) mounts PVC tf-data`
    completions = 3
    template {
      metadata {}
      spec {
        container {
          name  = "job"
          image = "busybox"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "tf-data"
          }
        }
        restart_policy = "Never"
      }
    }
  }
}

# An autoscaler in Terraform raises a Deployment of one replica.
resource "kubernetes_horizontal_pod_autoscaler_v2" "tf_scaled" {
  metadata {
    name = "tf-scaled"
  }
  spec {
    min_replicas = 1
    max_replicas = 4
    scale_target_ref {
      api_version = "apps/v1"
      kind        = "Deployment"
      name        = "tf-scaled"
    }
  }
}

resource "kubernetes_deployment_v1" "tf_scaled" {
  metadata {
    name = "tf-scaled"
  }
  spec {
    replicas = 1 # want `^error: Deployment tf-scaled \(HorizontalPodAutoscaler tf-scaled max 4\) mounts PVC tf-data`
    selector {
      match_labels = {
        app = "tf-scaled"
      }
    }
    template {
      metadata {
        labels = {
          app = "tf-scaled"
        }
      }
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "tf-data"
          }
        }
      }
    }
  }
}

# Negative: replicas from a variable with no value is unknown, not guessed.
variable "unknown_replicas" {
  type = number
}

# Replicas through a local module's input: reported in the module.
module "app" {
  source   = "./modules/app"
  name     = "tf-module-app"
  replicas = 2
  claim    = "tf-data"
}

module "unknown" {
  source   = "./modules/app"
  name     = "tf-unknown"
  replicas = var.unknown_replicas
  claim    = "tf-data"
}

# A Terraform class and claim that a YAML Deployment mounts (terraform-claims.yaml).
resource "kubernetes_storage_class_v1" "tf_block" {
  metadata {
    name = "tf-block"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_persistent_volume_claim_v1" "tf_block_data" {
  metadata {
    name = "tf-block-data"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.tf_block.metadata[0].name
  }
  wait_until_bound = false
}
