# PVL016 and what waits for a claim: Terraform creates resources in parallel unless
# one refers to another.
resource "kubernetes_storage_class_v1" "ebs" {
  metadata {
    name = "ebs-sc"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  reclaim_policy      = "Retain"
}

# Named by a literal string: the Deployment is created alongside the claim and its
# pod binds it. Quiet.
resource "kubernetes_persistent_volume_claim_v1" "mysql" {
  metadata {
    name = "ebs-mysql-pv-claim"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"]
    storage_class_name = kubernetes_storage_class_v1.ebs.metadata[0].name
    resources {
      requests = { storage = "4Gi" }
    }
  }
}

resource "kubernetes_deployment_v1" "mysql" {
  metadata {
    name = "mysql"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "mysql" }
    }
    template {
      metadata {
        labels = { app = "mysql" }
      }
      spec {
        container {
          name  = "mysql"
          image = "mysql:8"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            # A literal: no dependency on the claim.
            claim_name = "ebs-mysql-pv-claim"
          }
        }
      }
    }
  }
}

# Referenced: the Deployment waits for the claim, which waits for its pod. Error.
resource "kubernetes_persistent_volume_claim_v1" "web" {
  metadata {
    name = "web-data"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"]
    storage_class_name = kubernetes_storage_class_v1.ebs.metadata[0].name
    resources {
      requests = { storage = "4Gi" }
    }
  }
}

resource "kubernetes_deployment_v1" "web" {
  metadata {
    name = "web"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "web" }
    }
    template {
      metadata {
        labels = { app = "web" }
      }
      spec {
        container {
          name  = "web"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = kubernetes_persistent_volume_claim_v1.web.metadata[0].name
          }
        }
      }
    }
  }
}

# Mounted by nothing in the configuration: nothing the apply creates binds it. Error.
resource "kubernetes_persistent_volume_claim_v1" "spare" {
  metadata {
    name = "spare"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"]
    storage_class_name = kubernetes_storage_class_v1.ebs.metadata[0].name
    resources {
      requests = { storage = "4Gi" }
    }
  }
}
