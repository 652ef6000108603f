# Terraform workloads whose claims pvlint may or may not see.
resource "kubernetes_deployment_v1" "tf_missing" {
  metadata {
    name = "tf-missing"
  }
  spec {
    replicas = 2
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
        }
        volume { # want `^warning: Deployment tf-missing \(replicas 2\) mounts PVC tf-elsewhere, which is not in the linted set \(--context PATH with the cluster's claims would give it\): its access modes cannot be checked`
          name = "data"
          persistent_volume_claim {
            claim_name = "tf-elsewhere"
          }
        }
      }
    }
  }
}

# The claim's name comes from a data source: unknown until apply.
data "kubernetes_persistent_volume_claim_v1" "existing" {
  metadata {
    name = "existing"
  }
}

resource "kubernetes_deployment_v1" "tf_from_data" {
  metadata {
    name = "tf-from-data"
  }
  spec {
    replicas = 2
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
        }
        volume { # want `^warning: Deployment tf-from-data \(replicas 2\) mounts a PVC whose name is not known statically: its access modes cannot be checked`
          name = "data"
          persistent_volume_claim {
            claim_name = data.kubernetes_persistent_volume_claim_v1.existing.metadata[0].name
          }
        }
      }
    }
  }
}

# Negative: the YAML claim "known" (storage.yaml) resolves a Terraform consumer.
resource "kubernetes_deployment_v1" "tf_known" {
  metadata {
    name = "tf-known"
  }
  spec {
    replicas = 2
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
            claim_name = "known"
          }
        }
      }
    }
  }
}

# An unknown namespace: a claim in the same unknown namespace is found, one in
# "default" cannot be assumed to be the same.
variable "namespace" {
  type = string
}

resource "kubernetes_persistent_volume_claim_v1" "scratch" {
  metadata {
    name      = "scratch"
    namespace = var.namespace
  }
  spec {
    access_modes = ["ReadWriteMany"]
  }
  wait_until_bound = false
}

resource "kubernetes_deployment_v1" "tf_unknown_namespace" {
  metadata {
    name      = "tf-unknown-namespace"
    namespace = var.namespace
  }
  spec {
    replicas = 2
    template {
      metadata {}
      spec {
        container {
          name  = "web"
          image = "nginx:1.27"
        }
        volume {
          name = "scratch"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.scratch.metadata[0].name
          }
        }
        volume { # want `^warning: Deployment tf-unknown-namespace \(replicas 2\) mounts PVC known, which is not in the linted set`
          name = "known"
          persistent_volume_claim {
            claim_name = "known"
          }
        }
      }
    }
  }
}

module "worker" {
  source = "./modules/worker"
  claim  = "tf-worker-data"
}
