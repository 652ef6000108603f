package rules_test

import (
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules"
)

// TestContextNeverReported: a snapshot's Immediate class, its shared claim and a
// profile's class would each draw findings if linted; as cluster context they only
// resolve the linted claim, whose finding names them and links no place outside a file.
func TestContextNeverReported(t *testing.T) {
	linted, ds := manifest.Parse("app.yaml", []byte(`apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], storageClassName: premium-rwo}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  template:
    spec:
      volumes: [{name: data, persistentVolumeClaim: {claimName: data}}]
`), manifest.Options{})
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	snap, ds := manifest.Parse("snap.yaml", []byte(`apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: slow}
provisioner: ebs.csi.aws.com
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: shared}
spec: {accessModes: [ReadWriteOnce, ReadWriteMany], storageClassName: slow}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: theirs}
spec:
  replicas: 4
  template:
    spec:
      volumes: [{name: s, persistentVolumeClaim: {claimName: shared}}]
`), manifest.Options{})
	if len(ds) > 0 {
		t.Fatal(ds)
	}
	for _, r := range snap {
		r.Origin.Context = "cluster snapshot snap.yaml"
	}
	all := append(append(linted, snap...), graph.FindPlatform("gke").Resources()...)
	findings, errs := rules.Run(graph.New(all, graph.Options{}), rules.All(), rules.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if len(findings) == 0 {
		t.Fatal("the linted Deployment's claim draws no finding")
	}
	for _, f := range findings {
		if f.Range.File != "app.yaml" || f.Resource.IsContext() {
			t.Errorf("finding on context: %s %s: %s", f.Rule.ID, f.Range, f.Message)
		}
		if f.Rule.ID == "PVL002" && !strings.Contains(f.Message, "class premium-rwo (GKE default classes) → pd.csi.storage.gke.io") {
			t.Errorf("PVL002 chain does not name the profile: %s", f.Message)
		}
		for _, l := range f.Related {
			if l.Range.File == "" {
				t.Errorf("%s links a place in no file: %s", f.Rule.ID, l.Message)
			}
		}
	}
}
