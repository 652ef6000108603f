package helm

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestValuesReads: the values paths each template line reads, through .Values,
// variables and with.
func TestValuesReads(t *testing.T) {
	src := `{{- define "lib.deployment" -}}
{{- $envAll := index . 0 -}}
{{- $pod := $envAll.Values.pod -}}
replicas: {{ $envAll.Values.pod.replicas.api }}
grace: {{ $pod.grace | default 30 }}
{{- with $envAll.Values.pod.lifecycle.upgrades -}}
maxSurge: {{ .rolling_update.max_surge }}
name: {{ printf "%s.x" $envAll.Release.Name }}
{{- end }}
after: {{ .rolling_update.max_surge }}
root: {{ $.Values.image.tag | quote }}
{{- $strategy := default "RollingUpdate" $envAll.Values.strategy }}
type: {{ $strategy }}
{{- end -}}
`
	want := map[int][][]string{
		3:  {{"pod"}},
		4:  {{"pod", "replicas", "api"}},
		5:  {{"pod", "grace"}},
		6:  {{"pod", "lifecycle", "upgrades"}},
		7:  {{"pod", "lifecycle", "upgrades", "rolling_update", "max_surge"}},
		11: {{"image", "tag"}},
		12: {{"strategy"}},
		13: {{"strategy"}},
	}
	if diff := cmp.Diff(want, ValuesReads([]byte(src))); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
}

// FuzzValuesReads: any template text is read without panicking, and every path it
// reports is at a line of the text.
func FuzzValuesReads(f *testing.F) {
	f.Add([]byte(`{{- with $envAll.Values.pod -}}x: {{ .a.b }}{{ end }}{{ $v := .Values.c }}{{ $v }}{{ $v.d }}`))
	f.Add([]byte(`{{ $ := .Values }}{{ $.x }}{{ end }}{{ end }}{{ with }}{{ if`))
	f.Fuzz(func(t *testing.T, src []byte) {
		lines := 1 + strings.Count(string(src), "\n")
		for line, paths := range ValuesReads(src) {
			if line < 1 || line > lines {
				t.Fatalf("line %d of %d", line, lines)
			}
			for _, p := range paths {
				if len(p) == 0 {
					t.Fatalf("empty path at line %d", line)
				}
			}
		}
	})
}
