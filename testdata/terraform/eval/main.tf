locals {
  app    = "web"
  labels = { "app.kubernetes.io/name" = local.app }
}

data "kubernetes_namespace_v1" "cluster" {
  metadata {
    name = "kube-system"
  }
}

resource "kubernetes_storage_class_v1" "fast" {
  metadata {
    name = "fast"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = var.binding_mode
}

resource "kubernetes_storage_class_v1" "extra" {
  for_each = var.classes
  metadata {
    name = each.key
  }
  storage_provisioner = each.value.provisioner
  volume_binding_mode = each.value.binding
}

resource "kubernetes_persistent_volume_claim_v1" "data" {
  count = 2
  metadata {
    name      = "${local.app}-data-${count.index}"
    namespace = var.namespace
    labels    = local.labels
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.fast.metadata[0].name
    resources {
      requests = {
        storage = "10Gi"
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim_v1" "legacy_ref" {
  metadata {
    name      = "legacy"
    namespace = data.kubernetes_namespace_v1.cluster.metadata[0].name
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.fast.metadata.0.name
    volume_name        = kubernetes_storage_class_v1.fast.metadata.0.uid
  }
}

module "app" {
  source    = "./modules/app"
  name      = local.app
  namespace = var.namespace
  replicas  = var.replicas
  claim     = kubernetes_persistent_volume_claim_v1.data[0].metadata[0].name
  image     = var.image
}

resource "kubernetes_manifest" "claim" {
  manifest = yamldecode(file("${path.module}/manifests/claim.yaml"))
}

resource "kubernetes_manifest" "quota_claim" {
  manifest = {
    apiVersion = "v1"
    kind       = "PersistentVolumeClaim"
    metadata = {
      name      = "scratch"
      namespace = var.namespace
    }
    spec = {
      accessModes      = ["ReadWriteOncePod"]
      storageClassName = module.app.class
    }
  }
}
