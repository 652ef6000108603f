locals {
  claim = kubernetes_persistent_volume_claim_v1.data.metadata[0].name
}

resource "kubernetes_persistent_volume_claim_v1" "data" {
  metadata {
    name = var.claim_name
  }
  spec {
    access_modes = ["ReadWriteOnce"]
    resources {
      requests = { storage = "1Gi" }
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "logs" {
  metadata {
    name = "logs"
  }
  spec {
    access_modes = ["ReadWriteOnce"]
    resources {
      requests = { storage = "1Gi" }
    }
  }
}

variable "claim_name" {
  type = string
}

# Through a local: depends on the claim, and names it by address.
resource "kubernetes_deployment_v1" "web" {
  metadata {
    name = "web"
  }
  spec {
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
            claim_name = local.claim
          }
        }
      }
    }
  }
}

# A literal name: no dependency, no reference.
resource "kubernetes_deployment_v1" "literal" {
  metadata {
    name = "literal"
  }
  spec {
    selector {
      match_labels = { app = "literal" }
    }
    template {
      metadata {
        labels = { app = "literal" }
      }
      spec {
        container {
          name  = "c"
          image = "nginx"
        }
        volume {
          name = "logs"
          persistent_volume_claim {
            claim_name = "logs"
          }
        }
      }
    }
  }
}

# depends_on alone.
resource "kubernetes_deployment_v1" "after" {
  depends_on = [kubernetes_persistent_volume_claim_v1.logs]
  metadata {
    name = "after"
  }
  spec {
    selector {
      match_labels = { app = "after" }
    }
    template {
      metadata {
        labels = { app = "after" }
      }
      spec {
        container {
          name  = "c"
          image = "nginx"
        }
      }
    }
  }
}

# Through a module input, and a module call's depends_on.
module "app" {
  source     = "./modules/app"
  claim      = kubernetes_persistent_volume_claim_v1.data.metadata[0].name
  depends_on = [kubernetes_persistent_volume_claim_v1.logs]
}
