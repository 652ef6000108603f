# The same hazards written with the hashicorp/kubernetes provider.
resource "kubernetes_storage_class_v1" "gp2" {
  metadata {
    name = "gp2-tf"
  }
  storage_provisioner = "kubernetes.io/aws-ebs" # want `^warning: StorageClass gp2-tf uses provisioner kubernetes\.io/aws-ebs, whose in-tree plugin is not available since Kubernetes 1\.27`
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_storage_class" "gluster" {
  metadata {
    name = "gluster-tf"
  }
  storage_provisioner = "kubernetes.io/glusterfs" # want `^error: StorageClass gluster-tf uses provisioner kubernetes\.io/glusterfs, an in-tree plugin removed in Kubernetes 1\.26`
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_persistent_volume_v1" "legacy" {
  metadata {
    name = "legacy-tf"
  }
  spec {
    capacity = {
      storage = "10Gi"
    }
    access_modes = ["ReadWriteOnce"]
    persistent_volume_source {
      aws_elastic_block_store { # want `^warning: PV legacy-tf has an in-tree awsElasticBlockStore source \(kubernetes\.io/aws-ebs\)`
        volume_id = "vol-0123456789abcdef0"
      }
    }
  }
}

# Negatives: the CSI source, and the CSI provisioner.
resource "kubernetes_persistent_volume_v1" "csi" {
  metadata {
    name = "csi-tf"
  }
  spec {
    capacity = {
      storage = "10Gi"
    }
    access_modes = ["ReadWriteOnce"]
    persistent_volume_source {
      csi {
        driver        = "ebs.csi.aws.com"
        volume_handle = "vol-0123456789abcdef0"
      }
    }
  }
}

resource "kubernetes_storage_class_v1" "gp3" {
  metadata {
    name = "gp3-tf"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_deployment_v1" "legacy" {
  metadata {
    name = "legacy-tf"
  }
  spec {
    strategy {
      type = "Recreate"
    }
    template {
      spec {
        container {
          name  = "app"
          image = "registry.example.com/app:1.0"
        }
        volume {
          name = "disk"
          gce_persistent_disk { # want `^warning: Deployment legacy-tf volume disk has an in-tree gcePersistentDisk source \(kubernetes\.io/gce-pd\)`
            pd_name = "legacy"
          }
        }
        volume {
          name = "share"
          nfs {
            server = "nfs.example.com"
            path   = "/exports"
          }
        }
      }
    }
  }
}
