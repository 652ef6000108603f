# A class named after variables that have no value here (set per environment by the
# pipeline): the name is not known statically, so findings name the class by the
# expression that decides it, never "null".
variable "environment" {
  type = string
}

resource "kubernetes_storage_class_v1" "per_env" { # want `^warning: StorageClass disk-\$\{var\.environment\} \(provisioner disk\.csi\.azure\.com, zonal block storage\) binds volumes immediately \(volumeBindingMode Immediate\)`
  metadata {
    name = "disk-${var.environment}"
  }
  storage_provisioner = "disk.csi.azure.com"
}

resource "kubernetes_storage_class_v1" "named_by_var" { # want `^warning: StorageClass \$\{var\.environment\} \(provisioner ebs\.csi\.aws\.com, zonal block storage\)`
  metadata {
    name = var.environment
  }
  storage_provisioner = "ebs.csi.aws.com"
}
