# Terraform claims at Kubernetes 1.24; the class is claims.yaml's.
resource "kubernetes_persistent_volume_claim_v1" "tf_alone" {
  metadata {
    name = "tf-alone"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"] # want `^warning: PVC tf-alone asks for ReadWriteOncePod, which is alpha in Kubernetes 1\.24`
    storage_class_name = "gp3"
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = false
}
