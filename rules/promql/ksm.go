package promql

import "slices"

import "strings"

// This file is the one table of kube-state-metrics storage metrics PVL021 checks
// expressions against.
//
// Source: kube-state-metrics docs/metrics/storage/{volumeattachment,persistentvolume,
// persistentvolumeclaim}-metrics.md and internal/store/{volumeattachment,
// persistentvolume,persistentvolumeclaim}.go, kube-state-metrics v2.16.0 (2025-06-23,
// which added reclaim_policy to kube_persistentvolume_info) and the main branch of
// 2026, whose newer metrics (VolumeAttributesClass, PVC condition transition time,
// PV access mode) are listed too so that users of newer releases are not told their
// metrics do not exist. Label names are the same since v2.0.0, which renamed
// kube_volumeattachment_info's nodeName label to node.
//
// Facts the table encodes that alert authors get wrong:
//   - kube_volumeattachment_info has only volumeattachment, attacher and node; whether
//     the volume is attached is the value of kube_volumeattachment_status_attached,
//     whose only label is volumeattachment; the PV is
//     kube_volumeattachment_spec_source_persistentvolume's volumename.
//   - kube_persistentvolumeclaim_status_phase's phase is Pending, Bound or Lost, and
//     each claim has one series per phase, 1 for the current one and 0 for the others.
//   - kube_persistentvolumeclaim_status_condition's labels are condition and status in
//     internal/store (the docs table says type); both are accepted.

// metric is one kube-state-metrics series family.
type metric struct {
	// labels the metric always has (besides Prometheus' target labels).
	labels []string
	// prefixes of labels generated from objects (label_*, annotation_*, metadata_*).
	prefixes []string
	// values lists, for enumerated labels, every value kube-state-metrics emits.
	values map[string][]string
	// key is the set of labels that identifies one series of the metric.
	key []string
}

// has reports whether the metric can carry label l.
func (m *metric) has(l string) bool {
	if slices.Contains(m.labels, l) {
		return true
	}
	for _, p := range m.prefixes {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// storagePrefixes are the metric families PVL021 owns.
var storagePrefixes = []string{"kube_volumeattachment_", "kube_persistentvolumeclaim_", "kube_persistentvolume_"}

// isStorageMetric reports whether a metric name belongs to the checked families.
func isStorageMetric(name string) bool {
	for _, p := range storagePrefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

var (
	va  = []string{"volumeattachment"}
	pvc = []string{"namespace", "persistentvolumeclaim"}
	pv  = []string{"persistentvolume"}

	phasesPVC   = []string{"Pending", "Bound", "Lost"}
	phasesPV    = []string{"Pending", "Available", "Bound", "Released", "Failed"}
	accessModes = []string{"ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany", "ReadWriteOncePod"}
	statuses    = []string{"true", "false", "unknown"}
)

func with(base []string, more ...string) []string {
	return append(append([]string{}, base...), more...)
}

// metrics maps every known storage metric name to its labels.
var metrics = map[string]*metric{
	// VolumeAttachment (cluster-scoped).
	"kube_volumeattachment_info":                         {labels: with(va, "attacher", "node"), key: va},
	"kube_volumeattachment_created":                      {labels: va, key: va},
	"kube_volumeattachment_labels":                       {labels: va, prefixes: []string{"label_"}, key: va},
	"kube_volumeattachment_spec_source_persistentvolume": {labels: with(va, "volumename"), key: va},
	"kube_volumeattachment_status_attached":              {labels: va, key: va},
	"kube_volumeattachment_status_attachment_metadata":   {labels: va, prefixes: []string{"metadata_"}, key: va},

	// PersistentVolumeClaim.
	"kube_persistentvolumeclaim_annotations":                     {labels: pvc, prefixes: []string{"annotation_"}, key: pvc},
	"kube_persistentvolumeclaim_labels":                          {labels: pvc, prefixes: []string{"label_"}, key: pvc},
	"kube_persistentvolumeclaim_access_mode":                     {labels: with(pvc, "access_mode"), values: map[string][]string{"access_mode": accessModes}, key: with(pvc, "access_mode")},
	"kube_persistentvolumeclaim_info":                            {labels: with(pvc, "storageclass", "volumename", "volumemode"), key: pvc},
	"kube_persistentvolumeclaim_resource_requests_storage_bytes": {labels: pvc, key: pvc},
	"kube_persistentvolumeclaim_status_condition": {labels: with(pvc, "condition", "type", "status"),
		values: map[string][]string{"status": statuses}, key: with(pvc, "condition", "type", "status")},
	"kube_persistentvolumeclaim_status_condition_last_transition_timestamp_seconds": {labels: with(pvc, "condition", "status"),
		values: map[string][]string{"status": statuses}, key: with(pvc, "condition", "status")},
	"kube_persistentvolumeclaim_status_phase":                           {labels: with(pvc, "phase"), values: map[string][]string{"phase": phasesPVC}, key: with(pvc, "phase")},
	"kube_persistentvolumeclaim_created":                                {labels: pvc, key: pvc},
	"kube_persistentvolumeclaim_deletion_timestamp":                     {labels: pvc, key: pvc},
	"kube_persistentvolumeclaim_volume_attributes_class":                {labels: with(pvc, "volume_attributes_class"), key: pvc},
	"kube_persistentvolumeclaim_status_current_volume_attributes_class": {labels: with(pvc, "volume_attributes_class"), key: pvc},
	"kube_persistentvolumeclaim_status_modify_volume_status": {labels: with(pvc, "status", "target_volume_attributes_class"),
		values: map[string][]string{"status": {"Pending", "InProgress", "Infeasible"}}, key: with(pvc, "status")},

	// PersistentVolume (cluster-scoped).
	"kube_persistentvolume_annotations":    {labels: pv, prefixes: []string{"annotation_"}, key: pv},
	"kube_persistentvolume_labels":         {labels: pv, prefixes: []string{"label_"}, key: pv},
	"kube_persistentvolume_capacity_bytes": {labels: pv, key: pv},
	"kube_persistentvolume_status_phase":   {labels: with(pv, "phase"), values: map[string][]string{"phase": phasesPV}, key: with(pv, "phase")},
	"kube_persistentvolume_claim_ref":      {labels: with(pv, "claim_namespace", "name"), key: pv},
	"kube_persistentvolume_info": {labels: with(pv, "storageclass", "gce_persistent_disk_name", "host_path", "host_path_type",
		"ebs_volume_id", "azure_disk_name", "fc_wwids", "fc_lun", "fc_target_wwns", "iscsi_target_portal", "iscsi_iqn",
		"iscsi_lun", "iscsi_initiator_name", "local_path", "local_fs", "nfs_server", "nfs_path", "csi_driver",
		"csi_volume_handle", "reclaim_policy"), key: pv},
	"kube_persistentvolume_created":            {labels: pv, key: pv},
	"kube_persistentvolume_deletion_timestamp": {labels: pv, key: pv},
	"kube_persistentvolume_csi_attributes":     {labels: with(pv, "csi_mounter", "csi_map_options"), key: pv},
	"kube_persistentvolume_volume_mode":        {labels: with(pv, "volumemode"), key: pv},
	"kube_persistentvolume_access_mode":        {labels: with(pv, "access_mode"), values: map[string][]string{"access_mode": accessModes}, key: with(pv, "access_mode")},
}

// targetLabels are added to every series by the scrape, not by kube-state-metrics:
// Prometheus' job and instance, the Prometheus operator's service-discovery labels,
// and the usual external labels of multi-cluster setups. Matching on them is fine.
var targetLabels = map[string]bool{
	"job": true, "instance": true, "namespace": true, "service": true, "pod": true, "container": true,
	"endpoint": true, "cluster": true, "prometheus": true, "prometheus_replica": true,
}

// hints say where the state a missing label was meant to select lives.
var hints = []struct {
	prefix, label, hint string
}{
	{"kube_volumeattachment_", "attached", "whether the volume is attached is the value of kube_volumeattachment_status_attached (1 or 0)"},
	{"kube_volumeattachment_", "status", "whether the volume is attached is the value of kube_volumeattachment_status_attached (1 or 0)"},
	{"kube_volumeattachment_", "nodeName", "the node is the node label of kube_volumeattachment_info (renamed from nodeName in kube-state-metrics v2.0)"},
	{"kube_volumeattachment_", "persistentvolume", "the PersistentVolume is the volumename label of kube_volumeattachment_spec_source_persistentvolume"},
	{"kube_volumeattachment_", "volumename", "the PersistentVolume is the volumename label of kube_volumeattachment_spec_source_persistentvolume"},
	{"kube_volumeattachment_", "node", "the node is the node label of kube_volumeattachment_info"},
	{"kube_persistentvolumeclaim_", "phase", "the phase is the phase label of kube_persistentvolumeclaim_status_phase"},
	{"kube_persistentvolumeclaim_", "node", "claims have no node: join kube_pod_spec_volumes_persistentvolumeclaims_info with kube_pod_info"},
	{"kube_persistentvolumeclaim_", "storageclass", "the class is the storageclass label of kube_persistentvolumeclaim_info"},
	{"kube_persistentvolume_", "phase", "the phase is the phase label of kube_persistentvolume_status_phase"},
	{"kube_persistentvolume_", "storageclass", "the class is the storageclass label of kube_persistentvolume_info"},
}

// hintFor returns the hint for a label missing from a metric, or "". The prefixes do
// not overlap: "kube_persistentvolume_" does not match kube_persistentvolumeclaim_*.
func hintFor(name, label string) string {
	for _, h := range hints {
		if h.label == label && strings.HasPrefix(name, h.prefix) {
			return h.hint
		}
	}
	return ""
}
