# Suppressions in Terraform: findings on kubernetes_* resources carry .tf ranges, so
# comments above a block or an attribute, and annotations in a metadata block, apply
# as they do in YAML. The PVL900 of a comment is expected in main.tf.want, since the
# comment's line cannot also hold a want comment.

resource "kubernetes_storage_class_v1" "gp3" {
  metadata {
    name = "gp3"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  reclaim_policy      = "Retain"
}

# pvlint:ignore PVL001 exp:2999-12-31 single-zone test cluster
resource "kubernetes_storage_class_v1" "fast" {
  metadata {
    name = "fast"
  }
  storage_provisioner = "ebs.csi.aws.com"
}
# pvlint:ignore PVL008 every workload of these fixtures mounts this one claim on purpose
resource "kubernetes_persistent_volume_claim_v1" "data" {
  metadata {
    name = "data"
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

# pvlint:ignore rwo-multi-pod,PVL003 above the block: the app takes a leader lock
resource "kubernetes_deployment_v1" "block" {
  metadata {
    name = "block"
  }
  spec {
    replicas = 2
    selector {
      match_labels = { app = "block" }
    }
    template {
      metadata {
        labels = { app = "block" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.data.metadata[0].name
          }
        }
      }
    }
  }
}

resource "kubernetes_deployment_v1" "attribute" {
  metadata {
    name = "attribute"
    annotations = {
      "ignore.pvlint.io/PVL003" = "rollouts are paused by the operator"
    }
  }
  spec {
    // pvlint:ignore PVL002 above the attribute, in // style
    replicas = 3
    selector {
      match_labels = { app = "attribute" }
    }
    template {
      metadata {
        labels = { app = "attribute" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
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

resource "kubernetes_deployment_v1" "problems" {
  metadata {
    name = "problems"
    annotations = {
      "ignore.pvlint.io/PVL003" = "" # want `annotation ignore\.pvlint\.io/PVL003 has no reason`
    }
  }
  spec { # want `Deployment problems \(RollingUpdate \(default\)`
    /* pvlint:ignore PVL002 exp:2020-01-01 expired long ago */
    replicas = 2 # want `Deployment problems \(replicas 2\)`
    selector {
      match_labels = { app = "problems" }
    }
    template {
      metadata {
        labels = { app = "problems" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
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
