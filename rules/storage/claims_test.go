package storage

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

// sharedWorld has a claim with two consumers, one of them autoscaled, on an EBS class.
const sharedWorld = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  accessModes: [ReadWriteOncePod]
  storageClassName: gp3
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  strategy: {type: Recreate}
  template:
    spec:
      volumes:
      - name: d
        persistentVolumeClaim: {claimName: data}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {kind: Deployment, name: web}
  maxReplicas: 4
---
apiVersion: batch/v1
kind: CronJob
metadata: {name: backup}
spec:
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          volumes:
          - name: d
            persistentVolumeClaim: {claimName: data, readOnly: true}
`

// TestClaimCentredRelated checks that a claim-centred finding is reported at the
// claim's accessModes with every consumer, the autoscaler that raised one, and the
// class as related locations, and without repeating its own location.
func TestClaimCentredRelated(t *testing.T) {
	want := []finding{{
		At: "w.yaml:5:3", Severity: "error",
		Message: "PVC data (ReadWriteOncePod, class gp3 → ebs.csi.aws.com) is mounted by Deployment web (HorizontalPodAutoscaler web max 4) and CronJob backup (concurrencyPolicy Forbid): ReadWriteOncePod admits one pod, so while one of them runs the others' pods stay Pending",
		Related: []string{
			"w.yaml:21:9 Deployment web (HorizontalPodAutoscaler web max 4) mounts it as volume d",
			"w.yaml:29:16 HorizontalPodAutoscaler web scales Deployment web up to 4 replicas",
			"w.yaml:41:13 CronJob backup (concurrencyPolicy Forbid) mounts it as volume d",
			"w.yaml:11:1 StorageClass gp3: provisioner ebs.csi.aws.com (attachable)",
		},
	}}
	if diff := cmp.Diff(want, run(t, RWOPMultipleConsumers, sharedWorld)); diff != "" {
		t.Errorf("PVL006 findings (-want +got):\n%s", diff)
	}
}

// TestBlockParameterRelated checks that PVL010's Block-mode finding points at the
// class parameter that must change.
func TestBlockParameterRelated(t *testing.T) {
	src := `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: disk}
spec:
  accessModes: [ReadWriteMany]
  volumeMode: Block
  storageClassName: gp3
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
parameters:
  type: gp3
`
	want := []finding{{
		At: "w.yaml:5:3", Severity: "error",
		Message: "PVC disk (ReadWriteMany, class gp3 → ebs.csi.aws.com) asks for ReadWriteMany in Block mode, which ebs.csi.aws.com attaches to several nodes only with type io2, and class gp3's parameters.type is gp3: provisioning fails and the claim stays Pending",
		Related: []string{
			"w.yaml:12:1 StorageClass gp3: provisioner ebs.csi.aws.com (attachable)",
			"w.yaml:14:9 StorageClass gp3: parameters.type is gp3",
		},
	}}
	if diff := cmp.Diff(want, run(t, RWXOnBlockStorage, src)); diff != "" {
		t.Errorf("PVL010 findings (-want +got):\n%s", diff)
	}
}

// TestWorkloadRefRelated checks that a blue-green Rollout taking its template from a
// Deployment names that link, and reports at strategy.blueGreen.
func TestWorkloadRefRelated(t *testing.T) {
	src := `apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: web}
spec:
  workloadRef: {kind: Deployment, name: web}
  strategy:
    blueGreen: {activeService: web}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 0
  template:
    spec:
      volumes:
      - name: d
        persistentVolumeClaim: {claimName: data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce]}
`
	got := run(t, BlueGreenSharedClaim, src)
	want := []finding{{
		At: "w.yaml:7:5", Severity: "error",
		Message: "Rollout web (blueGreen, replicas 1 (default)) mounts PVC data (ReadWriteOnce, default class not in the linted set): the backend is unknown (--cluster NAME or --context PATH would give the default class): preview pods either fail to attach it or write to it alongside the active version",
		Related: []string{
			"w.yaml:5:3 Rollout web takes its pod template from Deployment web",
			"w.yaml:17:9 volume d mounts PVC data",
			"w.yaml:23:8 PVC data: accessModes ReadWriteOnce",
		},
	}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("PVL012 findings (-want +got):\n%s", diff)
	}
}

// TestPathTo checks the field paths claim templates are reported under.
func TestPathTo(t *testing.T) {
	rs, _ := manifest.Parse("w.yaml", []byte(`apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  volumeClaimTemplates:
  - metadata: {name: a}
  - metadata: {name: b}
`), manifest.Options{})
	g := graph.New(rs, graph.Options{})
	w := g.ByKind("StatefulSet")[0]
	b := w.Get("spec", "volumeClaimTemplates").List()[1]
	if got, want := pathTo(w.Object, b), []string{"spec", "volumeClaimTemplates", "1"}; !cmp.Equal(got, want) {
		t.Errorf("pathTo = %v, want %v", got, want)
	}
	if got := pathTo(w.Object, &graph.Node{}); got != nil {
		t.Errorf("pathTo of a foreign node = %v, want nil", got)
	}
	var fps []string
	MissingRWOP.Check(lint.NewPass(MissingRWOP, g, lint.NewestKnown, func(f lint.Finding) { fps = append(fps, lint.Fingerprint(f)) }))
	if len(fps) != 0 {
		t.Errorf("claim templates without modes or class got findings: %v", fps)
	}
}
