# Terraform claims; the classes are storage.yaml's.
resource "kubernetes_persistent_volume_claim_v1" "tf_mixed" {
  metadata {
    name = "tf-mixed"
  }
  spec {
    access_modes       = ["ReadWriteOnce", "ReadWriteOncePod"] # want `^error: PVC tf-mixed asks for ReadWriteOncePod together with ReadWriteOnce`
    storage_class_name = "gp3"
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_persistent_volume_claim_v1" "tf_local" {
  metadata {
    name = "tf-local"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"]
    storage_class_name = "local-path" # want `^warning: PVC tf-local \(ReadWriteOncePod, class local-path → rancher\.io/local-path\): rancher\.io/local-path is not a CSI driver`
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_persistent_volume_claim_v1" "tf_alone" {
  metadata {
    name = "tf-alone"
  }
  spec {
    access_modes       = ["ReadWriteOncePod"]
    storage_class_name = "gp3"
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = false
}
