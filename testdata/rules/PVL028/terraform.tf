resource "kubernetes_manifest" "pg" {
  manifest = {
    apiVersion = "postgresql.cnpg.io/v1beta1" // want `^note: Cluster pg-tf has apiVersion postgresql\.cnpg\.io/v1beta1, which pvlint does not model for CloudNativePG's Cluster \(it models postgresql\.cnpg\.io/v1\)`
    kind       = "Cluster"
    metadata = {
      name      = "pg-tf"
      namespace = "default"
    }
    spec = {
      instances = 3
    }
  }
}
