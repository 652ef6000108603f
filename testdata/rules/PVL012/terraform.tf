# Terraform has no Rollout resource; kubernetes_manifest carries one. The claims are
# storage.yaml's.
resource "kubernetes_manifest" "tf_blue_green" {
  manifest = {
    apiVersion = "argoproj.io/v1alpha1"
    kind       = "Rollout"
    metadata = {
      name      = "tf-blue-green"
      namespace = "default"
    }
    spec = {
      replicas = 2
      strategy = {
        blueGreen = { # want `^error: Rollout tf-blue-green \(blueGreen, replicas 2\) mounts PVC data \(ReadWriteOnce, class gp3 → ebs\.csi\.aws\.com\)`
          activeService = "tf-blue-green"
        }
      }
      template = {
        spec = {
          containers = [{ name = "web", image = "nginx:1.27" }]
          volumes    = [{ name = "data", persistentVolumeClaim = { claimName = "data" } }]
        }
      }
    }
  }
}

resource "kubernetes_manifest" "tf_canary" {
  manifest = {
    apiVersion = "argoproj.io/v1alpha1"
    kind       = "Rollout"
    metadata = {
      name      = "tf-canary"
      namespace = "default"
    }
    spec = {
      strategy = {
        canary = { maxSurge = 0, maxUnavailable = 1 }
      }
      template = {
        spec = {
          containers = [{ name = "web", image = "nginx:1.27" }]
          volumes    = [{ name = "data", persistentVolumeClaim = { claimName = "data" } }]
        }
      }
    }
  }
}
