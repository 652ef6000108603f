package storage

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

// handoffWorld has the same workloads pinned and not pinned, over ReadWriteOnce and
// ReadWriteOncePod claims, for rules.md Decision 2.
var handoffWorld = `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: rwo}
spec: {accessModes: [ReadWriteOnce], storageClassName: gp3}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: rwop}
spec: {accessModes: [ReadWriteOncePod], storageClassName: gp3}
` + handoffWorkloads

func deployment(name, spec, pin, claim string) string {
	return "---\napiVersion: apps/v1\nkind: Deployment\nmetadata: {name: " + name + "}\nspec:\n" + spec +
		"  template:\n    spec:\n" + pin +
		"      volumes:\n      - name: v\n        persistentVolumeClaim: {claimName: " + claim + "}\n"
}

const nodeName = "      nodeName: worker-1\n"

var handoffWorkloads = deployment("multi", "  replicas: 3\n", "", "rwo") +
	deployment("multi-pinned", "  replicas: 3\n", nodeName, "rwo") +
	deployment("surge-pinned", "", nodeName, "rwo") +
	deployment("surge-pinned-rwop", "", nodeName, "rwop") +
	deployment("recreate-pinned", "  replicas: 2\n  strategy: {type: Recreate}\n", nodeName, "rwo") +
	deployment("single-pinned", "  strategy: {type: Recreate}\n", nodeName, "rwo") +
	deployment("template", "  replicas: 0\n", nodeName, "rwo") +
	`---
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: ref}
spec:
  replicas: 2
  workloadRef: {apiVersion: apps/v1, kind: Deployment, name: template}
  strategy:
    canary: {maxSurge: 0, maxUnavailable: 1}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agents}
spec:
  template:
    spec:
      volumes:
      - name: v
        persistentVolumeClaim: {claimName: rwo}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: agent-pinned}
spec:
  template:
    spec:
      nodeSelector: {kubernetes.io/hostname: worker-1}
      volumes:
      - name: v
        persistentVolumeClaim: {claimName: rwo}
`

// TestPinnedHandOff checks rules.md Decision 2 exactly: a consumer pinned to one node
// reports PVL019 instead of PVL002 and PVL003 for ReadWriteOnce claims, and nothing is
// lost in the hand-off: a pinned ReadWriteOncePod claim still deadlocks its rollout
// (PVL003), and a pinned consumer that runs one pod at a time is no hazard at all.
func TestPinnedHandOff(t *testing.T) {
	rs, ds := manifest.Parse("w.yaml", []byte(handoffWorld), manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("fixture does not parse: %v", ds)
	}
	g := graph.New(rs, graph.Options{})
	got := map[string][]string{}
	for _, r := range []*lint.Rule{RWOMultiPod, RWORollingUpdate, NodePinnedWriters, RollingTerminatingOverlap} {
		r.Check(lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) {
			got[f.Resource.Kind+" "+f.Resource.Name] = append(got[f.Resource.Kind+" "+f.Resource.Name], f.Rule.ID)
		}))
	}
	for _, ids := range got {
		sort.Strings(ids)
	}
	want := map[string][]string{
		"Deployment multi":             {"PVL002", "PVL003"},
		"Deployment multi-pinned":      {"PVL019"},
		"Deployment surge-pinned":      {"PVL019"},
		"Deployment surge-pinned-rwop": {"PVL003"},
		"Deployment recreate-pinned":   {"PVL019"},
		"Rollout ref":                  {"PVL019"},
		"DaemonSet agents":             {"PVL002"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules per workload (-want +got):\n%s", diff)
	}
}

// TestPinnedRolloutReportsAtWorkloadRef checks where PVL019 reports when the pin is in
// the Deployment a Rollout takes its template from: the Rollout's workloadRef, with
// the volume and the claim as related locations.
func TestPinnedRolloutReportsAtWorkloadRef(t *testing.T) {
	var rollout []finding
	for _, f := range run(t, NodePinnedWriters, handoffWorld) {
		if strings.HasPrefix(f.Message, "Rollout ref ") {
			rollout = append(rollout, f)
		}
	}
	if len(rollout) != 1 {
		t.Fatalf("Rollout findings = %v, want one", rollout)
	}
	want := finding{
		At: "w.yaml:103:3", Severity: "warning",
		Message: "Rollout ref (replicas 2) is pinned to node worker-1 (nodeName) and mounts PVC rwo (ReadWriteOnce, class gp3 → ebs.csi.aws.com): every pod runs on that node, where ReadWriteOnce lets them all write to the volume at once",
		Related: []string{
			"w.yaml:95:9 volume v mounts PVC rwo",
			"w.yaml:102:13 Rollout ref: replicas 2",
			"w.yaml:9:8 PVC rwo: accessModes ReadWriteOnce",
			"w.yaml:4:1 StorageClass gp3: provisioner ebs.csi.aws.com (attachable)",
		},
	}
	if diff := cmp.Diff(want, rollout[0]); diff != "" {
		t.Errorf("PVL019 on the Rollout (-want +got):\n%s", diff)
	}
}

// noSurgeWorld holds one-replica workloads that roll out with maxSurge 0, next to the
// ones PVL002, PVL003 and PVL019 report, for PVL022's hand-off.
var noSurgeWorld = handoffWorld +
	deployment("no-surge", "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", "", "rwo") +
	deployment("no-surge-pinned", "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", nodeName, "rwo") +
	deployment("no-surge-rwop", "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", "", "rwop") +
	deployment("no-surge-pinned-rwop", "  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", nodeName, "rwop") +
	deployment("no-surge-two", "  replicas: 2\n  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", "", "rwo") +
	deployment("no-surge-two-pinned", "  replicas: 2\n  strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: 1}}\n", nodeName, "rwo") +
	deployment("recreate", "  strategy: {type: Recreate}\n", "", "rwo")

// TestNoSurgeHandOff checks that PVL022 speaks exactly where PVL002, PVL003 and PVL019
// are silent about a one-replica rollout over a ReadWriteOnce claim: maxSurge 0, pinned
// or not, and never for ReadWriteOncePod, several replicas or Recreate.
func TestNoSurgeHandOff(t *testing.T) {
	rs, ds := manifest.Parse("w.yaml", []byte(noSurgeWorld), manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("fixture does not parse: %v", ds)
	}
	g := graph.New(rs, graph.Options{})
	got := map[string][]string{}
	for _, r := range []*lint.Rule{RWOMultiPod, RWORollingUpdate, NodePinnedWriters, RollingTerminatingOverlap} {
		r.Check(lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) {
			if strings.HasPrefix(f.Resource.Name, "no-surge") || f.Resource.Name == "recreate" {
				got[f.Resource.Name] = append(got[f.Resource.Name], f.Rule.ID)
			}
		}))
	}
	for _, ids := range got {
		sort.Strings(ids)
	}
	want := map[string][]string{
		"no-surge":            {"PVL022"},
		"no-surge-pinned":     {"PVL022"},
		"no-surge-two":        {"PVL002"},
		"no-surge-two-pinned": {"PVL019"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rules per workload (-want +got):\n%s", diff)
	}
}
