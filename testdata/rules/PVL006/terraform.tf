# A Terraform Deployment of three replicas on a ReadWriteOncePod claim; the class is
# storage.yaml's.
resource "kubernetes_persistent_volume_claim_v1" "tf_shared" {
  metadata {
    name = "tf-shared"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"] # want `^error: PVC tf-shared \(ReadWriteOncePod, class gp3 → ebs\.csi\.aws\.com\) is mounted by Deployment tf-web \(replicas 3\): ReadWriteOncePod admits one pod`
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
    replicas = 3
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
            claim_name = kubernetes_persistent_volume_claim_v1.tf_shared.metadata[0].name
          }
        }
      }
    }
  }
}

# Trap: a Terraform Job with parallelism and no completions runs one pod at a time:
# the provider sends completions = 1.
resource "kubernetes_persistent_volume_claim_v1" "tf_exclusive" {
  metadata {
    name = "tf-exclusive"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"]
    storage_class_name = "gp3"
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_job_v1" "tf_import" {
  metadata {
    name = "tf-import"
  }
  spec {
    parallelism = 4
    template {
      metadata {}
      spec {
        container {
          name  = "import"
          image = "busybox:1.37"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "tf-exclusive"
          }
        }
      }
    }
  }
}
