package terraform

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// shape says how the content of one Terraform block maps onto the Kubernetes object,
// where that differs from the general rule: a nested block is a single object
// (MaxItems 1, flattened) named in camelCase, and attributes are camelCased. A nil
// shape is the general rule everywhere below.
type shape struct {
	blocks   map[string]*block // nested blocks that are lists, renamed, inlined or shaped
	maps     map[string]bool   // attributes that are maps here (JSON cannot tell)
	strs     map[string]bool   // numbers the provider keeps as strings
	drop     map[string]bool   // provider-only attributes with no Kubernetes field
	defaults []fieldDefault    // what the provider sends when the attribute is unset
	// podSpecOnly marks a pod template: provider versions before 2.0 took the pod
	// spec's fields directly in template, without metadata and spec blocks.
	podSpecOnly bool
}

// block is how one nested block type maps.
type block struct {
	name   string // Kubernetes field name; "" means camelCase of the Terraform name
	list   bool   // repeated: a list in Kubernetes
	inline bool   // its fields belong to the parent (persistent_volume_source)
	shape  *shape
}

// fieldDefault is a provider default made explicit.
type fieldDefault struct {
	key    string
	kind   graph.NodeKind
	scalar string
}

func one(s *shape) *block { return &block{shape: s} }

func list(name string, s *shape) *block { return &block{name: name, list: true, shape: s} }

// block returns how a nested block maps here: the shape's own entry, else the
// provider-wide one for unambiguous names, else nil (a single object).
func (s *shape) block(name string) *block {
	if s != nil {
		if b, ok := s.blocks[name]; ok {
			return b
		}
	}
	return commonBlocks[name]
}

// child returns the shape of a nested block.
func (s *shape) child(name string) *shape {
	if b := s.block(name); b != nil {
		return b.shape
	}
	return nil
}

// isBlock reports whether name is known to be a nested block here.
func (s *shape) isBlock(name string) bool { return s.block(name) != nil || knownSingle[name] }

func (s *shape) isMap(name string) bool { return s != nil && s.maps[name] }

// commonBlocks are the provider's repeated blocks (lists in Kubernetes) and renamed
// blocks whose meaning does not depend on where they appear.
var commonBlocks = map[string]*block{
	"container":                  list("containers", nil),
	"init_container":             list("initContainers", nil),
	"port":                       list("ports", nil),
	"env":                        list("env", nil),
	"env_from":                   list("envFrom", nil),
	"volume_mount":               list("volumeMounts", nil),
	"volume_device":              list("volumeDevices", nil),
	"resize_policy":              list("resizePolicy", nil),
	"volume":                     list("volumes", podVolume),
	"toleration":                 list("tolerations", nil),
	"host_aliases":               list("hostAliases", nil),
	"image_pull_secrets":         list("imagePullSecrets", nil),
	"readiness_gate":             list("readinessGates", nil),
	"scheduling_gates":           list("schedulingGates", nil),
	"topology_spread_constraint": list("topologySpreadConstraints", nil),
	"http_header":                list("httpHeaders", nil),
	"match_expressions":          list("matchExpressions", nil),
	"match_fields":               list("matchFields", nil),
	"match_label_expressions":    list("matchLabelExpressions", nil),
	"node_selector_term":         list("nodeSelectorTerms", nil),
	"items":                      list("items", nil),
	"sources":                    list("sources", nil),
	"sysctl":                     list("sysctls", nil),
	"option":                     list("options", nil),
	"metric":                     list("metrics", nil),
	"policy":                     list("policies", nil),
	"rule":                       list("rules", nil),
	"on_pod_condition":           list("onPodConditions", nil),
	"allowed_topologies":         list("allowedTopologies", nil),
	"volume_claim_template":      list("volumeClaimTemplates", claimTemplate),
	"preferred_during_scheduling_ignored_during_execution": list("preferredDuringSchedulingIgnoredDuringExecution", nil),
	"ceph_fs":  {name: "cephfs"},
	"affinity": one(affinity),
	"selector": one(nil),
	"template": one(podTemplate),
}

// knownSingle are common single-object blocks, so .tf.json bodies decode them as
// blocks even when their value looks like a map.
var knownSingle = map[string]bool{
	"metadata": true, "spec": true, "strategy": true, "rolling_update": true, "update_strategy": true,
	"resources": true, "security_context": true, "capabilities": true, "persistent_volume_claim": true,
	"host_path": true, "nfs": true, "csi": true, "empty_dir": true, "config_map": true, "secret": true,
	"value_from": true, "secret_key_ref": true, "config_map_key_ref": true, "field_ref": true,
	"liveness_probe": true, "readiness_probe": true, "startup_probe": true, "exec": true, "http_get": true,
	"tcp_socket": true, "scale_target_ref": true, "claim_ref": true, "node_affinity": true,
	"persistent_volume_source": true, "aws_elastic_block_store": true, "gce_persistent_disk": true,
	"azure_disk": true, "azure_file": true, "local": true, "job_template": true, "ephemeral": true,
	"label_selector": true, "required": true, "behavior": true, "dns_config": true,
}

// mapAttrs are the provider's map attributes: a .tf.json object under one of these
// names is a value, not a block.
var mapAttrs = map[string]bool{
	"labels": true, "annotations": true, "requests": true, "limits": true, "parameters": true,
	"capacity": true, "node_selector": true, "match_labels": true, "volume_attributes": true,
	"options": true, "data": true, "binary_data": true, "string_data": true, "manifest": true,
	"object": true, "overhead": true,
}

// renames are attributes whose Kubernetes names are not the plain camelCase of the
// Terraform name (acronyms, and fields the provider renamed).
var renames = map[string]string{
	"storage_provisioner":               "provisioner",
	"volume_id":                         "volumeID",
	"data_disk_uri":                     "diskURI",
	"target_ww_ns":                      "targetWWNs",
	"host_ip":                           "hostIP",
	"host_ipc":                          "hostIPC",
	"host_pid":                          "hostPID",
	"pod_ip":                            "podIP",
	"cluster_ip":                        "clusterIP",
	"pd_id":                             "pdID",
	"dataset_uuid":                      "datasetUUID",
	"endpoints_name":                    "endpoints",
	"ceph_monitors":                     "monitors",
	"rbd_image":                         "image",
	"rbd_pool":                          "pool",
	"rados_user":                        "user",
	"target_cpu_utilization_percentage": "targetCPUUtilizationPercentage",
}

// camel converts a Terraform name to its Kubernetes spelling.
func camel(s string) string {
	if r, ok := renames[s]; ok {
		return r
	}
	parts := strings.Split(s, "_")
	var b strings.Builder
	b.WriteString(parts[0])
	for _, p := range parts[1:] {
		if p == "" {
			continue
		}
		b.WriteString(strings.ToUpper(p[:1]) + p[1:])
	}
	return b.String()
}

// fieldName is the Kubernetes name of a nested block.
func (b *block) fieldName(tf string) string {
	if b != nil && b.name != "" {
		return b.name
	}
	return camel(tf)
}

// The shapes of the objects the rules read. Everything not listed follows the
// general rule.
var (
	labelSelector   = &shape{}
	podAffinityTerm = &shape{blocks: map[string]*block{"label_selector": one(labelSelector), "namespace_selector": one(labelSelector)}}
	podAffinity     = &shape{blocks: map[string]*block{
		"required_during_scheduling_ignored_during_execution":  list("requiredDuringSchedulingIgnoredDuringExecution", podAffinityTerm),
		"preferred_during_scheduling_ignored_during_execution": list("preferredDuringSchedulingIgnoredDuringExecution", &shape{blocks: map[string]*block{"pod_affinity_term": one(podAffinityTerm)}}),
	}}
	affinity = &shape{blocks: map[string]*block{
		"node_affinity": one(&shape{blocks: map[string]*block{
			"required_during_scheduling_ignored_during_execution": one(nil),
		}}),
		"pod_affinity":      one(podAffinity),
		"pod_anti_affinity": one(podAffinity),
	}}
	pvcSpec       = &shape{}
	claimTemplate = &shape{blocks: map[string]*block{"spec": one(pvcSpec)}}
	// podVolume: an ephemeral volume has exactly one claim template.
	podVolume = &shape{blocks: map[string]*block{
		"ephemeral": one(&shape{blocks: map[string]*block{"volume_claim_template": one(claimTemplate)}}),
	}}
	podSpec     = &shape{}
	podTemplate = &shape{blocks: map[string]*block{"spec": one(podSpec)}, podSpecOnly: true}
	jobSpec     = &shape{defaults: []fieldDefault{{key: "completions", kind: graph.Int, scalar: "1"}}}
	// topDrop are resource arguments that steer the provider, not the object.
	topDrop = map[string]bool{
		"id": true, "timeouts": true, "wait_until_bound": true, "wait_for_rollout": true,
		"wait_for_completion": true, "target_state": true, "wait_for_load_balancer": true,
	}
)

func resourceShape(spec *shape, defaults ...fieldDefault) *shape {
	s := &shape{drop: topDrop, defaults: defaults, blocks: map[string]*block{}}
	if spec != nil {
		s.blocks["spec"] = one(spec)
	}
	return s
}
