resource "kubernetes_storage_class_v1" "ok" {
  metadata {
    name = "ok"
  }
  storage_provisioner = "ebs.csi.aws.com"
}
