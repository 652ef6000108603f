# Terraform writes the annotation as a map entry; "True" is ignored there too.
resource "kubernetes_storage_class_v1" "premium" {
  metadata {
    name = "premium-tf"
    annotations = {
      "storageclass.kubernetes.io/is-default-class" = "True" # want `^warning: StorageClass premium-tf \(provisioner disk\.csi\.azure\.com\) sets storageclass\.kubernetes\.io/is-default-class to "True", which Kubernetes ignores`
    }
  }
  storage_provisioner = "disk.csi.azure.com"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_storage_class_v1" "archive" {
  metadata {
    name = "archive-tf"
    annotations = {
      "storageclass.kubernetes.io/is-default-class" = "false"
    }
  }
  storage_provisioner = "disk.csi.azure.com"
  volume_binding_mode = "WaitForFirstConsumer"
}
