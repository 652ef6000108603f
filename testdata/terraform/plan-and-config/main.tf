# A configuration linted together with its own plan (plan.json, from
# `terraform show -json`): the plan's copies of these resources are dropped.
variable "class_name" {
  type = string
}

resource "kubernetes_storage_class_v1" "fast" {
  metadata {
    name = "fast"
  }
  storage_provisioner = "ebs.csi.aws.com"
}

# Named from a variable without a value here; the plan knows "scratch".
resource "kubernetes_storage_class_v1" "scratch" {
  metadata {
    name = var.class_name
  }
  storage_provisioner = "ebs.csi.aws.com"
}

module "app" {
  source = "./modules/app"
}
