# OpenTofu ignores this override for override.tofu.
locals {
  replicas = 5
}
