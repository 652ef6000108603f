data "aws_caller_identity" "current" {}

resource "aws_iam_role" "node" {
  count = var.create_roles ? length(var.zones) : 0
  name  = "node-${var.zones[count.index]}"
}

resource "aws_ebs_volume" "data" {
  for_each          = toset(var.zones)
  availability_zone = each.key
  size              = 20
}

module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"

  cluster_name = "shop"
  iam_role_arn = try(aws_iam_role.node[0].arn, null)
}

locals {
  role_arns  = aws_iam_role.node[*].arn
  volume_ids = { for zone, v in aws_ebs_volume.data : zone => v.id }
  account    = provider::aws::arn_parse(local.role_arns[0]).account_id
  workspace  = "${terraform.workspace}-${path.module}"
}

moved {
  from = kubernetes_storage_class_v1.gp2
  to   = kubernetes_storage_class_v1.standard
}

import {
  to = kubernetes_storage_class_v1.standard
  id = "standard"
}

check "cluster_reachable" {
  assert {
    condition     = can(module.eks.cluster_endpoint)
    error_message = "The cluster has no endpoint."
  }
}
