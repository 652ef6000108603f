# Which claims hang the apply depends on what waits for them: Terraform creates
# resources in parallel unless one refers to another.

# Negative: the Deployment names the claim by a literal string, so Terraform creates
# it alongside the claim; its pod binds the claim while the claim waits.
resource "kubernetes_persistent_volume_claim_v1" "by_string" {
  metadata {
    name = "by-string"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
  }
}

resource "kubernetes_deployment_v1" "by_string" {
  metadata {
    name = "by-string"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "by-string" }
    }
    template {
      metadata {
        labels = { app = "by-string" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "by-string"
          }
        }
      }
    }
  }
}

# The Deployment refers to the claim through a local: it is created only once the
# claim is bound, which needs its pod.
locals {
  referenced = kubernetes_persistent_volume_claim_v1.referenced.metadata[0].name
}

resource "kubernetes_persistent_volume_claim_v1" "referenced" { # want `^error: PVC referenced waits until it is bound \(wait_until_bound unset, defaults to true\) on StorageClass wffc .* — Deployment referenced mounts it and depends on it \(kubernetes_persistent_volume_claim_v1\.referenced\), so Terraform creates it only after the claim is bound`
  metadata {
    name = "referenced"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
  }
}

resource "kubernetes_deployment_v1" "referenced" {
  metadata {
    name = "referenced"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "referenced" }
    }
    template {
      metadata {
        labels = { app = "referenced" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = local.referenced
          }
        }
      }
    }
  }
}

# A literal name, but depends_on on a resource that itself refers to the claim: the
# Deployment still waits for it.
resource "kubernetes_persistent_volume_claim_v1" "chained" { # want `^error: PVC chained waits .* — Deployment chained mounts it and depends on it \(kubernetes_manifest\.chained\)`
  metadata {
    name = "chained"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
  }
}

resource "kubernetes_manifest" "chained" {
  manifest = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    metadata   = { name = "chained", namespace = "default" }
    data = {
      claim = kubernetes_persistent_volume_claim_v1.chained.metadata[0].name
    }
  }
}

resource "kubernetes_deployment_v1" "chained" {
  depends_on = [kubernetes_manifest.chained]
  metadata {
    name = "chained"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    selector {
      match_labels = { app = "chained" }
    }
    template {
      metadata {
        labels = { app = "chained" }
      }
      spec {
        container {
          name  = "app"
          image = "nginx"
        }
        volume {
          name = "data"
          persistent_volume_claim {
            claim_name = "chained"
          }
        }
      }
    }
  }
}
