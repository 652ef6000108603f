package graph_test

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// TestLookupNear checks that a reference resolves to the definition in its own file
// when a key is defined twice (two examples linted together), and to the first
// definition otherwise.
func TestLookupNear(t *testing.T) {
	a := `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteOnce], storageClassName: disk}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: disk}
provisioner: disk.csi.azure.com
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: one}
spec: {template: {spec: {volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]}}}
`
	b := `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec: {accessModes: [ReadWriteMany], volumeMode: Block, storageClassName: disk}
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: disk}
provisioner: disk.csi.azure.com
parameters: {maxShares: "2"}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: two}
spec: {template: {spec: {volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]}}}
`
	c := `apiVersion: apps/v1
kind: Deployment
metadata: {name: three}
spec: {template: {spec: {volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]}}}
`
	var rs []*graph.Resource
	for _, f := range []struct{ name, src string }{{"a.yaml", a}, {"b.yaml", b}, {"c.yaml", c}} {
		r, ds := manifest.Parse(f.name, []byte(f.src), manifest.Options{})
		if len(ds) > 0 {
			t.Fatalf("%s does not parse: %v", f.name, ds)
		}
		rs = append(rs, r...)
	}
	g := graph.New(rs, graph.Options{})
	want := map[string]string{"one": "a.yaml", "two": "b.yaml", "three": "a.yaml"}
	for _, w := range g.ByKind("Deployment") {
		m := g.Mounts(w)[0]
		if got := m.Claim.Resource.Range.File; got != want[w.Name] {
			t.Errorf("Deployment %s mounts the claim of %s, want %s", w.Name, got, want[w.Name])
		}
		if got := g.ClassOf(m.Claim).Class.Range.File; got != want[w.Name] {
			t.Errorf("Deployment %s's claim has the class of %s, want %s", w.Name, got, want[w.Name])
		}
	}
	if got := len(g.Consumers(g.Lookup("PersistentVolumeClaim", "default", "data"))); got != 2 {
		t.Errorf("a.yaml's claim has %d consumers, want 2 (one and three)", got)
	}
	if got := g.LookupNear("StorageClass", "ns-ignored", "disk", "b.yaml").Range.File; got != "b.yaml" {
		t.Errorf("LookupNear of a cluster-scoped kind = %s, want b.yaml", got)
	}
	if got := g.LookupNear("StorageClass", "", "disk", "elsewhere.yaml").Range.File; got != "a.yaml" {
		t.Errorf("LookupNear from another file = %s, want the first definition a.yaml", got)
	}
}
