resource "kubernetes_storage_class_v1" "local" {
  metadata {
    name = "local"
    labels = {
      "app.kubernetes.io/name" = "disks"
      some_key                 = "kept"
    }
  }
  storage_provisioner    = "kubernetes.io/no-provisioner"
  allow_volume_expansion = false
  allowed_topologies {
    match_label_expressions {
      key    = "topology.kubernetes.io/zone"
      values = ["eu-west-1a"]
    }
  }
}

resource "kubernetes_storage_class" "wffc" {
  metadata {
    name = "wffc"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
}
