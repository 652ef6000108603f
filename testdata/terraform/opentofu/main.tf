# Terraform reads this file; OpenTofu reads main.tofu instead (same base name), so
# pvlint, which reads a module as OpenTofu does, never reports the class below.
resource "kubernetes_storage_class_v1" "gp3" {
  metadata {
    name = "gp3"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "Immediate"
}
