package storage

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStaticBindingRelatesTheOtherSide checks PVL014's related locations: the PV's
// field for a claim naming it, the claim's field for a PV reserving it, and the
// claimRef that makes a pair bind without checks.
func TestStaticBindingRelatesTheOtherSide(t *testing.T) {
	src := `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: a}
spec:
  storageClassName: ""
  volumeName: pv-a
  accessModes: [ReadWriteMany]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-a}
spec:
  accessModes: [ReadWriteOnce]
  claimRef: {name: a, namespace: default}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: b}
spec:
  storageClassName: fast
  accessModes: [ReadWriteOnce]
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-b}
spec:
  storageClassName: slow
  accessModes: [ReadWriteOnce]
  claimRef: {name: b, namespace: default}
`
	want := []finding{
		{At: "w.yaml:7:3", Severity: "error",
			Message: "PVC a and PV pv-a are pre-bound to each other, but the claim asks for ReadWriteMany, which PV pv-a (ReadWriteOnce) does not offer: the PV's claimRef makes Kubernetes bind them without checking, so the claim gets a volume that does not fit it",
			Related: []string{"w.yaml:13:3 PV pv-a: accessModes ReadWriteOnce", "w.yaml:14:3 PV pv-a: claimRef default/a"}},
		{At: "w.yaml:29:3", Severity: "warning",
			Message: "PVC b and PV pv-b are tied by the PV's claimRef, but the claim has class fast, PV pv-b has slow: they bind without the class check, so the claim records a class its volume does not have",
			Related: []string{"w.yaml:20:3 PVC b: storageClassName fast"}},
	}
	if diff := cmp.Diff(want, run(t, StaticBindingMismatch, src)); diff != "" {
		t.Errorf("PVL014 findings (-want +got):\n%s", diff)
	}
}

// TestClasslessPVWithoutKnownDefault checks the wording when the default class is not
// in the linted set: whether the claim gets one depends on the cluster.
func TestClasslessPVWithoutKnownDefault(t *testing.T) {
	src := `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: cache}
spec:
  accessModes: [ReadWriteMany]
  volumeName: cache-pv
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: cache-pv}
spec:
  accessModes: [ReadWriteMany]
  csi: {driver: ebs.csi.aws.com, volumeHandle: "local-ebs://dev/xvdbz"}
`
	want := []finding{{
		At: "w.yaml:6:3", Severity: "error",
		Message: `PVC cache is pre-bound to PV cache-pv, which has no class, but sets no storageClassName: admission gives it the cluster's default StorageClass, if it has one (most do), so it stays Pending with "Cannot bind to requested volume \"cache-pv\": storageClassName does not match"; set storageClassName: ""`,
		Related: []string{"w.yaml:11:1 PV cache-pv: storageClassName unset"},
	}}
	if diff := cmp.Diff(want, run(t, StaticBindingMismatch, src)); diff != "" {
		t.Errorf("PVL014 findings (-want +got):\n%s", diff)
	}
}
