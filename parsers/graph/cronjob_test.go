package graph_test

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// parseOne builds a graph from one YAML stream.
func parseOne(t *testing.T, src string) *graph.Graph {
	t.Helper()
	rs, ds := manifest.Parse("t.yaml", []byte(src), manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("fixture does not parse: %v", ds)
	}
	return graph.New(rs, graph.Options{})
}

// TestCronJobConcurrency checks rules.md's C(w) for CronJobs: many over time unless
// concurrencyPolicy is Forbid; suspended never runs.
func TestCronJobConcurrency(t *testing.T) {
	tests := []struct {
		spec  string
		n     int
		many  bool
		known bool
		why   string
	}{
		{"{jobTemplate: {spec: {}}}", 2, true, true, "concurrencyPolicy Allow (default)"},
		{"{concurrencyPolicy: Allow, jobTemplate: {spec: {}}}", 2, true, true, "concurrencyPolicy Allow"},
		{"{concurrencyPolicy: Replace, jobTemplate: {spec: {parallelism: 3}}}", 3, true, true, "concurrencyPolicy Replace"},
		{"{concurrencyPolicy: Forbid, jobTemplate: {spec: {}}}", 1, false, true, "concurrencyPolicy Forbid"},
		{"{concurrencyPolicy: Forbid, jobTemplate: {spec: {parallelism: 2}}}", 2, false, true, "concurrencyPolicy Forbid, parallelism 2"},
		{"{suspend: true, jobTemplate: {spec: {}}}", 0, false, true, "suspended"},
		{"{jobTemplate: {spec: {suspend: true}}}", 0, false, true, "suspended"},
	}
	for _, tt := range tests {
		g := parseOne(t, "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: c}\nspec: "+tt.spec+"\n")
		c := g.ConcurrencyOf(g.ByKind("CronJob")[0])
		if c.N != tt.n || c.Many != tt.many || c.Known != tt.known || c.Why != tt.why {
			t.Errorf("spec %s: C = {N %d, Many %v, Known %v, Why %q}, want {%d, %v, %v, %q}",
				tt.spec, c.N, c.Many, c.Known, c.Why, tt.n, tt.many, tt.known, tt.why)
		}
	}
}

// TestStorageClassWithoutAnnotations is a regression test: IsDefaultClass dereferenced
// a missing annotation, so any StorageClass without one crashed graph.New.
func TestStorageClassWithoutAnnotations(t *testing.T) {
	g := parseOne(t, `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: plain}
provisioner: ebs.csi.aws.com
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: default
  annotations: {storageclass.kubernetes.io/is-default-class: "true"}
provisioner: ebs.csi.aws.com
`)
	if d := g.DefaultClasses(); len(d) != 1 || d[0].Name != "default" {
		t.Errorf("DefaultClasses = %v, want [default]", d)
	}
}
