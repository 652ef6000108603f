{{- define "shop.fullname" -}}
{{ .Release.Name }}-{{ .Chart.Name }}
{{- end }}

{{- define "shop.claimName" -}}
{{ .Values.persistence.existingClaim | default (printf "%s-data" (include "shop.fullname" .)) }}
{{- end }}
