# A world without PersistentVolumes: storage_class_name = "" most likely meant "no
# class" by mistake, and the claim is provisioned from the default class. A warning.
resource "kubernetes_persistent_volume_claim_v1" "data" {
  metadata {
    name = "data"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "" # want `^warning: PVC data sets storage_class_name = "", which the Terraform provider drops as unset: it gets the default StorageClass instead of no class$`
    resources {
      requests = {
        storage = "5Gi"
      }
    }
  }
  wait_until_bound = false
}

# A claim naming a PV that is not in the configuration is still static binding.
resource "kubernetes_persistent_volume_claim_v1" "named" {
  metadata {
    name = "named"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "" # want `^error: PVC named sets storage_class_name = "", which the Terraform provider drops as unset: it gets the default StorageClass, so it binds PV elsewhere \(volume_name\) only if that PV has the default class$`
    volume_name        = "elsewhere"
    resources {
      requests = {
        storage = "5Gi"
      }
    }
  }
  wait_until_bound = false
}
