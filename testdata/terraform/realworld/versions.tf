# A cluster-and-app root module in the shape cloud samples use: other providers'
# resources, registry modules, legacy variable types, override files. terraform
# validate accepts it; pvlint must report no parse error and still see the
# Kubernetes objects.
terraform {
  required_version = ">= 1.8"
  required_providers {
    aws = {
      source  = "hashicorp/aws"
      version = ">= 5.0"
    }
    kubernetes = {
      source  = "hashicorp/kubernetes"
      version = ">= 2.30"
    }
  }
  backend "s3" {
    bucket = "example-state"
    key    = "apps/shop.tfstate"
    region = "eu-west-1"
  }
}

provider "kubernetes" {
  alias       = "shop"
  config_path = "~/.kube/config"
}
