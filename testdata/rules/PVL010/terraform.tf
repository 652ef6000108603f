# Terraform classes and claims.
resource "kubernetes_storage_class_v1" "tf_gp3" {
  metadata {
    name = "tf-gp3"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  parameters = {
    type = "gp3"
  }
}

resource "kubernetes_storage_class_v1" "tf_io2" {
  metadata {
    name = "tf-io2"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
  parameters = {
    type = "io2"
    iops = "10000"
  }
}

resource "kubernetes_persistent_volume_claim_v1" "tf_rwx" {
  metadata {
    name = "tf-rwx"
  }
  spec {
    access_modes       = ["ReadWriteMany"] # want `^error: PVC tf-rwx \(ReadWriteMany, class tf-gp3 → ebs\.csi\.aws\.com\) asks for ReadWriteMany in Filesystem mode`
    storage_class_name = kubernetes_storage_class_v1.tf_gp3.metadata[0].name
    resources {
      requests = {
        storage = "20Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_persistent_volume_claim_v1" "tf_gp3_block" {
  metadata {
    name = "tf-gp3-block"
  }
  spec {
    access_modes       = ["ReadWriteMany"] # want `^error: PVC tf-gp3-block .* only with type io2, and class tf-gp3's parameters\.type is gp3`
    volume_mode        = "Block"
    storage_class_name = kubernetes_storage_class_v1.tf_gp3.metadata[0].name
    resources {
      requests = {
        storage = "20Gi"
      }
    }
  }
  wait_until_bound = false
}

# The documented EBS multi-attach setup, and a StatefulSet on file storage.
resource "kubernetes_persistent_volume_claim_v1" "tf_io2_block" {
  metadata {
    name = "tf-io2-block"
  }
  spec {
    access_modes       = ["ReadWriteMany"]
    volume_mode        = "Block"
    storage_class_name = kubernetes_storage_class_v1.tf_io2.metadata[0].name
    resources {
      requests = {
        storage = "20Gi"
      }
    }
  }
  wait_until_bound = false
}

resource "kubernetes_stateful_set_v1" "tf_sts" {
  metadata {
    name = "tf-sts"
  }
  spec {
    service_name = "tf-sts"
    template {
      metadata {}
      spec {
        container {
          name  = "app"
          image = "registry.example.com/app:1.0"
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "shared"
      }
      spec {
        access_modes       = ["ReadWriteMany"]
        storage_class_name = "efs"
        resources {
          requests = {
            storage = "5Gi"
          }
        }
      }
    }
    volume_claim_template {
      metadata {
        name = "disk"
      }
      spec {
        access_modes       = ["ReadWriteMany"] # want `^error: volumeClaimTemplate disk of StatefulSet tf-sts \(ReadWriteMany, class azure → disk\.csi\.azure\.com\) asks for ReadWriteMany in Filesystem mode`
        storage_class_name = "azure"
        resources {
          requests = {
            storage = "5Gi"
          }
        }
      }
    }
  }
}
