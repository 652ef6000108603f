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

// TestContextClaimSharedByLinted: a claim-centred hazard on a snapshot's claim that
// the repository's workloads cause is reported at the first of them; one that only
// the cluster's own workloads cause is not reported at all.
func TestContextClaimSharedByLinted(t *testing.T) {
	parse := func(name, src, context string) []*graph.Resource {
		t.Helper()
		rs, ds := manifest.Parse(name, []byte(src), manifest.Options{})
		if len(ds) > 0 {
			t.Fatal(ds)
		}
		for _, r := range rs {
			r.Origin.Context = context
		}
		return rs
	}
	job := func(name, claim string) string {
		return `apiVersion: batch/v1
kind: CronJob
metadata: {name: ` + name + `}
spec:
  concurrencyPolicy: Forbid
  jobTemplate:
    spec:
      template:
        spec:
          volumes: [{name: v, persistentVolumeClaim: {claimName: ` + claim + `}}]
`
	}
	linted := parse("jobs.yaml", job("a", "once-pod")+"---\n"+job("b", "once-pod"), "")
	snap := parse("snap.yaml", `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: once-pod}
spec: {accessModes: [ReadWriteOncePod], storageClassName: fast}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: theirs}
spec: {accessModes: [ReadWriteOnce], storageClassName: fast}
---
`+job("c", "theirs")+"---\n"+job("d", "theirs"), "cluster snapshot snap.yaml")
	findings, errs := rules.Run(graph.New(append(linted, snap...), graph.Options{}), rules.All(), rules.Options{})
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var got []string
	for _, f := range findings {
		got = append(got, f.Rule.ID+" "+f.Resource.String()+" "+f.Range.String())
	}
	want := []string{"PVL006 CronJob/default/a jobs.yaml:10:21"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("findings:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
