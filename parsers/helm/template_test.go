package helm

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// skeleton lists a scope's entries as "line path" (sites as "line @path <- names").
func skeleton(sc *scope) []string {
	var out []string
	for _, e := range sc.entries {
		p := strings.ReplaceAll(strings.Join(e.path, "."), wildcard, "*")
		switch e.kind {
		case siteEntry:
			out = append(out, strconv.Itoa(e.line)+" @"+p+" <- "+strings.Join(e.includes, ","))
		case itemEntry:
			out = append(out, strconv.Itoa(e.line)+" "+p+" ="+strconv.Itoa(e.keyCol))
		default:
			out = append(out, strconv.Itoa(e.line)+" "+p)
		}
	}
	return out
}

func TestAnalyse(t *testing.T) {
	src := `{{- if .Values.enabled }}
apiVersion: v1
kind: ConfigMap
metadata:
  labels:
    {{- include "x.labels" . | nindent 4 }}
  {{ .Values.key }}: value
data:
  script.sh: |
    #!/bin/sh
    name: not-a-key
  list:
  - a
  -   b: 1
      c: 2
  "quoted key": x # note
---
kind: Second
spec: {{ toYaml .Values.spec | nindent 2 }}
{{- end }}
{{- define "x.labels" -}}
app: {{ .Release.Name }}
{{ include "x.selector" . }}
{{- end }}
`
	f := analyse("c/templates/cm.yaml", "cm.yaml", []byte(src))
	if len(f.regions) != 2 {
		t.Fatalf("%d regions", len(f.regions))
	}
	want0 := []string{
		"2 apiVersion", "3 kind", "4 metadata", "5 metadata.labels",
		"6 @metadata.labels <- x.labels",
		"7 metadata.*", "8 data", "9 data.script.sh", "12 data.list",
		"13 data.list.[] =5", "14 data.list.[].b", "15 data.list.[].c", "16 data.quoted key",
	}
	if diff := cmp.Diff(want0, skeleton(f.regions[0])); diff != "" {
		t.Errorf("first document (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"18 kind", "19 spec"}, skeleton(f.regions[1])); diff != "" {
		t.Errorf("second document (-want +got):\n%s", diff)
	}
	if got := f.regions[1].entries[1]; len(got.includes) != 0 || got.sitePath == nil {
		// toYaml is not an include: nothing to expand, but the key is a site.
		t.Errorf("spec entry %+v", got)
	}
	def := f.defines["x.labels"]
	if def == nil {
		t.Fatal("define x.labels not found")
	}
	if diff := cmp.Diff([]string{"22 app", "23 @ <- x.selector"}, skeleton(def)); diff != "" {
		t.Errorf("define body (-want +got):\n%s", diff)
	}
	// Key columns are characters on the template line.
	e := f.regions[0].entries[len(f.regions[0].entries)-1]
	if e.keyCol != 3 || e.keyEnd != 15 || e.valCol != 17 {
		t.Errorf("quoted key columns %d-%d value %d", e.keyCol, e.keyEnd, e.valCol)
	}
}

func TestLexActions(t *testing.T) {
	src := `a: {{ "}}" }} b: {{/* }} */}} c: {{ printf ` + "`}}`" + ` }}`
	var got []string
	for _, a := range lexActions([]byte(src)) {
		got = append(got, a.text)
	}
	want := []string{`{{ "}}" }}`, `{{/* }} */}}`, "{{ printf `}}` }}"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if acts := lexActions([]byte("x: {{ .unterminated")); len(acts) != 1 || acts[0].end != len("x: {{ .unterminated") {
		t.Errorf("unterminated action: %+v", acts)
	}
}

func TestGlob(t *testing.T) {
	h := string(hole)
	tests := []struct {
		pattern, text string
		want          bool
	}{
		{"replicas: " + h + h, "replicas: 3", true},
		{"replicas: " + h, "replicasx: 3", false},
		{`image: "` + h + ":" + h + `"`, `image: "nginx:1.2"`, true},
		{`image: "` + h + ":" + h + `"`, `image: "nginx"`, false},
		{"name: data", "name: data", true},
		{"name: data", "name: data2", false},
		{h + ": value", "anything: value", true},
		{"a" + h + "a", "a", false},
		{h, "", true},
	}
	for _, tt := range tests {
		if got := glob(tt.pattern, tt.text); got != tt.want {
			t.Errorf("glob(%q, %q) = %v", tt.pattern, tt.text, got)
		}
	}
}

// TestIdenticalDocuments checks that a template repeating one literal document many
// times maps each rendered object to its own document, in linear time.
func TestIdenticalDocuments(t *testing.T) {
	const n = 3000
	data := []byte(strings.Repeat("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: x\ndata:\n  a: b\n", n))
	tf := analyse("c/templates/t.yaml", "t.yaml", data)
	rs, _ := manifest.Parse("stream", data, manifest.Options{})
	m := &mapper{name: "stream", stream: data, lines: graph.NewLines(data), defines: tf.defines}
	for i, r := range rs {
		if doc := m.resource(r, tf); doc != i {
			t.Fatalf("object %d mapped to document %d", i, doc)
		}
		if want := 7*i + 2; int(r.Range.Start.Line) != want {
			t.Fatalf("object %d starts at line %d, want %d", i, r.Range.Start.Line, want)
		}
	}
	if len(rs) != n {
		t.Fatalf("%d objects", len(rs))
	}
}

// FuzzAnalyse checks that any template text is analysed without panicking into
// entries whose lines and columns exist in it, and that mapping a rendered object
// onto it keeps every range inside the template.
func FuzzAnalyse(f *testing.F) {
	files, _ := filepath.Glob("../../testdata/helm/*/templates/*")
	for _, p := range files {
		if info, err := os.Stat(p); err != nil || info.IsDir() {
			continue
		}
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("{{ define \"x\" }}\n- a: {{ include \"x\" . | nindent 2 }}\n{{ end }}"))
	f.Add([]byte("a:\n  {{ $k }}: |\n    b: c\n---\n- - x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		tf := analyse("c/templates/t.yaml", "t.yaml", data)
		lines := strings.Split(string(data), "\n")
		var scopes []*scope
		scopes = append(scopes, tf.regions...)
		for _, n := range sortedKeys(tf.defines) {
			scopes = append(scopes, tf.defines[n])
		}
		for _, sc := range scopes {
			for _, e := range sc.entries {
				if e.line < 1 || e.line > len(lines) {
					t.Fatalf("entry %+v outside the %d lines", e, len(lines))
				}
				if e.kind != siteEntry && (e.keyCol < 1 || e.keyEnd < e.keyCol) {
					t.Fatalf("entry %+v has bad columns", e)
				}
			}
		}
		// Map the template's own text when it parses as YAML: every range must land
		// in the template, on an existing line.
		rs, ds := manifest.Parse("stream", data, manifest.Options{})
		if len(ds) > 0 {
			return
		}
		m := &mapper{name: "stream", stream: data, lines: graph.NewLines(data), defines: tf.defines}
		for _, r := range rs {
			m.resource(r, tf)
			r.Object.Walk(func(n *graph.Node) {
				if n.Range.File == "t.yaml" && (n.Range.Start.Line < 1 || int(n.Range.Start.Line) > len(lines)) {
					t.Fatalf("node at %s outside the template", n.Range)
				}
			})
		}
	})
}
