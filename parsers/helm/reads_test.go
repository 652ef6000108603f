package helm

import (
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
	if diff := cmp.Diff(want, valuesReads([]byte(src))); diff != "" {
		t.Errorf("reads (-want +got):\n%s", diff)
	}
}
