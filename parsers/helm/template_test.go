package helm

import (
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
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
