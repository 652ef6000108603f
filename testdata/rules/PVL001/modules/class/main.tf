variable "provisioner" {
  type = string
}

variable "names" {
  type = list(string)
}

resource "kubernetes_storage_class_v1" "this" { # want `^error: StorageClass tf-path-a \(provisioner rancher\.io/local-path, node-local\)` `^error: StorageClass tf-path-b \(provisioner rancher\.io/local-path, node-local\)`
  for_each = toset(var.names)
  metadata {
    name = each.key
  }
  storage_provisioner = var.provisioner
}
