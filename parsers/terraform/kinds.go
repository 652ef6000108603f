package terraform

import "github.com/pvlint/pvlint/parsers/graph"

// kindInfo is what a kubernetes_* resource type becomes.
type kindInfo struct {
	apiVersion, kind string
	shape            *shape
}

// kinds lists the provider's resource types pvlint reads, with their legacy
// (unsuffixed, deprecated) names: hashicorp/terraform-provider-kubernetes
// kubernetes/provider.go (docs/storage-facts.md#f8).
var kinds = buildKinds()

func buildKinds() map[string]*kindInfo {
	kinds := map[string]*kindInfo{}
	deployment := resourceShape(&shape{strs: map[string]bool{"replicas": true}})
	statefulSet := resourceShape(&shape{strs: map[string]bool{"replicas": true}})
	daemonSet := resourceShape(&shape{blocks: map[string]*block{"strategy": {name: "updateStrategy"}}})
	cronJob := resourceShape(&shape{blocks: map[string]*block{
		"job_template": one(&shape{blocks: map[string]*block{"spec": one(jobSpec)}}),
	}})
	pv := resourceShape(&shape{blocks: map[string]*block{
		"persistent_volume_source": {inline: true, shape: podVolume},
		"node_affinity":            one(&shape{blocks: map[string]*block{"required": one(nil)}}),
	}})
	rc := resourceShape(&shape{maps: map[string]bool{"selector": true}})
	// The provider sends volume_binding_mode and allow_volume_expansion even when
	// they are not set: Immediate, and true where Kubernetes would leave it unset.
	storageClass := resourceShape(nil,
		fieldDefault{key: "volumeBindingMode", kind: graph.String, scalar: "Immediate"},
		fieldDefault{key: "allowVolumeExpansion", kind: graph.Bool, scalar: "true"})
	add := func(names []string, api, kind string, s *shape) {
		for _, n := range names {
			kinds[n] = &kindInfo{apiVersion: api, kind: kind, shape: s}
		}
	}
	add([]string{"kubernetes_storage_class", "kubernetes_storage_class_v1"}, "storage.k8s.io/v1", "StorageClass", storageClass)
	add([]string{"kubernetes_persistent_volume_claim", "kubernetes_persistent_volume_claim_v1"}, "v1", "PersistentVolumeClaim", resourceShape(pvcSpec))
	add([]string{"kubernetes_persistent_volume", "kubernetes_persistent_volume_v1"}, "v1", "PersistentVolume", pv)
	add([]string{"kubernetes_deployment", "kubernetes_deployment_v1"}, "apps/v1", "Deployment", deployment)
	add([]string{"kubernetes_stateful_set", "kubernetes_stateful_set_v1"}, "apps/v1", "StatefulSet", statefulSet)
	add([]string{"kubernetes_daemonset", "kubernetes_daemon_set_v1"}, "apps/v1", "DaemonSet", daemonSet)
	add([]string{"kubernetes_job", "kubernetes_job_v1"}, "batch/v1", "Job", resourceShape(jobSpec))
	add([]string{"kubernetes_cron_job"}, "batch/v1beta1", "CronJob", cronJob)
	add([]string{"kubernetes_cron_job_v1"}, "batch/v1", "CronJob", cronJob)
	add([]string{"kubernetes_horizontal_pod_autoscaler", "kubernetes_horizontal_pod_autoscaler_v1"}, "autoscaling/v1", "HorizontalPodAutoscaler", resourceShape(nil))
	add([]string{"kubernetes_horizontal_pod_autoscaler_v2"}, "autoscaling/v2", "HorizontalPodAutoscaler", resourceShape(nil))
	add([]string{"kubernetes_horizontal_pod_autoscaler_v2beta2"}, "autoscaling/v2beta2", "HorizontalPodAutoscaler", resourceShape(nil))
	add([]string{"kubernetes_replication_controller", "kubernetes_replication_controller_v1"}, "v1", "ReplicationController", rc)
	add([]string{"kubernetes_pod", "kubernetes_pod_v1"}, "v1", "Pod", resourceShape(podSpec))
	add([]string{"kubernetes_csi_driver", "kubernetes_csi_driver_v1"}, "storage.k8s.io/v1", "CSIDriver", resourceShape(nil))
	return kinds
}

// manifestType is the provider's generic resource: its manifest attribute is the
// Kubernetes object itself.
const manifestType = "kubernetes_manifest"

// emitted reports whether resources of a type become graph resources.
func emitted(typ string) bool { return typ == manifestType || kinds[typ] != nil }

// shapeOf returns the shape of a resource type's body (nil for other types).
func shapeOf(typ string) *shape {
	if k := kinds[typ]; k != nil {
		return k.shape
	}
	return nil
}
