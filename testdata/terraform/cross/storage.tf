resource "kubernetes_storage_class_v1" "zonal" {
  metadata {
    name = "zonal"
  }
  storage_provisioner = "ebs.csi.aws.com"
}

resource "kubernetes_persistent_volume_claim_v1" "reports" {
  metadata {
    name      = "reports"
    namespace = "shop"
  }
  spec {
    access_modes = ["ReadWriteOnce"]
    resources {
      requests = {
        storage = "5Gi"
      }
    }
  }
}

resource "kubernetes_manifest" "cache" {
  manifest = yamldecode(file("cache-claim.yaml"))
}
