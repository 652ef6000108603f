package corpus

import (
	"fmt"
	"strings"
)

// deployment writes a Deployment, with a claim (two in three) or without, a strategy
// (unset, Recreate or RollingUpdate with surge), zero to five replicas and sometimes
// an HPA.
func (g *gen) deployment(ns, name string) {
	claim := ""
	if g.rnd.IntN(3) > 0 {
		claim = name + "-data"
		// One claim in forty is defined outside the corpus (PVL018).
		if g.rnd.IntN(40) > 0 {
			g.claim(ns, claim)
		}
	}
	g.stats.Objects++
	replicas := []int{0, 1, 1, 1, 2, 3, 5}[g.rnd.IntN(7)]
	strategy := []string{"", "", "Recreate", "RollingUpdate"}[g.rnd.IntN(4)]
	version := g.rnd.IntN(40)
	if g.tf {
		g.f("resource \"kubernetes_deployment_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n    labels = {\n      \"app.kubernetes.io/name\"    = %q\n      \"app.kubernetes.io/part-of\" = \"shop\"\n    }\n  }\n  spec {\n    replicas = %d\n", ns+"_"+name, name, ns, name, replicas)
		switch strategy {
		case "Recreate":
			g.f("    strategy {\n      type = \"Recreate\"\n    }\n")
		case "RollingUpdate":
			g.f("    strategy {\n      type = \"RollingUpdate\"\n      rolling_update {\n        max_surge       = \"25%%\"\n        max_unavailable = \"0\"\n      }\n    }\n")
		}
		g.f("    selector {\n      match_labels = {\n        \"app.kubernetes.io/name\" = %q\n      }\n    }\n    template {\n      metadata {\n        labels = {\n          \"app.kubernetes.io/name\" = %q\n        }\n      }\n      spec {\n        service_account_name = %q\n", name, name, name)
		g.tfContainer("app", fmt.Sprintf("registry.example.com/%s:1.%d", name, version), claim != "")
		g.tfVolumes(name, "data", claim)
		g.f("      }\n    }\n  }\n}\n\n")
	} else {
		g.f("---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  namespace: %s\n  labels:\n    app.kubernetes.io/name: %s\n    app.kubernetes.io/part-of: shop\n  annotations:\n    deployment.kubernetes.io/revision: \"%d\"\nspec:\n  replicas: %d\n  revisionHistoryLimit: 5\n", name, ns, name, 1+version%7, replicas)
		switch strategy {
		case "Recreate":
			g.f("  strategy:\n    type: Recreate\n")
		case "RollingUpdate":
			g.f("  strategy:\n    type: RollingUpdate\n    rollingUpdate: {maxSurge: 25%%, maxUnavailable: 0}\n")
		}
		g.f("  selector:\n    matchLabels:\n      app.kubernetes.io/name: %s\n  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: %s\n      annotations:\n        prometheus.io/scrape: \"true\"\n    spec:\n      serviceAccountName: %s\n      securityContext: {fsGroup: 1000}\n      containers:\n", name, name, name)
		g.container("        ", "app", fmt.Sprintf("registry.example.com/%s:1.%d", name, version), claim != "")
		g.volumes("      ", name, "data", claim)
	}
	if replicas > 0 && g.rnd.IntN(4) == 0 {
		g.hpa(ns, name)
	}
}

// statefulSet writes a StatefulSet with a claim template; one in five also mounts a
// shared claim.
func (g *gen) statefulSet(ns, name string) {
	shared := ""
	if g.rnd.IntN(5) == 0 {
		shared = name + "-shared"
		g.claim(ns, shared)
	}
	g.stats.Objects++
	replicas, class := 1+g.rnd.IntN(3), g.className()
	if g.tf {
		g.f("resource \"kubernetes_stateful_set_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    replicas     = %d\n    service_name = %q\n    selector {\n      match_labels = {\n        app = %q\n      }\n    }\n    template {\n      metadata {\n        labels = {\n          app = %q\n        }\n      }\n      spec {\n", ns+"_"+name, name, ns, replicas, name, name, name)
		g.tfContainer("db", "postgres:16", true)
		g.tfVolumes(name, "shared", shared)
		g.f("      }\n    }\n    volume_claim_template {\n      metadata {\n        name = \"data\"\n      }\n      spec {\n        access_modes = [\"ReadWriteOnce\"]\n")
		if class != "" {
			g.f("        storage_class_name = %q\n", class)
		}
		g.f("        resources {\n          requests = {\n            storage = \"20Gi\"\n          }\n        }\n      }\n    }\n  }\n}\n\n")
		return
	}
	g.f("---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  replicas: %d\n  serviceName: %s\n  podManagementPolicy: Parallel\n  selector:\n    matchLabels:\n      app: %s\n  template:\n    metadata:\n      labels:\n        app: %s\n    spec:\n      terminationGracePeriodSeconds: 60\n      containers:\n", name, ns, replicas, name, name, name)
	g.container("        ", "db", "postgres:16", true)
	g.volumes("      ", name, "shared", shared)
	g.f("  volumeClaimTemplates:\n    - metadata:\n        name: data\n      spec:\n        accessModes: [ReadWriteOnce]\n")
	if class != "" {
		g.f("        storageClassName: %s\n", class)
	}
	g.f("        resources:\n          requests:\n            storage: 20Gi\n")
}

// cronJob writes a backup CronJob mounting its own claim, with every concurrency
// policy.
func (g *gen) cronJob(ns, name string) {
	g.claim(ns, name+"-backup")
	g.stats.Objects++
	policy := []string{"", "Forbid", "Allow", "Replace"}[g.rnd.IntN(4)]
	if g.tf {
		g.f("resource \"kubernetes_cron_job_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    schedule = \"0 3 * * *\"\n", ns+"_"+name, name, ns)
		if policy != "" {
			g.f("    concurrency_policy = %q\n", policy)
		}
		g.f("    job_template {\n      metadata {}\n      spec {\n        template {\n          metadata {}\n          spec {\n            container {\n              name  = \"backup\"\n              image = \"restic/restic:0.16\"\n              args  = [\"backup\", \"/data\"]\n              volume_mount {\n                name       = \"backup\"\n                mount_path = \"/data\"\n              }\n            }\n            volume {\n              name = \"backup\"\n              persistent_volume_claim {\n                claim_name = %q\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n}\n\n", name+"-backup")
		return
	}
	g.f("---\napiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  schedule: \"0 3 * * *\"\n", name, ns)
	if policy != "" {
		g.f("  concurrencyPolicy: %s\n", policy)
	}
	g.f("  jobTemplate:\n    spec:\n      backoffLimit: 2\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: backup\n              image: restic/restic:0.16\n              args: [backup, /data]\n              volumeMounts:\n                - {name: backup, mountPath: /data}\n          volumes:\n            - name: backup\n              persistentVolumeClaim:\n                claimName: %s\n", name+"-backup")
}

func (g *gen) hpa(ns, name string) {
	g.stats.Objects++
	most := 2 + g.rnd.IntN(9)
	if g.tf {
		g.f("resource \"kubernetes_horizontal_pod_autoscaler_v2\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    min_replicas = 1\n    max_replicas = %d\n    scale_target_ref {\n      api_version = \"apps/v1\"\n      kind        = \"Deployment\"\n      name        = %q\n    }\n  }\n}\n\n", ns+"_"+name, name, ns, most, name)
		return
	}
	g.f("---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: %s\n  minReplicas: 1\n  maxReplicas: %d\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n        target: {type: Utilization, averageUtilization: 70}\n", name, ns, name, most)
}

func (g *gen) service(ns, name string) {
	g.stats.Objects++
	if g.tf {
		g.f("resource \"kubernetes_service_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    selector = {\n      \"app.kubernetes.io/name\" = %q\n    }\n    port {\n      name        = \"http\"\n      port        = 80\n      target_port = 8080\n    }\n  }\n}\n\n", ns+"_"+name, name, ns, name)
		return
	}
	g.f("---\napiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n  namespace: %s\n  labels:\n    app.kubernetes.io/name: %s\nspec:\n  type: ClusterIP\n  selector:\n    app.kubernetes.io/name: %s\n  ports:\n    - name: http\n      port: 80\n      targetPort: http\n      protocol: TCP\n", name, ns, name, name)
}

// container writes one YAML container (a list item) at indent: what real manifests
// carry (ports, probes, resources, env, security context) and mounts of the config
// volume and, with data, of the data volume.
func (g *gen) container(indent, name, image string, data bool) {
	var c strings.Builder
	c.WriteString("- name: " + name + "\n  image: " + image + "\n  imagePullPolicy: IfNotPresent\n" +
		"  ports:\n    - {name: http, containerPort: 8080, protocol: TCP}\n" +
		"  readinessProbe:\n    httpGet: {path: /healthz, port: http}\n    periodSeconds: 10\n" +
		"  livenessProbe:\n    httpGet:\n      path: /livez\n      port: http\n    initialDelaySeconds: 15\n" +
		"  resources:\n    requests: {cpu: 100m, memory: 128Mi}\n    limits:\n      memory: 256Mi\n" +
		"  securityContext:\n    runAsNonRoot: true\n    readOnlyRootFilesystem: true\n    allowPrivilegeEscalation: false\n    capabilities: {drop: [ALL]}\n" +
		"  env:\n    - {name: LOG_LEVEL, value: info}\n    - {name: PORT, value: \"8080\"}\n" +
		"    - name: POD_NAME\n      valueFrom:\n        fieldRef: {fieldPath: metadata.name}\n" +
		"    - name: DB_PASSWORD\n      valueFrom:\n        secretKeyRef: {name: '" + name + "-db', key: password}\n" +
		"  volumeMounts:\n    - name: config\n      mountPath: /etc/app\n      readOnly: true\n")
	if data {
		c.WriteString("    - name: data\n      mountPath: /var/lib/data\n")
	}
	for _, l := range strings.SplitAfter(c.String(), "\n") {
		if l != "" {
			g.b.WriteString(indent + l)
		}
	}
}

// volumes writes a YAML pod spec's volumes at indent: the config volume and, when
// claim is set, the claim as the named volume.
func (g *gen) volumes(indent, app, volume, claim string) {
	g.f("%svolumes:\n%s  - name: config\n%s    configMap: {name: %s-config}\n", indent, indent, indent, app)
	if claim != "" {
		g.f("%s  - name: %s\n%s    persistentVolumeClaim:\n%s      claimName: %s\n", indent, volume, indent, indent, claim)
	}
}

// tfContainer writes one Terraform container block inside a pod spec.
func (g *gen) tfContainer(name, image string, data bool) {
	g.f("        container {\n          name              = %q\n          image             = %q\n          image_pull_policy = \"IfNotPresent\"\n          port {\n            name           = \"http\"\n            container_port = 8080\n          }\n          env {\n            name  = \"LOG_LEVEL\"\n            value = \"info\"\n          }\n          resources {\n            requests = {\n              cpu    = \"100m\"\n              memory = \"128Mi\"\n            }\n            limits = {\n              memory = \"256Mi\"\n            }\n          }\n          liveness_probe {\n            http_get {\n              path = \"/livez\"\n              port = 8080\n            }\n            initial_delay_seconds = 15\n          }\n          volume_mount {\n            name       = \"config\"\n            mount_path = \"/etc/app\"\n            read_only  = true\n          }\n", name, image)
	if data {
		g.f("          volume_mount {\n            name       = \"data\"\n            mount_path = \"/var/lib/data\"\n          }\n")
	}
	g.f("        }\n")
}

// tfVolumes writes a Terraform pod spec's volume blocks.
func (g *gen) tfVolumes(app, volume, claim string) {
	g.f("        volume {\n          name = \"config\"\n          config_map {\n            name = %q\n          }\n        }\n", app+"-config")
	if claim != "" {
		g.f("        volume {\n          name = %q\n          persistent_volume_claim {\n            claim_name = %q\n          }\n        }\n", volume, claim)
	}
}
