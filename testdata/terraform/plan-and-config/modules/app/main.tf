resource "kubernetes_persistent_volume_claim_v1" "data" {
  for_each = toset(["a"])
  metadata {
    name      = "data-${each.key}"
    namespace = "shop"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "fast"
    resources {
      requests = { storage = "1Gi" }
    }
  }
  wait_until_bound = false
}
