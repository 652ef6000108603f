resource "kubernetes_manifest" "es" {
  manifest = {
    apiVersion = "elasticsearch.k8s.elastic.co/v1"
    kind       = "Elasticsearch"
    metadata = {
      name      = "es-tf"
      namespace = "default"
    }
    spec = {
      version                 = "8.15.0"
      volumeClaimDeletePolicy = "DeleteOnScaledownAndClusterDeletion" // want `^warning: Elasticsearch es-tf \(ECK\) deletes its pods' claims when it is deleted \(volumeClaimDeletePolicy DeleteOnScaledownAndClusterDeletion\), and their class deletes the volumes with them: PVC elasticsearch-data \(spec\.nodeSets\[0\] \(default volumeClaimTemplates\), class standard, default class`
      nodeSets = [{
        name  = "default"
        count = 3
      }]
    }
  }
}
