resource "kubernetes_persistent_volume_claim_v1" "data" {
  metadata {
    name = "data"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = ""
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_persistent_volume_v1" "disk" {
  metadata {
    name = "disk"
  }
  spec {
    capacity = {
      storage = "1Gi"
    }
    access_modes = ["ReadWriteOnce"]
    persistent_volume_source {
      gce_persistent_disk {
        pd_name = "disk-1"
      }
    }
  }
}

resource "kubernetes_persistent_volume" "ceph" {
  metadata {
    name = "ceph"
  }
  spec {
    capacity     = { storage = "1Gi" }
    access_modes = ["ReadWriteMany"]
    persistent_volume_source {
      ceph_fs {
        monitors = ["10.0.0.1:6789"]
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim" "bound" {
  metadata {
    name = "bound"
  }
  spec {
    access_modes = ["ReadWriteOnce"]
  }
}
