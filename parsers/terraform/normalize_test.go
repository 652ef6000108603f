package terraform

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

// normalizeDir holds the normalisation fixtures: class.tf, claim.tf, workloads.tf.
const normalizeDir = "../../testdata/terraform/normalize"

// source reads a fixture file of normalizeDir.
func source(t *testing.T, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(normalizeDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// span is the range of a text in src, in file: its first occurrence at or after
// from, or with a "#n" suffix its n-th (0-based).
func span(t *testing.T, file, src, from, text string) string {
	t.Helper()
	n := 0
	if i := strings.LastIndex(text, "#"); i > 0 {
		if k, err := strconv.Atoi(text[i+1:]); err == nil {
			text, n = text[:i], k
		}
	}
	off := strings.Index(src, from) - 1
	if off < -1 {
		t.Fatalf("%q not in the source", from)
	}
	for i := 0; i <= n; i++ {
		j := strings.Index(src[off+1:], text)
		if j < 0 {
			t.Fatalf("%q occurs fewer than %d times", text, n+1)
		}
		off += 1 + j
	}
	l := newLines(file, []byte(src))
	return at(l.rng(off, off+len(text)))
}

func TestNormalize(t *testing.T) {
	type check struct {
		addr string
		path []string
		want string // scalar, "<unknown>", "<absent>", or "[n]" for a list of n items
		// val and key are source texts (with an optional "#n" occurrence, counted
		// from the resource's block) whose ranges the value and its key must have;
		// "" skips the check.
		val, key string
	}
	rs := byAddr(t, loadDir(t, normalizeDir, Options{}))
	files := []struct {
		name   string
		checks []check
	}{
		{"class.tf", []check{
			{"kubernetes_storage_class_v1.local", []string{"volumeBindingMode"}, "Immediate", `resource "kubernetes_storage_class_v1" "local"`, `resource "kubernetes_storage_class_v1" "local"`},
			{"kubernetes_storage_class_v1.local", []string{"apiVersion"}, "storage.k8s.io/v1", `resource "kubernetes_storage_class_v1" "local"`, ""},
			{"kubernetes_storage_class_v1.local", []string{"provisioner"}, "kubernetes.io/no-provisioner", `"kubernetes.io/no-provisioner"`, "storage_provisioner"},
			{"kubernetes_storage_class_v1.local", []string{"allowVolumeExpansion"}, "false", "false", "allow_volume_expansion"},
			{"kubernetes_storage_class_v1.local", []string{"metadata", "labels", "app.kubernetes.io/name"}, "disks", `"disks"`, `"app.kubernetes.io/name"`},
			{"kubernetes_storage_class_v1.local", []string{"metadata", "labels", "some_key"}, "kept", `"kept"`, "some_key"},
			{"kubernetes_storage_class_v1.local", []string{"allowedTopologies"}, "[1]", "", "allowed_topologies"},
			{"kubernetes_storage_class_v1.local", []string{"allowedTopologies", "0", "matchLabelExpressions", "0", "values", "0"}, "eu-west-1a", `"eu-west-1a"`, ""},
			{"kubernetes_storage_class.wffc", []string{"volumeBindingMode"}, "WaitForFirstConsumer", `"WaitForFirstConsumer"`, "volume_binding_mode"},
			{"kubernetes_storage_class.wffc", []string{"allowVolumeExpansion"}, "true", `resource "kubernetes_storage_class" "wffc"`, ""},
		}},
		{"claim.tf", []check{
			{"kubernetes_persistent_volume_claim_v1.data", []string{"spec"}, "", "", "spec"},
			{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "accessModes", "0"}, "ReadWriteOnce", `"ReadWriteOnce"`, ""},
			{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "resources", "requests", "storage"}, "1Gi", `"1Gi"`, "storage#1"},
			{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "storageClassName"}, "<absent>", "", ""},
			{"kubernetes_persistent_volume_claim_v1.data", []string{"waitUntilBound"}, "<absent>", "", ""},
			{"kubernetes_persistent_volume_v1.disk", []string{"spec", "gcePersistentDisk", "pdName"}, "disk-1", `"disk-1"`, "pd_name"},
			{"kubernetes_persistent_volume_v1.disk", []string{"spec", "gcePersistentDisk"}, "", "", "gce_persistent_disk"},
			{"kubernetes_persistent_volume_v1.disk", []string{"spec", "capacity", "storage"}, "1Gi", `"1Gi"`, "storage"},
			{"kubernetes_persistent_volume.ceph", []string{"spec", "cephfs", "monitors", "0"}, "10.0.0.1:6789", `"10.0.0.1:6789"`, ""},
		}},
		{"workloads.tf", []check{
			{"kubernetes_deployment_v1.web", []string{"spec", "replicas"}, "3", "3", "replicas"},
			{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "volumes"}, "[2]", "", "volume#1"},
			{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "volumes", "1", "name"}, "cache", `"cache"`, "name#5"},
			{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, "data", `"data"#2`, "claim_name"},
			{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "containers", "0", "volumeMounts", "0", "mountPath"}, "/data", `"/data"`, "mount_path"},
			{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "tolerations", "0", "tolerationSeconds"}, "30", `"30"`, "toleration_seconds"},
			{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms", "0", "matchExpressions", "0", "values", "0"}, "node-1", `"node-1"`, ""},
			{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "affinity", "podAntiAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "0", "topologyKey"}, "kubernetes.io/hostname", `"kubernetes.io/hostname"#1`, "topology_key"},
			{"kubernetes_stateful_set_v1.db", []string{"spec", "replicas"}, "2", "2", "replicas"},
			{"kubernetes_stateful_set_v1.db", []string{"spec", "volumeClaimTemplates", "0", "spec", "storageClassName"}, "fast", `"fast"`, "storage_class_name"},
			{"kubernetes_daemonset.agent", []string{"spec", "updateStrategy", "rollingUpdate", "maxUnavailable"}, "2", `"2"`, "max_unavailable"},
			{"kubernetes_job_v1.once", []string{"spec", "completions"}, "1", "spec", "spec"},
			{"kubernetes_job_v1.once", []string{"spec", "parallelism"}, "5", "5", "parallelism"},
			{"kubernetes_cron_job_v1.nightly", []string{"spec", "jobTemplate", "spec", "completions"}, "1", "spec#1", "spec#1"},
			{"kubernetes_horizontal_pod_autoscaler.web", []string{"spec", "targetCPUUtilizationPercentage"}, "80", "80", "target_cpu_utilization_percentage"},
			{"kubernetes_horizontal_pod_autoscaler.web", []string{"spec", "scaleTargetRef", "kind"}, "Deployment", `"Deployment"`, "kind"},
			{"kubernetes_replication_controller.legacy", []string{"spec", "template", "spec", "nodeName"}, "node-2", `"node-2"`, "node_name"},
			{"kubernetes_replication_controller.legacy", []string{"spec", "selector", "app"}, "legacy", `"legacy"#2`, "app"},
			{"kubernetes_csi_driver_v1.efs", []string{"spec", "attachRequired"}, "false", "false", "attach_required"},
		}},
	}
	for _, f := range files {
		src := source(t, f.name)
		for _, c := range f.checks {
			t.Run(f.name+"/"+c.addr+"/"+strings.Join(c.path, "."), func(t *testing.T) {
				r := rs[c.addr]
				if r == nil {
					t.Fatalf("no resource %s", c.addr)
				}
				parent := r.Object
				if len(c.path) > 1 {
					parent = r.Get(c.path[:len(c.path)-1]...)
				}
				field := parent.Field(c.path[len(c.path)-1])
				n := r.Get(c.path...)
				if c.want == "<absent>" {
					if n != nil {
						t.Fatalf("%v present: %v", c.path, n.Interface())
					}
					return
				}
				if n == nil {
					t.Fatalf("no %v in %v", c.path, r.Object.Interface())
				}
				switch got := describeNode(n); {
				case c.want != "" && got != c.want:
					t.Errorf("%v = %s, want %s", c.path, got, c.want)
				}
				typ, name, _ := strings.Cut(c.addr, ".")
				header := `resource "` + typ + `" "` + name + `"`
				if c.val != "" {
					if want := span(t, f.name, src, header, c.val); at(n.Range) != want {
						t.Errorf("%v value at %s, want %s", c.path, at(n.Range), want)
					}
				}
				if c.key != "" {
					if want := span(t, f.name, src, header, c.key); field == nil || at(field.KeyRange) != want {
						t.Errorf("%v key at %v, want %s", c.path, field, want)
					}
				}
			})
		}
	}
}

func describeNode(n *graph.Node) string {
	switch n.Kind {
	case graph.Unknown:
		return "<unknown>"
	case graph.List:
		return "[" + strconv.Itoa(len(n.Items())) + "]"
	case graph.Map:
		return ""
	}
	return n.Str()
}
