# Terraform Deployments mounting the YAML claims of storage.yaml.
resource "kubernetes_deployment_v1" "tf_defaults" {
  metadata {
    name = "tf-defaults"
  }
  spec { # want `^error: Deployment tf-defaults \(RollingUpdate \(default\), maxSurge 25% \(default\) → 1\) mounts PVC data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\): a new pod on another node cannot attach it`
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

locals {
  surge = "50%"
}

resource "kubernetes_deployment_v1" "tf_surge" {
  metadata {
    name = "tf-surge"
  }
  spec {
    strategy {
      type = "RollingUpdate"
      rolling_update {
        max_surge       = local.surge # want `^error: Deployment tf-surge \(maxSurge 50% → 1\) mounts PVC data`
        max_unavailable = "0"
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

# Negative: the fixes.
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

resource "kubernetes_deployment_v1" "tf_no_surge" {
  metadata {
    name = "tf-no-surge"
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
            claim_name = "data"
          }
        }
      }
    }
  }
}

# The strategy comes from a module input.
module "web" {
  source   = "./modules/web"
  name     = "tf-module-web"
  strategy = "RollingUpdate"
}

module "web_recreate" {
  source   = "./modules/web"
  name     = "tf-module-recreate"
  strategy = "Recreate"
}
