resource "kubernetes_storage_class_v1" "standard" {
  provider = kubernetes.shop
  metadata {
    name   = "standard"
    labels = merge(var.tags, { account = local.account })
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
}

module "app" {
  source   = "./modules/app"
  for_each = var.apps

  name     = each.key
  replicas = each.value.replicas
  storage  = lookup(each.value, "storage", null)
  class    = coalesce(each.value.class, kubernetes_storage_class_v1.standard.metadata[0].name)
  volume   = lookup(local.volume_ids, "eu-west-1a", null)
}
