# storage_class_name = "" is dropped by the provider: the claim gets the default class
# (gp3 here) and never binds the class-less PV it names.
resource "kubernetes_persistent_volume_v1" "nfs" {
  metadata {
    name = "nfs-tf"
  }
  spec {
    capacity = {
      storage = "10Gi"
    }
    access_modes       = ["ReadWriteMany"]
    storage_class_name = ""
    persistent_volume_source {
      nfs {
        server = "nfs.example.com"
        path   = "/exports/tf"
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "static" {
  metadata {
    name = "static-tf"
  }
  spec {
    access_modes       = ["ReadWriteMany"]
    storage_class_name = "" # want `^error: PVC static-tf sets storage_class_name = "", which the Terraform provider drops as unset: it gets the default StorageClass and never binds to PV nfs-tf \(volume_name\), which has no class: "Cannot bind to requested volume \\"nfs-tf\\": storageClassName does not match"$`
    volume_name        = kubernetes_persistent_volume_v1.nfs.metadata[0].name
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}

# No volume_name, but class-less PVs exist: static binding is the likely intent.
resource "kubernetes_stateful_set_v1" "cache" {
  metadata {
    name = "cache-tf"
  }
  spec {
    service_name = "cache"
    template {
      spec {
        container {
          name  = "cache"
          image = "redis:7"
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "data"
      }
      spec {
        access_modes       = ["ReadWriteOnce"]
        storage_class_name = "" # want `^error: StatefulSet cache-tf \(volume_claim_template\) sets storage_class_name = "", which the Terraform provider drops as unset: it gets the default StorageClass and never binds to a class-less PV such as`
      }
    }
  }
}

# The fix: one non-empty class name on both sides.
resource "kubernetes_persistent_volume_v1" "manual" {
  metadata {
    name = "manual-tf"
  }
  spec {
    capacity = {
      storage = "10Gi"
    }
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "manual"
    persistent_volume_source {
      host_path {
        path = "/mnt/tf"
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "manual" {
  metadata {
    name = "manual-tf"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "manual"
    volume_name        = "manual-tf"
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
  wait_until_bound = false
}
