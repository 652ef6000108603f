# A claim pre-bound with volume_name to a PV that has no class, and no
# storage_class_name of its own: the cluster's default class is applied and the claim
# never binds. Terraform cannot send "" (the provider drops it), so the advice differs
# from YAML's.
resource "kubernetes_persistent_volume_v1" "archive" {
  metadata {
    name = "archive-pv"
  }
  spec {
    capacity = {
      storage = "50Gi"
    }
    access_modes = ["ReadWriteOnce"]
    persistent_volume_source {
      gce_persistent_disk {
        pd_name = "archive-disk"
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "archive" {
  metadata {
    name = "archive"
  }
  spec {
    access_modes = ["ReadWriteOnce"]
    resources {
      requests = {
        storage = "50Gi"
      }
    }
    volume_name = kubernetes_persistent_volume_v1.archive.metadata[0].name # want `^error: PVC archive is pre-bound to PV archive-pv, which has no class, but sets no storageClassName: .*; Terraform cannot send storage_class_name = "": give the PV and the claim the same non-empty storage_class_name, or declare the claim with kubernetes_manifest$`
  }
  wait_until_bound = false
}

# The fix: one class name on both sides.
resource "kubernetes_persistent_volume_v1" "ledger" {
  metadata {
    name = "ledger-pv"
  }
  spec {
    capacity = {
      storage = "50Gi"
    }
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "static"
    persistent_volume_source {
      gce_persistent_disk {
        pd_name = "ledger-disk"
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "ledger" {
  metadata {
    name = "ledger"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "static"
    resources {
      requests = {
        storage = "50Gi"
      }
    }
    volume_name = kubernetes_persistent_volume_v1.ledger.metadata[0].name
  }
  wait_until_bound = false
}
