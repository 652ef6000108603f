resource "kubernetes_storage_class_v1" "broken" {
  metadata {
    name = "broken"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = 
}
