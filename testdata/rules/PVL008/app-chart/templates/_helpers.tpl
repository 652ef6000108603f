{{- define "app-chart.claim" -}}
{{- .Values.persistence.existingClaim | default (printf "%s-data" .Release.Name) -}}
{{- end -}}
