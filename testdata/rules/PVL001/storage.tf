# Terraform classes. The provider sends volumeBindingMode Immediate when
# volume_binding_mode is unset, so the finding sits at the resource line.
resource "kubernetes_storage_class_v1" "tf_gp3" { # want `^warning: StorageClass tf-gp3 \(provisioner ebs\.csi\.aws\.com, zonal block storage\) binds volumes immediately \(volumeBindingMode Immediate\)`
  metadata {
    name = "tf-gp3"
  }
  storage_provisioner = "ebs.csi.aws.com"
}

resource "kubernetes_storage_class" "tf_local" {
  metadata {
    name = "tf-local"
  }
  storage_provisioner = "kubernetes.io/no-provisioner"
  volume_binding_mode = "Immediate" # want `^error: StorageClass tf-local \(provisioner kubernetes\.io/no-provisioner, node-local\) binds volumes immediately \(volumeBindingMode Immediate\)`
}

# Negative: the fix.
resource "kubernetes_storage_class_v1" "tf_wffc" {
  metadata {
    name = "tf-wffc"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
}

# A value from a variable's default.
variable "pd_binding" {
  type    = string
  default = "Immediate"
}

resource "kubernetes_storage_class_v1" "tf_pd" {
  metadata {
    name = "tf-pd"
  }
  storage_provisioner = "pd.csi.storage.gke.io"
  volume_binding_mode = var.pd_binding # want `^warning: StorageClass tf-pd \(provisioner pd\.csi\.storage\.gke\.io, zonal block storage\) binds volumes immediately \(volumeBindingMode Immediate\)`
}

# Negative: the default Immediate is overridden in terraform.tfvars.
variable "azure_binding" {
  type    = string
  default = "Immediate"
}

resource "kubernetes_storage_class_v1" "tf_azure" {
  metadata {
    name = "tf-azure"
  }
  storage_provisioner = "disk.csi.azure.com"
  volume_binding_mode = var.azure_binding
}

# Pinned to one zone through allowed_topologies: a note.
resource "kubernetes_storage_class_v1" "tf_one_zone" {
  metadata {
    name = "tf-one-zone"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "Immediate" # want `^note: StorageClass tf-one-zone \(provisioner ebs\.csi\.aws\.com, allowedTopologies pins zone eu-west-1b\)`
  allowed_topologies {
    match_label_expressions {
      key    = "topology.kubernetes.io/zone"
      values = ["eu-west-1b"]
    }
  }
}

# Classes made by a local module, one per for_each key.
module "classes" {
  source      = "./modules/class"
  provisioner = "rancher.io/local-path"
  names       = ["tf-path-a", "tf-path-b"]
}

# Network file storage (issue 28): a note that does not speak of zones, for an NFS
# external provisioner recognised by its name as for the CSI drivers.
resource "kubernetes_storage_class_v1" "tf_nfs" { # want `^note: StorageClass tf-nfs \(provisioner k8s-sigs\.io/nfs-subdir-external-provisioner, reachable from every node\) binds volumes immediately \(volumeBindingMode Immediate\): placement does not matter for this backend, but WaitForFirstConsumer keeps provisioning in step with the pod$`
  metadata {
    name = "tf-nfs"
  }
  storage_provisioner = "k8s-sigs.io/nfs-subdir-external-provisioner"
}

resource "kubernetes_storage_class_v1" "tf_efs" {
  metadata {
    name = "tf-efs"
  }
  storage_provisioner = "efs.csi.aws.com"
  volume_binding_mode = "Immediate" # want `^note: StorageClass tf-efs \(provisioner efs\.csi\.aws\.com, reachable from every node\) binds volumes immediately \(volumeBindingMode Immediate\): placement does not matter for this backend`
}

resource "kubernetes_storage_class_v1" "tf_nfs_wffc" {
  metadata {
    name = "tf-nfs-wffc"
  }
  storage_provisioner = "nfs.csi.k8s.io"
  volume_binding_mode = "WaitForFirstConsumer"
}
