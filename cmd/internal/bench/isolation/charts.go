package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// WriteCharts writes n small Helm charts into dir, each the shape of a typical
// application chart: a helpers file, a Deployment or StatefulSet with a claim, a
// Service, values, and for every fifth chart a ci/ values file (a second variant).
func WriteCharts(dir string, n int) error {
	for i := range n {
		name := fmt.Sprintf("app%02d", i)
		kind := "Deployment"
		if i%3 == 0 {
			kind = "StatefulSet"
		}
		files := map[string]string{
			"Chart.yaml":  fmt.Sprintf("apiVersion: v2\nname: %s\nversion: 0.1.%d\nappVersion: \"1.0\"\n", name, i),
			"values.yaml": fmt.Sprintf("replicaCount: %d\nimage:\n  repository: example/%s\n  tag: \"1.0\"\npersistence:\n  enabled: true\n  size: %dGi\n  accessMode: ReadWriteOnce\nservice:\n  port: 80\n", 1+i%3, name, 1+i%10),
			"templates/_helpers.tpl": `{{- define "app.fullname" -}}
{{- printf "%s-%s" .Release.Name .Chart.Name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- define "app.labels" -}}
app.kubernetes.io/name: {{ .Chart.Name }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}
`,
			"templates/workload.yaml": `apiVersion: apps/v1
kind: ` + kind + `
metadata:
  name: {{ include "app.fullname" . }}
  labels:
    {{- include "app.labels" . | nindent 4 }}
spec:
  replicas: {{ .Values.replicaCount }}
  selector:
    matchLabels:
      {{- include "app.labels" . | nindent 6 }}
  template:
    metadata:
      labels:
        {{- include "app.labels" . | nindent 8 }}
    spec:
      containers:
        - name: {{ .Chart.Name }}
          image: "{{ .Values.image.repository }}:{{ .Values.image.tag }}"
          ports:
            - containerPort: {{ .Values.service.port }}
          {{- if .Values.persistence.enabled }}
          volumeMounts:
            - name: data
              mountPath: /data
          {{- end }}
      {{- if .Values.persistence.enabled }}
      volumes:
        - name: data
          persistentVolumeClaim:
            claimName: {{ include "app.fullname" . }}
      {{- end }}
`,
			"templates/pvc.yaml": `{{- if .Values.persistence.enabled }}
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: {{ include "app.fullname" . }}
spec:
  accessModes: [{{ .Values.persistence.accessMode }}]
  resources:
    requests:
      storage: {{ .Values.persistence.size }}
{{- end }}
`,
			"templates/service.yaml": `apiVersion: v1
kind: Service
metadata:
  name: {{ include "app.fullname" . }}
spec:
  selector:
    {{- include "app.labels" . | nindent 4 }}
  ports:
    - port: {{ .Values.service.port }}
`,
		}
		if i%5 == 0 {
			files["ci/ha-values.yaml"] = "replicaCount: 3\n"
		}
		for p, content := range files {
			full := filepath.Join(dir, name, p)
			if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
				return err
			}
			if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
				return err
			}
		}
	}
	return nil
}
