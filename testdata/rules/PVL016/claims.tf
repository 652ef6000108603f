# Classes the claims below resolve to: one delays binding, one binds at once.
resource "kubernetes_storage_class_v1" "wffc" {
  metadata {
    name = "wffc"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "WaitForFirstConsumer"
}

resource "kubernetes_storage_class_v1" "immediate" {
  metadata {
    name = "immediate"
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = "Immediate"
}

variable "class" {
  type = string
}

# wait_until_bound unset: the provider waits; reported at the resource line.
resource "kubernetes_persistent_volume_claim_v1" "defaulted" { # want `^error: PVC defaulted waits until it is bound \(wait_until_bound unset, defaults to true\) on StorageClass wffc \(volumeBindingMode WaitForFirstConsumer\): the claim binds only when a pod uses it, so terraform apply hangs`
  metadata {
    name = "defaulted"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.wffc.metadata[0].name
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
}

# The legacy resource name, with the attribute written out.
resource "kubernetes_persistent_volume_claim" "explicit" {
  metadata {
    name = "explicit"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
  wait_until_bound = true # want `^error: PVC explicit waits until it is bound \(wait_until_bound true\) on StorageClass wffc`
}

# Negative: the fix.
resource "kubernetes_persistent_volume_claim_v1" "no_wait" {
  metadata {
    name = "no-wait"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
  }
  wait_until_bound = false
}

# Negative: an Immediate class binds without a pod.
resource "kubernetes_persistent_volume_claim_v1" "immediate" {
  metadata {
    name = "on-immediate"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = kubernetes_storage_class_v1.immediate.metadata.0.name
  }
}

# Negative: pre-bound to a volume, binding does not wait for a pod.
resource "kubernetes_persistent_volume_claim_v1" "prebound" {
  metadata {
    name = "prebound"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
    volume_name        = "pv-0001"
  }
}

# A class pvlint cannot see: a note, the class may well delay binding.
resource "kubernetes_persistent_volume_claim_v1" "elsewhere" { # want `^note: PVC elsewhere waits until it is bound \(wait_until_bound unset, defaults to true\) on StorageClass gp3-managed, which is not in the linted set \(--cluster NAME or --context PATH would give class gp3-managed\): if that class is WaitForFirstConsumer`
  metadata {
    name = "elsewhere"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "gp3-managed"
  }
}

# A class from a variable without a value: unknown, a note.
resource "kubernetes_persistent_volume_claim_v1" "from_var" { # want `^note: PVC from-var waits until it is bound \(wait_until_bound unset, defaults to true\) on a StorageClass not known statically`
  metadata {
    name = "from-var"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = var.class
  }
}

# Negative: wait_until_bound from a variable without a value is not guessed.
variable "wait" {
  type = bool
}

resource "kubernetes_persistent_volume_claim_v1" "wait_var" {
  metadata {
    name = "wait-var"
  }
  spec {
    access_modes       = ["ReadWriteOnce"]
    storage_class_name = "wffc"
  }
  wait_until_bound = var.wait
}

# Negative: kubernetes_manifest does not wait for the claim to bind.
resource "kubernetes_manifest" "claim" {
  manifest = {
    apiVersion = "v1"
    kind       = "PersistentVolumeClaim"
    metadata = {
      name      = "manifest-claim"
      namespace = "default"
    }
    spec = {
      accessModes      = ["ReadWriteOnce"]
      storageClassName = "wffc"
    }
  }
}
