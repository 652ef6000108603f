{{- define "needs-db.secrets" -}}
stringData:
  key: {{ required "secrets.key is required" .Values.secrets.key }}
{{- end -}}
