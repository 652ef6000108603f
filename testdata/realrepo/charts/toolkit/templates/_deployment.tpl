{{- define "toolkit.deployment" -}}
{{- $envAll := . -}}
{{- $pod := $envAll.Values.pod -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $envAll.Release.Name }}-{{ $envAll.Values.component }}
spec:
  replicas: {{ $envAll.Values.pod.replicas.server }}
  revisionHistoryLimit: {{ index $envAll.Values.pod "revision_history_limit" }}
  selector:
    matchLabels: {app: {{ $envAll.Values.component }}}
  template:
    metadata:
      labels: {app: {{ $envAll.Values.component }}}
    spec:
      terminationGracePeriodSeconds: {{ $pod.terminationGracePeriodSeconds }}
      containers:
        - name: server
          image: {{ $envAll.Values.image }}
          volumeMounts:
            - {name: data, mountPath: /var/lib/data}
      volumes:
        - name: data
          persistentVolumeClaim: {claimName: {{ $envAll.Release.Name }}-data}
{{- end -}}
{{- define "toolkit.claim" -}}
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: {{ .Release.Name }}-data
spec:
  accessModes: [{{ .Values.storage.accessMode }}]
  storageClassName: {{ .Values.storage.class }}
  resources: {requests: {storage: 1Gi}}
{{- end -}}
{{- define "toolkit.backup" -}}
apiVersion: batch/v1
kind: CronJob
metadata:
  name: {{ .Release.Name }}-backup
spec:
  schedule: {{ .Values.backup.schedule | quote }}
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          containers:
            - name: backup
              image: {{ .Values.image }}
              volumeMounts:
                - {name: data, mountPath: /var/lib/data}
                - {name: dumps, mountPath: /dumps}
          volumes:
            - name: data
              persistentVolumeClaim: {claimName: {{ .Release.Name }}-data}
            - name: dumps
              persistentVolumeClaim: {claimName: {{ .Release.Name }}-dumps}
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: {{ .Release.Name }}-dumps
spec:
  accessModes: [{{ .Values.storage.accessMode }}]
  storageClassName: {{ .Values.storage.class }}
  resources: {requests: {storage: 1Gi}}
{{- end -}}
