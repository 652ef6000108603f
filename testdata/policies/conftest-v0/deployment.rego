package main

# Conftest's example policy (Rego v0), unchanged.

deny[msg] {
  input.kind == "Deployment"
  not input.spec.template.spec.securityContext.runAsNonRoot

  msg := "Containers must not run as root"
}

deny[msg] {
  input.kind == "Deployment"
  not input.spec.selector.matchLabels.app

  msg := "Containers must provide app label for pod selectors"
}

warn_replicas[msg] {
  input.kind == "Deployment"
  input.spec.replicas < 2
  msg := sprintf("%s runs a single replica", [input.metadata.name])
}
