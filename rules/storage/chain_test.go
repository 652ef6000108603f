package storage

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

// chainWorld has one link of every kind: an autoscaler, a claim pre-bound to a PV whose
// CSI driver is declared by a CSIDriver object, and a claim resolved through its class.
const chainWorld = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 2
  strategy: {type: Recreate}
  template:
    spec:
      volumes:
      - name: static
        persistentVolumeClaim: {claimName: static}
      - name: dynamic
        persistentVolumeClaim: {claimName: dynamic}
---
apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  maxReplicas: 6
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: static}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: ""
  volumeName: pv-1
---
apiVersion: v1
kind: PersistentVolume
metadata: {name: pv-1}
spec:
  accessModes: [ReadWriteOnce]
  csi: {driver: files.example.com, volumeHandle: h}
---
apiVersion: storage.k8s.io/v1
kind: CSIDriver
metadata: {name: files.example.com}
spec:
  attachRequired: false
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: dynamic}
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: gp3}
provisioner: ebs.csi.aws.com
`

type finding struct {
	At, Severity, Message string
	Related               []string
}

func run(t *testing.T, r *lint.Rule, src string) []finding {
	t.Helper()
	rs, ds := manifest.Parse("w.yaml", []byte(src), manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("fixture does not parse: %v", ds)
	}
	g := graph.New(rs, graph.Options{})
	var out []finding
	r.Check(lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) {
		x := finding{At: f.Range.String(), Severity: f.Severity.String(), Message: f.Message}
		for _, rel := range f.Related {
			x.Related = append(x.Related, rel.Range.String()+" "+rel.Message)
		}
		out = append(out, x)
	}))
	return out
}

// TestRelatedLocations checks that a finding carries a related location for every link
// of its chain: the autoscaler, the replicas it overrides, the claim, the PV, the
// CSIDriver and the StorageClass.
func TestRelatedLocations(t *testing.T) {
	want := []finding{
		{
			At: "w.yaml:5:13", Severity: "warning",
			Message: "Deployment web (HorizontalPodAutoscaler web max 6) mounts PVC static (ReadWriteOnce, PV pv-1 → files.example.com): nothing enforces ReadWriteOnce on this backend, so every pod writes to it at once",
			Related: []string{
				"w.yaml:20:16 HorizontalPodAutoscaler web scales Deployment web up to 6 replicas",
				"w.yaml:5:13 Deployment web: replicas 2",
				"w.yaml:26:3 PVC static: accessModes ReadWriteOnce",
				"w.yaml:34:3 PV pv-1: accessModes ReadWriteOnce",
				"w.yaml:41:3 CSIDriver files.example.com: attachRequired false",
			},
		},
		{
			At: "w.yaml:5:13", Severity: "error",
			Message: "Deployment web (HorizontalPodAutoscaler web max 6) mounts PVC dynamic (ReadWriteOnce, class gp3 → ebs.csi.aws.com): pods on a second node fail to attach it (Multi-Attach error), pods on the same node share it read-write",
			Related: []string{
				"w.yaml:20:16 HorizontalPodAutoscaler web scales Deployment web up to 6 replicas",
				"w.yaml:5:13 Deployment web: replicas 2",
				"w.yaml:47:3 PVC dynamic: accessModes ReadWriteOnce",
				"w.yaml:53:1 StorageClass gp3: provisioner ebs.csi.aws.com (attachable)",
			},
		},
	}
	if diff := cmp.Diff(want, run(t, RWOMultiPod, chainWorld)); diff != "" {
		t.Errorf("PVL002 findings (-want +got):\n%s", diff)
	}
}

// TestRollingUpdateRelatesTheVolume checks PVL003's report location and that the
// mounting volume is a related location.
func TestRollingUpdateRelatesTheVolume(t *testing.T) {
	src := `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  strategy:
    rollingUpdate: {maxSurge: 1}
  template:
    spec:
      volumes:
      - name: vol
        persistentVolumeClaim: {claimName: data}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOncePod]}
`
	want := []finding{{
		At: "w.yaml:6:21", Severity: "error",
		Message: "Deployment web (RollingUpdate (default), maxSurge 1 → 1) mounts PVC data (ReadWriteOncePod, default class not in the linted set): the new pod is Unschedulable while the old pod holds the volume, and the old pod waits for the new one: the rollout deadlocks",
		Related: []string{
			"w.yaml:10:9 volume vol mounts PVC data",
			"w.yaml:16:8 PVC data: accessModes ReadWriteOncePod",
		},
	}}
	if diff := cmp.Diff(want, run(t, RWORollingUpdate, src)); diff != "" {
		t.Errorf("PVL003 findings (-want +got):\n%s", diff)
	}
}

// TestOneFingerprintPerClaim checks that two claims reported at one replicas field
// remain two findings for baselines: their fingerprints differ.
func TestOneFingerprintPerClaim(t *testing.T) {
	rs, _ := manifest.Parse("w.yaml", []byte(chainWorld), manifest.Options{})
	g := graph.New(rs, graph.Options{})
	var fps []string
	RWOMultiPod.Check(lint.NewPass(RWOMultiPod, g, lint.NewestKnown, func(f lint.Finding) {
		fps = append(fps, lint.Fingerprint(f))
		if want := []string{"spec", "template", "spec", "volumes", "0"}; len(fps) == 1 && !cmp.Equal(f.Path, want) {
			t.Errorf("path of the first finding = %v, want %v", f.Path, want)
		}
	}))
	if len(fps) != 2 || fps[0] == fps[1] {
		t.Errorf("fingerprints %v, want two different ones", fps)
	}
}
