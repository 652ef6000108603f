# The provider sends allow_volume_expansion = true when it is not set: only an
# explicit false disallows expansion.
resource "kubernetes_storage_class_v1" "fixed" {
  metadata {
    name = "fixed-tf"
  }
  storage_provisioner    = "pd.csi.storage.gke.io"
  volume_binding_mode    = "WaitForFirstConsumer"
  allow_volume_expansion = false
}

resource "kubernetes_storage_class_v1" "provider_default" {
  metadata {
    name = "provider-default-tf"
  }
  storage_provisioner = "pd.csi.storage.gke.io"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_manifest" "pg" {
  manifest = {
    apiVersion = "postgresql.cnpg.io/v1"
    kind       = "Cluster"
    metadata = {
      name      = "pg-tf"
      namespace = "default"
    }
    spec = {
      instances = 2
      storage = {
        storageClass = kubernetes_storage_class_v1.fixed.metadata[0].name // want `^note: spec\.storage of CloudNativePG Cluster pg-tf uses class fixed-tf \(provisioner pd\.csi\.storage\.gke\.io, allowVolumeExpansion false\)`
        size         = "10Gi"
      }
    }
  }
}

resource "kubernetes_manifest" "pg_default" {
  manifest = {
    apiVersion = "postgresql.cnpg.io/v1"
    kind       = "Cluster"
    metadata = {
      name      = "pg-tf-default"
      namespace = "default"
    }
    spec = {
      instances = 2
      storage = {
        storageClass = kubernetes_storage_class_v1.provider_default.metadata[0].name
        size         = "10Gi"
      }
    }
  }
}
