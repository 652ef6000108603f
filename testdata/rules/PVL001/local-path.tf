# local-path-provisioner configured from Terraform: tf-lp-shared is served from a
# sharedFileSystemPath every node mounts, so Immediate binding is only a note.
resource "kubernetes_manifest" "local_path_config" {
  manifest = {
    apiVersion = "v1"
    kind       = "ConfigMap"
    metadata = {
      name      = "local-path-config"
      namespace = "local-path-tf"
    }
    data = {
      "config.json" = jsonencode({
        nodePathMap = [{ node = "DEFAULT_PATH_FOR_NON_LISTED_NODES", paths = ["/opt/local-path-provisioner"] }]
        storageClassConfigs = {
          "tf-lp-shared" = { sharedFileSystemPath = "/mnt/nfs" }
        }
      })
    }
  }
}

resource "kubernetes_storage_class_v1" "tf_lp_shared" { # want `^note: StorageClass tf-lp-shared \(provisioner rancher\.io/local-path, shared file system from local-path-config, reachable from every node\) binds volumes immediately \(volumeBindingMode Immediate\)`
  metadata {
    name = "tf-lp-shared"
  }
  storage_provisioner = "rancher.io/local-path"
}
