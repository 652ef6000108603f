package manifest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

// rng builds an expected range in file "f.yaml" from 1-based line/column pairs.
func rng(l1, c1, l2, c2 int) [4]int { return [4]int{l1, c1, l2, c2} }

func span(r graph.Range) [4]int {
	return [4]int{int(r.Start.Line), int(r.Start.Column), int(r.End.Line), int(r.End.Column)}
}

func TestRanges(t *testing.T) {
	src := strings.Join([]string{
		"# leading comment",                  // 1
		"apiVersion: apps/v1",                // 2
		"kind: Deployment",                   // 3
		"metadata:",                          // 4
		"  name: web   # trailing",           // 5
		"  labels: {app: web, tier: \"fe\"}", // 6
		"spec:",                              // 7
		"  replicas: 3",                      // 8
		"  strategy:",                        // 9
		"    type: 'Recreate'",               // 10
		"  template:",                        // 11
		"    spec:",                          // 12
		"      volumes:",                     // 13
		"        - name: data",               // 14
		"          persistentVolumeClaim:",   // 15
		"            claimName: \"data\"",    // 16
		"      note: |",                      // 17
		"        line one",                   // 18
		"        line two",                   // 19
		"      after: x",                     // 20
	}, "\n") + "\n"
	rs, ds := Parse("f.yaml", []byte(src), Options{})
	if len(ds) != 0 {
		t.Fatalf("diagnostics: %v", ds)
	}
	if len(rs) != 1 {
		t.Fatalf("got %d resources, want 1", len(rs))
	}
	r := rs[0]
	if r.Kind != "Deployment" || r.Name != "web" || r.APIVersion != "apps/v1" {
		t.Fatalf("identity = %s %s %s", r.APIVersion, r.Kind, r.Name)
	}
	tests := []struct {
		name string
		got  graph.Range
		want [4]int
	}{
		{"object", r.Range, rng(2, 1, 20, 15)},
		{"name value", r.Get("metadata", "name").Range, rng(5, 9, 5, 12)},
		{"name key", r.Get("metadata").Field("name").KeyRange, rng(5, 3, 5, 7)},
		{"flow map", r.Get("metadata", "labels").Range, rng(6, 11, 6, 33)},
		{"flow quoted", r.Get("metadata", "labels", "tier").Range, rng(6, 28, 6, 32)},
		{"int", r.Get("spec", "replicas").Range, rng(8, 13, 8, 14)},
		{"single quoted", r.Get("spec", "strategy", "type").Range, rng(10, 11, 10, 21)},
		{"list item", r.Get("spec", "template", "spec", "volumes", "0").Range, rng(14, 11, 16, 30)},
		{"double quoted", r.Get("spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName").Range, rng(16, 24, 16, 30)},
		{"block scalar", r.Get("spec", "template", "spec", "note").Range, rng(17, 13, 19, 17)},
		{"after block", r.Get("spec", "template", "spec", "after").Range, rng(20, 14, 20, 15)},
		{"locate missing", r.Locate("spec", "strategy", "rollingUpdate", "maxSurge"), rng(9, 3, 9, 11)},
		{"locate present", r.Locate("spec", "replicas"), rng(8, 3, 8, 11)},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, span(tt.got)); diff != "" {
			t.Errorf("%s: range mismatch (-want +got):\n%s", tt.name, diff)
		}
		if tt.got.File != "f.yaml" {
			t.Errorf("%s: file = %q", tt.name, tt.got.File)
		}
	}
	if v, ok := r.Get("spec", "replicas").Int(); !ok || v != 3 {
		t.Errorf("replicas = %d, %v", v, ok)
	}
	// Byte offsets agree with lines and columns.
	n := r.Get("spec", "replicas")
	if got := src[n.Range.Start.Byte:n.Range.End.Byte]; got != "3" {
		t.Errorf("byte span = %q, want %q", got, "3")
	}
}

func TestDocuments(t *testing.T) {
	src := `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: a}
---
# a values file, not an object
replicaCount: 1
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: b, namespace: ns}
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: c}
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: broken
  labels: [unclosed
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: d}
...
`
	rs, ds := Parse("multi.yaml", []byte(src), Options{})
	var got []string
	for _, r := range rs {
		got = append(got, r.String()+"@"+r.Range.String())
	}
	want := []string{
		"PersistentVolumeClaim/a@multi.yaml:1:1",
		"PersistentVolumeClaim/ns/b@multi.yaml:11:3",
		"PersistentVolumeClaim/c@multi.yaml:14:3",
		"StorageClass/d@multi.yaml:24:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if len(ds) != 1 {
		t.Fatalf("diagnostics = %v, want one", ds)
	}
	if ds[0].Range.File != "multi.yaml" || ds[0].Range.Start.Line < 18 || ds[0].Range.Start.Line > 23 {
		t.Errorf("diagnostic at %v, want within the broken document (lines 18-23): %s", ds[0].Range, ds[0].Message)
	}
	if rs[1].Origin.Doc != 2 || rs[3].Origin.Doc != 4 {
		t.Errorf("document indexes = %d, %d", rs[1].Origin.Doc, rs[3].Origin.Doc)
	}
}

func TestErrorsHavePositions(t *testing.T) {
	tests := []struct {
		name, src string
		line      int32
	}{
		{"bad indentation", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: x\n   bad: y\n", 5},
		{"tab indentation", "apiVersion: v1\nkind: Pod\nmetadata:\n\tname: x\n", 4},
		{"invalid utf-8", "apiVersion: v1\nkind: Pod\nmetadata:\n  name: \xff\n", 4},
	}
	for _, tt := range tests {
		_, ds := Parse("e.yaml", []byte(tt.src), Options{})
		if len(ds) != 1 {
			t.Errorf("%s: diagnostics = %v, want one", tt.name, ds)
			continue
		}
		if ds[0].Range.Start.Line != tt.line || ds[0].Range.Start.Column < 1 {
			t.Errorf("%s: diagnostic at %d:%d, want line %d: %s", tt.name, ds[0].Range.Start.Line, ds[0].Range.Start.Column, tt.line, ds[0].Message)
		}
	}
}

func TestAliasBombIsBounded(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: bomb}\ndata:\n")
	b.WriteString("  a: &a [x, x, x, x, x, x, x, x, x, x]\n")
	prev := "a"
	for i := range 9 {
		name := string(rune('b' + i))
		b.WriteString("  " + name + ": &" + name + " [")
		for j := range 10 {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*" + prev)
		}
		b.WriteString("]\n")
		prev = name
	}
	rs, ds := Parse("bomb.yaml", []byte(b.String()), Options{})
	if len(rs) != 0 || len(ds) != 1 || !strings.Contains(ds[0].Message, "alias") {
		t.Fatalf("got %d resources and diagnostics %v, want one alias-limit diagnostic", len(rs), ds)
	}
}

func TestMergeKeysAndAliases(t *testing.T) {
	src := `apiVersion: apps/v1
kind: Deployment
metadata: {name: m}
x-defaults: &defaults
  replicas: 2
spec:
  <<: *defaults
  selector: {}
`
	rs, ds := Parse("m.yaml", []byte(src), Options{})
	if len(ds) != 0 || len(rs) != 1 {
		t.Fatalf("resources %d diagnostics %v", len(rs), ds)
	}
	if v, ok := rs[0].Get("spec", "replicas").Int(); !ok || v != 2 {
		t.Errorf("merged replicas = %d, %v; want 2", v, ok)
	}
}

func TestNonKubernetesYAMLIgnored(t *testing.T) {
	for _, src := range []string{
		"on: [push]\njobs:\n  build:\n    runs-on: ubuntu-latest\n",
		"services:\n  db:\n    image: postgres\n",
		"replicaCount: 3\npersistence:\n  enabled: true\n",
		`{"name": "pkg", "version": "1.0.0"}`,
		"",
		"# only a comment\n",
	} {
		rs, ds := Parse("x.yaml", []byte(src), Options{})
		if len(rs) != 0 || len(ds) != 0 {
			t.Errorf("%q: got %d resources, %v", src, len(rs), ds)
		}
	}
}

func TestJSONManifest(t *testing.T) {
	src := "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"PersistentVolumeClaim\",\n  \"metadata\": {\"name\": \"j\"},\n  \"spec\": {\"accessModes\": [\"ReadWriteOnce\"]}\n}\n"
	rs, ds := Parse("j.json", []byte(src), Options{})
	if len(ds) != 0 || len(rs) != 1 {
		t.Fatalf("resources %d diagnostics %v", len(rs), ds)
	}
	if diff := cmp.Diff(rng(5, 28, 5, 43), span(rs[0].Get("spec", "accessModes", "0").Range)); diff != "" {
		t.Errorf("json string range (-want +got):\n%s", diff)
	}
}

func TestCRLFAndBOM(t *testing.T) {
	src := "\xef\xbb\xbfapiVersion: v1\r\nkind: PersistentVolumeClaim\r\nmetadata:\r\n  name: crlf\r\n"
	rs, ds := Parse("c.yaml", []byte(src), Options{})
	if len(ds) != 0 || len(rs) != 1 {
		t.Fatalf("resources %d diagnostics %v", len(rs), ds)
	}
	if got := rs[0].Name; got != "crlf" {
		t.Errorf("name = %q", got)
	}
	if diff := cmp.Diff(rng(4, 9, 4, 13), span(rs[0].Get("metadata", "name").Range)); diff != "" {
		t.Errorf("name range (-want +got):\n%s", diff)
	}
}

func FuzzParse(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("testdata", "*.yaml"))
	for _, s := range seeds {
		if data, err := os.ReadFile(s); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte("apiVersion: v1\nkind: List\nitems: [{apiVersion: v1, kind: Pod, metadata: {name: p}}]\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, ds := Parse("fuzz.yaml", data, Options{Limits: Limits{MaxNodes: 10000, MaxDepth: 100, MaxDocs: 100}})
		for _, r := range rs {
			r.Object.Walk(func(n *graph.Node) {
				if n.Range.Start.Line < 1 || n.Range.End.Line < n.Range.Start.Line {
					t.Fatalf("bad range %v-%v", n.Range.Start, n.Range.End)
				}
				if n.Range.Start.Byte > n.Range.End.Byte || int(n.Range.End.Byte) > len(data) {
					t.Fatalf("bad byte span %d-%d of %d", n.Range.Start.Byte, n.Range.End.Byte, len(data))
				}
			})
		}
		for _, d := range ds {
			if d.Range.Start.Line < 1 || d.Message == "" {
				t.Fatalf("diagnostic without position or message: %+v", d)
			}
		}
	})
}

// TestLoneCarriageReturns reads old Mac line endings as YAML does: each "\r" is a
// line break, and positions count it as one (the fuzzer's first crasher here).
func TestLoneCarriageReturns(t *testing.T) {
	data := []byte("apiVersion: v1\rkind: ConfigMap\rmetadata:\r  name: mac\r")
	rs, ds := Parse("mac.yaml", data, Options{})
	if len(ds) != 0 || len(rs) != 1 {
		t.Fatalf("got %d resources, diagnostics %v", len(rs), ds)
	}
	if diff := cmp.Diff(rng(4, 9, 4, 12), span(rs[0].Get("metadata", "name").Range)); diff != "" {
		t.Errorf("name range (-want +got):\n%s", diff)
	}
}
