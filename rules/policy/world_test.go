package policy

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"weak"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

func TestValueMatchesInterface(t *testing.T) {
	g := graphOf(t, objects+`---
apiVersion: v1
kind: ConfigMap
metadata:
  name: scalars
data:
  int: 42
  hex: 0x1F
  float: 2.5
  bool: true
  "null": null
  list: [a, 1, {b: c}]
`)
	for _, r := range g.Resources {
		want, err := ast.InterfaceToValue(r.Object.Interface())
		if err != nil {
			t.Fatalf("%s: %v", r, err)
		}
		if got := value(r.Object); got.Compare(want) != 0 {
			t.Errorf("%s: value() = %v, Interface() gives %v", r, got, want)
		}
	}
}

func TestWorldIsBuiltOncePerGraph(t *testing.T) {
	g := graphOf(t, objects)
	w := worldOf(g)
	if worldOf(g) != w {
		t.Error("a second worldOf for the same graph built a new world")
	}
	if inv := w.inventory(g); inv != w.inventory(g) {
		t.Error("inventory rebuilt on the second read")
	}
	if worldOf(graphOf(t, objects)) == w {
		t.Error("two graphs share a world")
	}
	want := ast.MustParseTerm(`{
		"cluster": {"storage.k8s.io/v1": {"StorageClass": {"gp3": {"apiVersion": "storage.k8s.io/v1", "kind": "StorageClass", "metadata": {"name": "gp3"}, "provisioner": "ebs.csi.aws.com"}}}},
		"namespace": {"app": {"v1": {
			"ConfigMap": {"settings": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "settings", "namespace": "app"}, "data": {"mode": "fast", "replicas": "3"}}},
			"PersistentVolumeClaim": {"data": {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data", "namespace": "app"}, "spec": {"accessModes": ["ReadWriteOnce"], "storageClassName": "gp3"}}}
		}}}
	}`).Value
	if got := w.inventory(g); got.Compare(want) != 0 {
		t.Errorf("inventory =\n%v\nwant\n%v", got, want)
	}
}

func TestWorldDiesWithItsGraph(t *testing.T) {
	key := func() weak.Pointer[graph.Graph] {
		g := graphOf(t, objects)
		worldOf(g)
		return weak.Make(g)
	}()
	deadline := time.Now().Add(5 * time.Second)
	for {
		runtime.GC()
		if _, ok := worlds.Load(key); !ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the world of an unreachable graph is still cached")
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// bigGraph is n objects like a real cluster dump: one StorageClass, claim and
// Deployment per 50 objects, the rest ConfigMaps.
func bigGraph(t testing.TB, n int) *graph.Graph {
	var b strings.Builder
	for i := range n {
		switch i % 50 {
		case 0:
			fmt.Fprintf(&b, "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: sc%d\nprovisioner: ebs.csi.aws.com\n", i)
		case 1:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: c%d\nspec:\n  accessModes: [ReadWriteOnce]\n  storageClassName: sc%d\n", i, i-1)
		case 2:
			fmt.Fprintf(&b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: d%d\nspec:\n  replicas: 2\n  template:\n    spec:\n      volumes:\n      - name: v\n        persistentVolumeClaim: {claimName: c%d}\n", i, i-1)
		default:
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm%d\n  namespace: ns%d\ndata:\n  key: value\n  other: \"%d\"\n", i, i%20, i)
		}
	}
	return graphOf(t, b.String())
}

// BenchmarkBuiltinPolicies runs every embedded policy over a 10,000-object graph whose
// world is dropped each iteration, as if the graph were new: input conversion and
// evaluation of the declared kinds only.
func BenchmarkBuiltinPolicies(b *testing.B) {
	rules := Builtin()
	g := bigGraph(b, 10000)
	for b.Loop() {
		worlds.Delete(weak.Make(g))
		for _, r := range rules {
			n := 0
			p := lint.NewPass(r, g, lint.NewestKnown, func(lint.Finding) { n++ })
			r.Check(p)
			if n != 200 || len(p.Errors()) > 0 {
				b.Fatalf("%s: %d findings, errors %v; want 200", r.ID, n, p.Errors())
			}
		}
	}
}

// BenchmarkInventory measures building data.inventory for a 10,000-object graph, which
// happens at most once per graph and only when a policy reads it.
func BenchmarkInventory(b *testing.B) {
	g := bigGraph(b, 10000)
	for b.Loop() {
		w := &world{inputs: map[*graph.Resource]ast.Value{}}
		w.inventory(g)
	}
}
