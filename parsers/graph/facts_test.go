package graph_test

import (
	"strconv"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// build parses YAML documents into a graph; tests write the objects they need.
func build(t *testing.T, docs ...string) *graph.Graph {
	t.Helper()
	rs, ds := manifest.Parse("t.yaml", []byte(strings.Join(docs, "\n---\n")), manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("fixture does not parse: %v", ds)
	}
	return graph.New(rs, graph.Options{})
}

const (
	pvcRWO  = "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec: {accessModes: [ReadWriteOnce], storageClassName: gp3}"
	classGP = "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: gp3}\nprovisioner: ebs.csi.aws.com"
)

func deploy(extra string) string {
	return "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n" + extra +
		"  template:\n    spec:\n      volumes:\n      - name: d\n        persistentVolumeClaim: {claimName: data}\n"
}

func TestConcurrency(t *testing.T) {
	tests := []struct {
		name  string
		docs  []string
		kind  string
		n     int
		multi bool
	}{
		{"default replicas", []string{deploy("")}, "Deployment", 1, false},
		{"replicas 3", []string{deploy("  replicas: 3\n")}, "Deployment", 3, true},
		{"replicas 0 ignores HPA", []string{deploy("  replicas: 0\n"), hpa("web", 5)}, "Deployment", 0, false},
		{"HPA raises", []string{deploy(""), hpa("web", 5)}, "Deployment", 5, true},
		{"HPA of another name", []string{deploy(""), hpa("other", 5)}, "Deployment", 1, false},
		{"KEDA default max", []string{deploy(""), "apiVersion: keda.sh/v1alpha1\nkind: ScaledObject\nmetadata: {name: s}\nspec:\n  scaleTargetRef: {name: web}\n"}, "Deployment", 100, true},
		{"terraform string replicas", []string{deploy("  replicas: \"2\"\n")}, "Deployment", 2, true},
		{"terraform empty replicas", []string{deploy("  replicas: \"\"\n")}, "Deployment", 1, false},
		{"daemonset", []string{"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec: {template: {spec: {}}}"}, "DaemonSet", 2, true},
		{"daemonset pinned", []string{"apiVersion: apps/v1\nkind: DaemonSet\nmetadata: {name: ds}\nspec: {template: {spec: {nodeSelector: {kubernetes.io/hostname: n1}}}}"}, "DaemonSet", 1, false},
		{"job defaults", []string{"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {template: {spec: {}}}"}, "Job", 1, false},
		{"job work queue", []string{"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {parallelism: 4, template: {spec: {}}}"}, "Job", 4, true},
		{"job completions bound", []string{"apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {parallelism: 4, completions: 1, template: {spec: {}}}"}, "Job", 1, false},
		{"suspended cronjob", []string{"apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: {suspend: true, jobTemplate: {spec: {parallelism: 3}}}"}, "CronJob", 0, false},
	}
	for _, tt := range tests {
		g := build(t, tt.docs...)
		w := g.ByKind(tt.kind)[0]
		c := g.ConcurrencyOf(w)
		if c.N != tt.n || c.Multi() != tt.multi || !c.Known {
			t.Errorf("%s: C = %d (multi %v, known %v, %q), want %d (multi %v)", tt.name, c.N, c.Multi(), c.Known, c.Why, tt.n, tt.multi)
		}
	}
}

func hpa(target string, max int) string {
	return "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: " + target + "}\n  maxReplicas: " + itoa(max) + "\n"
}

func itoa(i int) string { return strconv.Itoa(i) }

func TestSurge(t *testing.T) {
	tests := []struct {
		name, spec string
		api        string
		n          int
	}{
		{"defaults", "", "apps/v1", 1},
		{"recreate", "  strategy: {type: Recreate}\n", "apps/v1", 0},
		{"maxSurge 0", "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", "apps/v1", 0},
		{"25% of 8", "  replicas: 8\n", "apps/v1", 2},
		{"10% of 3 rounds up", "  replicas: 3\n  strategy: {rollingUpdate: {maxSurge: 10%}}\n", "apps/v1", 1},
		{"replicas 0", "  replicas: 0\n", "apps/v1", 0},
		{"legacy default", "", "extensions/v1beta1", 1},
	}
	for _, tt := range tests {
		d := strings.Replace(deploy(tt.spec), "apps/v1", tt.api, 1)
		g := build(t, d)
		s := g.SurgeOf(g.ByKind("Deployment")[0])
		if !s.Known || s.N != tt.n {
			t.Errorf("%s: surge = %d (known %v, %q), want %d", tt.name, s.N, s.Known, s.Why, tt.n)
		}
	}
}

func TestClassAndBackend(t *testing.T) {
	defaultClass := "apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: efs\n  annotations: {storageclass.kubernetes.io/is-default-class: \"true\"}\nprovisioner: efs.csi.aws.com"
	tests := []struct {
		name    string
		docs    []string
		class   string
		known   bool
		backend graph.BackendClass
	}{
		{"spec class", []string{deploy(""), pvcRWO, classGP}, "gp3", true, graph.Attachable},
		{"class not in set", []string{deploy(""), pvcRWO}, "gp3", true, graph.BackendUnknown},
		{"default class", []string{deploy(""), strings.Replace(pvcRWO, ", storageClassName: gp3", "", 1), defaultClass}, "efs", true, graph.NonAttachable},
		{"no default", []string{deploy(""), strings.Replace(pvcRWO, ", storageClassName: gp3", "", 1)}, "", false, graph.BackendUnknown},
		{"beta annotation wins", []string{deploy(""), strings.Replace(pvcRWO, "metadata: {name: data}", "metadata: {name: data, annotations: {volume.beta.kubernetes.io/storage-class: efs}}", 1), defaultClass, classGP}, "efs", true, graph.NonAttachable},
		{"CSIDriver attachRequired false", []string{deploy(""), pvcRWO, strings.Replace(classGP, "ebs.csi.aws.com", "x.example.com", 1), "apiVersion: storage.k8s.io/v1\nkind: CSIDriver\nmetadata: {name: x.example.com}\nspec: {attachRequired: false}"}, "gp3", true, graph.NonAttachable},
		{"unknown CSI attaches", []string{deploy(""), pvcRWO, strings.Replace(classGP, "ebs.csi.aws.com", "x.example.com", 1)}, "gp3", true, graph.Attachable},
		{"pre-bound PV nfs", []string{deploy(""), strings.Replace(pvcRWO, "storageClassName: gp3", "storageClassName: \"\", volumeName: pv1", 1), "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv1}\nspec: {accessModes: [ReadWriteOnce], nfs: {server: s, path: /}}"}, "", true, graph.NonAttachable},
	}
	for _, tt := range tests {
		g := build(t, tt.docs...)
		m := g.Mounts(g.ByKind("Deployment")[0])
		if len(m) != 1 || !m[0].Claim.Known() {
			t.Fatalf("%s: mounts = %v", tt.name, m)
		}
		ref := g.ClassOf(m[0].Claim)
		if ref.Name != tt.class || ref.Known != tt.known {
			t.Errorf("%s: class = %q known %v, want %q %v", tt.name, ref.Name, ref.Known, tt.class, tt.known)
		}
		if b := g.BackendOf(m[0].Claim); b.Class != tt.backend {
			t.Errorf("%s: backend = %v (%s), want %v", tt.name, b.Class, b.Provisioner, tt.backend)
		}
	}
}

func TestMountsAndModes(t *testing.T) {
	sts := `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  replicas: 3
  template:
    spec:
      volumes:
      - name: data
        persistentVolumeClaim: {claimName: data}
      - name: shared
        persistentVolumeClaim: {claimName: shared, readOnly: true}
      - name: scratch
        ephemeral: {volumeClaimTemplate: {spec: {accessModes: [ReadWriteOnce]}}}
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce]}
  - metadata: {name: logs}
    spec: {accessModes: [ReadWriteOnce]}`
	shared := "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec: {accessModes: [ReadWriteOnce], volumeName: pv}"
	pv := "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv}\nspec: {accessModes: [ReadWriteOnce, ReadOnlyMany]}"
	g := build(t, sts, shared, pv)
	ms := g.Mounts(g.ByKind("StatefulSet")[0])
	var got []string
	for _, m := range ms {
		got = append(got, m.VolumeName+":"+map[bool]string{true: "shared", false: "per-pod"}[m.Shared()])
	}
	want := "data:per-pod shared:shared scratch:per-pod logs:per-pod"
	if strings.Join(got, " ") != want {
		t.Errorf("mounts = %v, want %s", got, want)
	}
	if !ms[1].ReadOnly {
		t.Errorf("readOnly not recorded")
	}
	claim := g.ByKind("PersistentVolumeClaim")[0]
	if c := g.Consumers(claim); len(c) != 1 || c[0].Workload.Name != "db" {
		t.Errorf("consumers = %v", c)
	}
	modes := g.AccessModes(ms[1].Claim)
	if modes.SingleWriter() || !modes.MultiAttachAllowed() {
		t.Errorf("PV with ROX must allow multi-attach: %+v", modes)
	}
}

func TestPinnedHost(t *testing.T) {
	aff := `  template:
    spec:
      affinity:
        nodeAffinity:
          requiredDuringSchedulingIgnoredDuringExecution:
            nodeSelectorTerms:
            - matchExpressions:
              - {key: kubernetes.io/hostname, operator: In, values: [n1]}
`
	g := build(t, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n"+aff)
	if h, n := graph.PinnedHost(g.ByKind("Deployment")[0]); h != "n1" || n == nil {
		t.Errorf("pinned = %q", h)
	}
	g = build(t, strings.Replace("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\nspec:\n"+aff, "[n1]", "[n1, n2]", 1))
	if h, _ := graph.PinnedHost(g.ByKind("Deployment")[0]); h != "" {
		t.Errorf("two hostnames pinned to %q", h)
	}
}

func TestNamespacesAndDefaults(t *testing.T) {
	g := build(t, "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: a}",
		"apiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata: {name: s, namespace: ignored, annotations: {storageclass.kubernetes.io/is-default-class: \"True\"}}\nprovisioner: x")
	if g.Lookup("PersistentVolumeClaim", "default", "a") == nil {
		t.Errorf("namespace not defaulted")
	}
	if g.Lookup("StorageClass", "", "s") == nil {
		t.Errorf("cluster-scoped kind kept a namespace")
	}
	if len(g.DefaultClasses()) != 0 {
		t.Errorf(`"True" must not count as default (the value must be exactly "true": docs/storage-facts.md#f1)`)
	}
}

func TestNilSafety(t *testing.T) {
	var n *graph.Node
	if n.Get("a", "b") != nil || n.Str() != "" || n.IntOr(7) != 7 || n.List() != nil || n.Is(graph.Map) || n.Locate("x").IsValid() {
		t.Errorf("nil node accessors must return zero values")
	}
	if _, ok := n.Int(); ok {
		t.Errorf("nil Int ok")
	}
}

// TestConcurrencyUnknownAutoscaler: an autoscaler whose maximum is only known at apply
// time (a Terraform variable) leaves C(w) unknown rather than the workload's replicas,
// so neither the multi-pod rules nor the one-pod advice (PVL005) speak.
func TestConcurrencyUnknownAutoscaler(t *testing.T) {
	rs, ds := manifest.Parse("t.yaml", []byte(deploy("")+"---\n"+hpa("web", 5)), manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("fixture does not parse: %v", ds)
	}
	for _, r := range rs {
		if n := r.Get("spec", "maxReplicas"); n != nil {
			n.Kind, n.Scalar = graph.Unknown, ""
		}
	}
	g := graph.New(rs, graph.Options{})
	c := g.ConcurrencyOf(g.ByKind("Deployment")[0])
	if c.Known || c.Multi() || c.Scaler == nil || c.Why != "HorizontalPodAutoscaler h max unknown" {
		t.Errorf("C = %+v, want unknown, naming the autoscaler", c)
	}
}
