package storage

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestOneDefaultClass checks that exactly one default class, marked by both keys, is
// not ambiguous. A fixture directory is one world, so this case cannot sit beside the
// two-default fixture of PVL015.
func TestOneDefaultClass(t *testing.T) {
	src := `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
  annotations:
    storageclass.kubernetes.io/is-default-class: "true"
    storageclass.beta.kubernetes.io/is-default-class: "true"
provisioner: ebs.csi.aws.com
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: slow
  annotations: {storageclass.kubernetes.io/is-default-class: "false"}
provisioner: ebs.csi.aws.com
`
	if got := run(t, DefaultClassAmbiguity, src); len(got) != 0 {
		t.Errorf("PVL015 findings = %v, want none", got)
	}
}

// TestDefaultClassesRelateEachOther checks that each of several default classes is
// reported at its annotation with the others as related locations.
func TestDefaultClassesRelateEachOther(t *testing.T) {
	src := `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: a
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: b
  annotations: {storageclass.beta.kubernetes.io/is-default-class: "true"}
provisioner: efs.csi.aws.com
`
	want := []finding{
		{At: "w.yaml:5:17", Severity: "warning",
			Message: "StorageClass a (provisioner ebs.csi.aws.com) is marked default, and so is b (efs.csi.aws.com): claims without a class get whichever of them is newest (older Kubernetes rejected such claims)",
			Related: []string{"w.yaml:12:17 StorageClass b is marked default too"}},
		{At: "w.yaml:12:17", Severity: "warning",
			Message: "StorageClass b (provisioner efs.csi.aws.com) is marked default, and so is a (ebs.csi.aws.com): claims without a class get whichever of them is newest (older Kubernetes rejected such claims)",
			Related: []string{"w.yaml:5:17 StorageClass a is marked default too"}},
	}
	if diff := cmp.Diff(want, run(t, DefaultClassAmbiguity, src)); diff != "" {
		t.Errorf("PVL015 findings (-want +got):\n%s", diff)
	}
}

// TestReclaimDeleteRelatesTheClaims checks that PVL020 names every stateful claim it
// counted as a related location: claim templates at their name, claims at theirs.
func TestReclaimDeleteRelatesTheClaims(t *testing.T) {
	src := `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
---
apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  template:
    spec:
      containers: [{name: db, image: postgres}]
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce], storageClassName: gp3}
---
apiVersion: v1
kind: Pod
metadata: {name: tool}
spec:
  volumes:
  - name: v
    persistentVolumeClaim: {claimName: tool}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: tool}
spec: {accessModes: [ReadWriteOnce], storageClassName: gp3}
`
	want := []finding{{
		At: "w.yaml:4:1", Severity: "note",
		Message: "StorageClass gp3 (provisioner ebs.csi.aws.com, reclaimPolicy unset, defaults to Delete) backs claim template data (ReadWriteOnce) of StatefulSet db, and 1 more stateful claim: deleting the claim deletes the volume and its data",
		Related: []string{
			"w.yaml:14:16 claim template data (ReadWriteOnce) of StatefulSet db",
			"w.yaml:27:12 PVC tool (ReadWriteOnce), mounted by Pod tool",
		},
	}}
	if diff := cmp.Diff(want, run(t, ReclaimDelete, src)); diff != "" {
		t.Errorf("PVL020 findings (-want +got):\n%s", diff)
	}
}
