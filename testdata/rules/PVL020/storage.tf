# reclaim_policy defaults to Delete in the provider as in Kubernetes.
resource "kubernetes_storage_class_v1" "fast" {
  metadata {
    name = "fast-tf"
  }
  storage_provisioner = "pd.csi.storage.gke.io" # want `^note: StorageClass fast-tf \(provisioner pd\.csi\.storage\.gke\.io, reclaimPolicy unset, defaults to Delete\) backs claim template data \(ReadWriteOnce\) of StatefulSet queue-tf: deleting the claim deletes the volume and its data$`
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_storage_class_v1" "kept" {
  metadata {
    name = "kept-tf"
  }
  storage_provisioner = "pd.csi.storage.gke.io"
  reclaim_policy      = "Retain"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_stateful_set_v1" "queue" {
  metadata {
    name = "queue-tf"
  }
  spec {
    replicas     = 3
    service_name = "queue"
    template {
      spec {
        container {
          name  = "queue"
          image = "registry.example.com/queue:5.0"
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "data"
      }
      spec {
        access_modes       = ["ReadWriteOnce"]
        storage_class_name = kubernetes_storage_class_v1.fast.metadata[0].name
        resources {
          requests = {
            storage = "20Gi"
          }
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "archive"
      }
      spec {
        access_modes       = ["ReadWriteOnce"]
        storage_class_name = kubernetes_storage_class_v1.kept.metadata[0].name
      }
    }
  }
}
