# The manifests are inputs of templatefile() in another provider's resources, which
# pvlint does not evaluate: they are the configuration's, not plain manifests.
resource "kubectl_manifest" "app" {
  yaml_body = templatefile("${path.module}/manifests/deploy.yaml", { name = "app" })
}

resource "kubectl_manifest" "canary" {
  yaml_body = templatefile("${path.module}/manifests/deploy-canary.yaml", { name = "app" })
}
