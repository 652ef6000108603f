package lint_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

var rule = &lint.Rule{ID: "PVL999", Name: "test"}

// finding parses src and reports at the given path of its first resource.
func finding(t *testing.T, src string, path ...string) lint.Finding {
	t.Helper()
	rs, ds := manifest.Parse("f.yaml", []byte(src), manifest.Options{})
	if len(ds) > 0 || len(rs) == 0 {
		t.Fatalf("fixture: %v", ds)
	}
	r := rs[0]
	return lint.Finding{Rule: rule, Resource: r, Range: r.Locate(path...), Message: "m"}
}

const dep = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 3
  template:
    spec:
      volumes:
      - name: data
        persistentVolumeClaim: {claimName: data}
`

func TestFingerprintSurvivesMovesAndReindent(t *testing.T) {
	base := lint.Fingerprint(finding(t, dep, "spec", "replicas"))
	moved := lint.Fingerprint(finding(t, "# a comment\n\n"+dep, "spec", "replicas"))
	reindented := `apiVersion: apps/v1
kind: Deployment
metadata:
    name: web
spec:
    template:
        spec:
            volumes:
                - name: data
                  persistentVolumeClaim:
                      claimName: data
    replicas: 3
`
	re := lint.Fingerprint(finding(t, reindented, "spec", "replicas"))
	if base != moved || base != re {
		t.Errorf("fingerprint changed: %s %s %s", base, moved, re)
	}
	other := lint.Fingerprint(finding(t, dep, "spec", "template", "spec", "volumes", "0"))
	if other == base {
		t.Errorf("different fields share a fingerprint")
	}
	renamed := lint.Fingerprint(finding(t, strings.Replace(dep, "name: web", "name: api", 1), "spec", "replicas"))
	if renamed == base {
		t.Errorf("different resources share a fingerprint")
	}
}

func TestFieldPath(t *testing.T) {
	f := finding(t, dep, "spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName")
	if diff := cmp.Diff([]string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, lint.FieldPath(f)); diff != "" {
		t.Errorf("path (-want +got):\n%s", diff)
	}
	f.Range = f.Resource.Range
	if p := lint.FieldPath(f); p != nil {
		t.Errorf("a finding on the whole resource has path %v, want none", p)
	}
}

func TestFingerprintWithoutResource(t *testing.T) {
	a := lint.Finding{Rule: rule, Message: "invalid YAML: line 5", Range: graph.Range{File: "a.yaml", Start: graph.Pos{Line: 5, Column: 1}}}
	b := a
	b.Message, b.Range.Start.Line = "invalid YAML: line 9", 9
	if lint.Fingerprint(a) != lint.Fingerprint(b) {
		t.Errorf("parse-error fingerprint depends on line numbers")
	}
}

func TestFingerprintNamesListItems(t *testing.T) {
	claim := []string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}
	base := lint.Fingerprint(finding(t, dep, claim...))
	inserted := strings.Replace(dep, "      - name: data\n", "      - name: tmp\n        emptyDir: {}\n      - name: data\n", 1)
	shifted := append([]string(nil), claim...)
	shifted[4] = "1"
	if got := lint.Fingerprint(finding(t, inserted, shifted...)); got != base {
		t.Errorf("a volume inserted in front of the claim changed its fingerprint")
	}
	if got := lint.Fingerprint(finding(t, inserted, claim[:5]...)); got == lint.Fingerprint(finding(t, inserted, shifted[:5]...)) {
		t.Errorf("two named volumes share a fingerprint")
	}
	unnamed := strings.Replace(dep, "      - name: data\n        persistentVolumeClaim", "      - persistentVolumeClaim", 1)
	if a, b := lint.Fingerprint(finding(t, unnamed, claim...)), lint.Fingerprint(finding(t, dep, claim...)); a == b {
		t.Errorf("an unnamed item and a named one share a fingerprint")
	}
	tpl := `apiVersion: apps/v1
kind: StatefulSet
metadata: {name: db}
spec:
  volumeClaimTemplates:
  - metadata: {name: data}
    spec: {accessModes: [ReadWriteOnce]}
`
	moreTpl := strings.Replace(tpl, "  - metadata: {name: data}", "  - metadata: {name: logs}\n  - metadata: {name: data}", 1)
	if lint.Fingerprint(finding(t, tpl, "spec", "volumeClaimTemplates", "0", "spec")) != lint.Fingerprint(finding(t, moreTpl, "spec", "volumeClaimTemplates", "1", "spec")) {
		t.Errorf("a claim template is not identified by metadata.name")
	}
}

// TestFingerprintKey: a Key tells apart findings of one rule at one field.
func TestFingerprintKey(t *testing.T) {
	plain := finding(t, dep, "metadata", "name")
	a, b := plain, plain
	a.Key, b.Key = "runs as root", "no app label"
	fa, fb, fp := lint.Fingerprint(a), lint.Fingerprint(b), lint.Fingerprint(plain)
	if fa == fb || fa == fp || fb == fp {
		t.Errorf("keys do not tell findings apart: %s %s %s", fa, fb, fp)
	}
}
