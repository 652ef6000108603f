# Linted with its own plan (plan.json): the class is reported once, here, not also
# in the plan.
resource "kubernetes_storage_class_v1" "both" { # want `^warning: StorageClass both \(provisioner ebs\.csi\.aws\.com, zonal block storage\)`
  metadata {
    name = "both"
  }
  storage_provisioner = "ebs.csi.aws.com"
}
