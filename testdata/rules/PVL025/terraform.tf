# kubernetes_manifest carries the custom resource as it is: the same mapping applies.
resource "kubernetes_storage_class_v1" "local" {
  metadata {
    name = "local-tf"
  }
  storage_provisioner = "rancher.io/local-path"
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
      instances = 3
      affinity = {
        podAntiAffinityType = "required"
      }
      storage = {
        storageClass = kubernetes_storage_class_v1.local.metadata[0].name // want `^error: Cluster pg-tf \(CloudNativePG, instances 3\) keeps its pods apart with affinity\.podAntiAffinityType required on kubernetes\.io/hostname, but spec\.storage uses class local-tf`
        size         = "10Gi"
      }
    }
  }
}
