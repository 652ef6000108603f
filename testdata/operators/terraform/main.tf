resource "kubernetes_manifest" "alertmanager" {
  manifest = {
    apiVersion = "monitoring.coreos.com/v1"
    kind       = "Alertmanager"
    metadata = {
      name      = "main"
      namespace = "monitoring"
    }
    spec = {
      replicas = 3
      affinity = {
        podAntiAffinity = {
          requiredDuringSchedulingIgnoredDuringExecution = [{
            topologyKey = "kubernetes.io/hostname"
          }]
        }
      }
      persistentVolumeClaimRetentionPolicy = {
        whenDeleted = "Delete"
      }
      storage = {
        volumeClaimTemplate = {
          spec = {
            storageClassName = "local-nvme"
            resources        = { requests = { storage = "1Gi" } }
          }
        }
      }
    }
  }
}
