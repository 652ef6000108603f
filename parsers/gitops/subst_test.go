package gitops

import (
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

func TestSubstitute(t *testing.T) {
	vars := map[string]string{"N": "3", "CLASS": "ebs", "EMPTY": ""}
	for in, want := range map[string]struct {
		out   string
		known bool
	}{
		"${CLASS}":                {"ebs", true},
		"x-${CLASS}-${N}":         {"x-ebs-3", true},
		"${MISSING:=gp3}":         {"gp3", true},
		"${MISSING:-gp3}":         {"gp3", true},
		"${EMPTY:=d}":             {"d", true},
		"${EMPTY=d}":              {"", true},
		"${MISSING-d}":            {"d", true},
		"${MISSING}":              {"${MISSING}", false},
		"${N:1:2}":                {"${N:1:2}", false},
		"$${CLASS} $CLASS $ ${N}": {"${CLASS} $CLASS $ 3", true},
		"${unterminated":          {"${unterminated", true},
	} {
		out, known, err := substitute(in, vars)
		if err != nil || out != want.out || known != want.known {
			t.Errorf("substitute(%q) = %q, %v, %v; want %q, %v", in, out, known, err, want.out, want.known)
		}
	}
	doc := `apiVersion: apps/v1
kind: Deployment
metadata: {name: "${NAME:=web}"}
spec:
  replicas: ${N}
  template:
    spec:
      containers: [{name: c, image: "img:${TAG}"}]
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  annotations: {kustomize.toolkit.fluxcd.io/substitute: disabled}
spec: {storageClassName: "${CLASS}"}
`
	rs, diags := manifest.Parse("x.yaml", []byte(doc), manifest.Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	if d := Substitute(rs, vars, graph.Range{}); d != nil {
		t.Fatal(d)
	}
	if n, ok := rs[0].Get("spec", "replicas").Int(); !ok || n != 3 || rs[0].Get("spec", "replicas").Range.Start.Line != 5 {
		t.Errorf("replicas = %d, %v at %v; want 3 at line 5", n, ok, rs[0].Get("spec", "replicas").Range)
	}
	if img := rs[0].Get("spec", "template", "spec", "containers").Items()[0].Get("image"); !img.IsUnknown() {
		t.Errorf("image %v, want unknown (TAG is not set)", img)
	}
	if rs[0].Name != "web" {
		t.Errorf("name %q", rs[0].Name)
	}
	if c := rs[1].Get("spec", "storageClassName").Str(); c != "${CLASS}" {
		t.Errorf("class %q: substitution disabled on the object", c)
	}
	// Bounds: a 512 KiB variable used 100 times in one value, and in many values.
	big := map[string]string{"B": strings.Repeat("x", 512<<10)}
	if _, _, err := substitute(strings.Repeat("${B}", 100), big); err == nil {
		t.Error("a 50 MB value was substituted")
	}
	var many strings.Builder
	many.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: m}\ndata:\n")
	for i := range 100 {
		many.WriteString("  k" + strings.Repeat("k", i) + ": ${B}\n")
	}
	rs, _ = manifest.Parse("m.yaml", []byte(many.String()), manifest.Options{})
	if d := Substitute(rs, big, graph.Range{File: "ks.yaml", Start: graph.Pos{Line: 1}}); len(d) != 1 || !strings.Contains(d[0].Message, "more than") {
		t.Errorf("diagnostics %v, want the bound", d)
	}
}

// FuzzSubstitute: any text substitutes within the bound, never panics.
func FuzzSubstitute(f *testing.F) {
	for _, s := range []string{"${A}", "$${A}", "${A:=x}", "${B:-${A}}", "${", "$", "${A}${A}${A}", "${1}", "${A:1:2}"} {
		f.Add(s)
	}
	vars := map[string]string{"A": strings.Repeat("a", 1000)}
	f.Fuzz(func(t *testing.T, s string) {
		out, _, err := substitute(s, vars)
		if err == nil && len(out) > maxSubstScalar {
			t.Errorf("%d bytes from %q", len(out), s)
		}
	})
}
