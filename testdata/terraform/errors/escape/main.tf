resource "kubernetes_persistent_volume_claim_v1" "passwd" {
  metadata {
    name = file("/etc/passwd")
  }
}

resource "kubernetes_persistent_volume_claim_v1" "dotdot" {
  metadata {
    name = trimspace(file("${path.module}/../../../../README.md"))
  }
}

resource "kubernetes_persistent_volume_claim_v1" "unknown_function" {
  metadata {
    name = kebabcase("data")
  }
}

resource "kubernetes_persistent_volume_claim_v1" "inside" {
  metadata {
    name = trimspace(file("name.txt"))
  }
}
