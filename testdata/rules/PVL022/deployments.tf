# Terraform Deployments mounting the YAML claims of storage.yaml.
resource "kubernetes_deployment_v1" "tf_no_surge" {
  metadata {
    name = "tf-no-surge"
  }
  spec {
    replicas = 1
    strategy {
      type = "RollingUpdate"
      rolling_update {
        max_surge       = "0" # want `^warning: Deployment tf-no-surge \(replicas 1, maxSurge 0 → 0\) mounts PVC data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\): the replacement pod is created as soon as the old pod starts terminating`
        max_unavailable = "1"
      }
    }
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
      }
    }
  }
}

# Negative: a ReadWriteOncePod claim declared in Terraform, with the same strategy.
resource "kubernetes_persistent_volume_claim_v1" "tf_exclusive" {
  metadata {
    name = "tf-exclusive"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"]
    storage_class_name = "gp3"
    resources {
      requests = {
        storage = "5Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "tf_rwop" {
  metadata {
    name = "tf-rwop"
  }
  spec {
    strategy {
      rolling_update {
        max_surge       = "0"
        max_unavailable = "1"
      }
    }
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.tf_exclusive.metadata[0].name
          }
        }
      }
    }
  }
}

# Negative: Recreate.
resource "kubernetes_deployment" "tf_recreate" {
  metadata {
    name = "tf-recreate"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "data"
          }
        }
      }
    }
  }
}
