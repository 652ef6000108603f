{{- define "toolkit.deployment" -}}
{{- $envAll := . -}}
apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ $envAll.Release.Name }}-{{ $envAll.Values.component }}
spec:
  replicas: {{ $envAll.Values.pod.replicas.server }}
  selector:
    matchLabels: {app: {{ $envAll.Values.component }}}
  template:
    metadata:
      labels: {app: {{ $envAll.Values.component }}}
    spec:
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
