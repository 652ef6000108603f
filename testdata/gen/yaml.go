package main

import (
	"fmt"
	"strings"
)

// Each writer appends one object (YAML or Terraform) and counts it.

func (g *gen) storageClass(b *strings.Builder, name, prov, binding string) {
	g.objects++
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_storage_class_v1\" %q {\n  metadata {\n    name = %q\n  }\n  storage_provisioner = %q\n", name, name, prov)
		if binding != "" {
			fmt.Fprintf(b, "  volume_binding_mode = %q\n", binding)
		}
		b.WriteString("}\n\n")
		return
	}
	fmt.Fprintf(b, "---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: %s\nprovisioner: %s\n", name, prov)
	if binding != "" {
		fmt.Fprintf(b, "volumeBindingMode: %s\n", binding)
	}
	b.WriteString("reclaimPolicy: Delete\nallowVolumeExpansion: true\n")
}

func (g *gen) claim(b *strings.Builder, ns, name string) {
	g.objects++
	mode, class := g.pick(modes), g.className()
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_persistent_volume_claim_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    access_modes       = [%q]\n    storage_class_name = %q\n    resources {\n      requests = {\n        storage = \"%dGi\"\n      }\n    }\n  }\n  wait_until_bound = %v\n}\n\n",
			ns+"_"+name, name, ns, mode, class, 1+g.rnd.IntN(100), g.rnd.IntN(2) == 0)
		return
	}
	fmt.Fprintf(b, "---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: %s\n  namespace: %s\n  labels:\n    app.kubernetes.io/name: %s\nspec:\n  accessModes:\n    - %s\n  storageClassName: %s\n  resources:\n    requests:\n      storage: %dGi\n",
		name, ns, name, mode, class, 1+g.rnd.IntN(100))
}

func (g *gen) deployment(b *strings.Builder, ns, name string) {
	withClaim := g.rnd.IntN(3) > 0
	if withClaim {
		g.claim(b, ns, name+"-data")
	}
	g.objects++
	replicas := []int{0, 1, 1, 1, 2, 3, 5}[g.rnd.IntN(7)]
	strategy := []string{"", "", "Recreate", "RollingUpdate"}[g.rnd.IntN(4)]
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_deployment_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    replicas = %d\n", ns+"_"+name, name, ns, replicas)
		if strategy != "" {
			fmt.Fprintf(b, "    strategy {\n      type = %q\n    }\n", strategy)
		}
		fmt.Fprintf(b, "    selector {\n      match_labels = {\n        app = %q\n      }\n    }\n    template {\n      metadata {\n        labels = {\n          app = %q\n        }\n      }\n      spec {\n        container {\n          name  = \"app\"\n          image = \"registry.example.com/%s:1.%d\"\n", name, name, name, g.rnd.IntN(40))
		if withClaim {
			b.WriteString("          volume_mount {\n            name       = \"data\"\n            mount_path = \"/data\"\n          }\n")
		}
		b.WriteString("        }\n")
		if withClaim {
			fmt.Fprintf(b, "        volume {\n          name = \"data\"\n          persistent_volume_claim {\n            claim_name = %q\n          }\n        }\n", name+"-data")
		}
		b.WriteString("      }\n    }\n  }\n}\n\n")
	} else {
		fmt.Fprintf(b, "---\napiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: %s\n  namespace: %s\n  labels:\n    app.kubernetes.io/name: %s\n    app.kubernetes.io/part-of: shop\nspec:\n  replicas: %d\n", name, ns, name, replicas)
		if strategy != "" {
			fmt.Fprintf(b, "  strategy:\n    type: %s\n", strategy)
		}
		fmt.Fprintf(b, "  selector:\n    matchLabels:\n      app.kubernetes.io/name: %s\n  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: %s\n    spec:\n      containers:\n        - name: app\n          image: registry.example.com/%s:1.%d\n          ports:\n            - containerPort: 8080\n          resources:\n            requests: {cpu: 100m, memory: 128Mi}\n            limits: {memory: 256Mi}\n          env:\n            - {name: LOG_LEVEL, value: info}\n            - {name: PORT, value: \"8080\"}\n",
			name, name, name, g.rnd.IntN(40))
		if withClaim {
			fmt.Fprintf(b, "          volumeMounts:\n            - name: data\n              mountPath: /data\n      volumes:\n        - name: data\n          persistentVolumeClaim:\n            claimName: %s\n", name+"-data")
		}
	}
	if replicas > 0 && g.rnd.IntN(4) == 0 {
		g.hpa(b, ns, name)
	}
}

func (g *gen) statefulSet(b *strings.Builder, ns, name string) {
	g.objects++
	replicas, class := 1+g.rnd.IntN(3), g.className()
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_stateful_set_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    replicas     = %d\n    service_name = %q\n    selector {\n      match_labels = {\n        app = %q\n      }\n    }\n    template {\n      metadata {\n        labels = {\n          app = %q\n        }\n      }\n      spec {\n        container {\n          name  = \"db\"\n          image = \"postgres:16\"\n          volume_mount {\n            name       = \"data\"\n            mount_path = \"/var/lib/postgresql/data\"\n          }\n        }\n      }\n    }\n    volume_claim_template {\n      metadata {\n        name = \"data\"\n      }\n      spec {\n        access_modes       = [\"ReadWriteOnce\"]\n        storage_class_name = %q\n        resources {\n          requests = {\n            storage = \"20Gi\"\n          }\n        }\n      }\n    }\n  }\n}\n\n",
			ns+"_"+name, name, ns, replicas, name, name, name, class)
		return
	}
	fmt.Fprintf(b, "---\napiVersion: apps/v1\nkind: StatefulSet\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  replicas: %d\n  serviceName: %s\n  selector:\n    matchLabels:\n      app: %s\n  template:\n    metadata:\n      labels:\n        app: %s\n    spec:\n      containers:\n        - name: db\n          image: postgres:16\n          volumeMounts:\n            - name: data\n              mountPath: /var/lib/postgresql/data\n  volumeClaimTemplates:\n    - metadata:\n        name: data\n      spec:\n        accessModes: [ReadWriteOnce]\n        storageClassName: %s\n        resources:\n          requests:\n            storage: 20Gi\n",
		name, ns, replicas, name, name, name, class)
}

func (g *gen) cronJob(b *strings.Builder, ns, name string) {
	g.claim(b, ns, name+"-backup")
	g.objects++
	policy := []string{"", "Forbid", "Allow", "Replace"}[g.rnd.IntN(4)]
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_cron_job_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    schedule = \"0 3 * * *\"\n", ns+"_"+name, name, ns)
		if policy != "" {
			fmt.Fprintf(b, "    concurrency_policy = %q\n", policy)
		}
		fmt.Fprintf(b, "    job_template {\n      metadata {}\n      spec {\n        template {\n          metadata {}\n          spec {\n            container {\n              name  = \"backup\"\n              image = \"restic/restic:0.16\"\n            }\n            volume {\n              name = \"backup\"\n              persistent_volume_claim {\n                claim_name = %q\n              }\n            }\n          }\n        }\n      }\n    }\n  }\n}\n\n", name+"-backup")
		return
	}
	fmt.Fprintf(b, "---\napiVersion: batch/v1\nkind: CronJob\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  schedule: \"0 3 * * *\"\n", name, ns)
	if policy != "" {
		fmt.Fprintf(b, "  concurrencyPolicy: %s\n", policy)
	}
	fmt.Fprintf(b, "  jobTemplate:\n    spec:\n      template:\n        spec:\n          restartPolicy: OnFailure\n          containers:\n            - name: backup\n              image: restic/restic:0.16\n              args: [backup, /data]\n              volumeMounts:\n                - {name: backup, mountPath: /data}\n          volumes:\n            - name: backup\n              persistentVolumeClaim:\n                claimName: %s\n", name+"-backup")
}

func (g *gen) hpa(b *strings.Builder, ns, name string) {
	g.objects++
	max := 2 + g.rnd.IntN(9)
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_horizontal_pod_autoscaler_v2\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    max_replicas = %d\n    scale_target_ref {\n      api_version = \"apps/v1\"\n      kind        = \"Deployment\"\n      name        = %q\n    }\n  }\n}\n\n", ns+"_"+name, name, ns, max, name)
		return
	}
	fmt.Fprintf(b, "---\napiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  scaleTargetRef:\n    apiVersion: apps/v1\n    kind: Deployment\n    name: %s\n  minReplicas: 1\n  maxReplicas: %d\n  metrics:\n    - type: Resource\n      resource:\n        name: cpu\n        target: {type: Utilization, averageUtilization: 70}\n", name, ns, name, max)
}

func (g *gen) service(b *strings.Builder, ns, name string) {
	g.objects++
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_service_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    selector = {\n      app = %q\n    }\n    port {\n      port        = 80\n      target_port = 8080\n    }\n  }\n}\n\n", ns+"_"+name, name, ns, name)
		return
	}
	fmt.Fprintf(b, "---\napiVersion: v1\nkind: Service\nmetadata:\n  name: %s\n  namespace: %s\nspec:\n  selector:\n    app.kubernetes.io/name: %s\n  ports:\n    - name: http\n      port: 80\n      targetPort: 8080\n", name, ns, name)
}

// configMap writes a bulky ConfigMap (a few kilobytes of configuration text), the kind
// of object that dominates real repositories by size.
func (g *gen) configMap(b *strings.Builder, ns, name string) {
	g.objects++
	var body strings.Builder
	for i := 0; i < 40+g.rnd.IntN(80); i++ {
		fmt.Fprintf(&body, "setting_%03d = %d # tuned for %s\n", i, g.rnd.IntN(100000), name)
	}
	if g.tf {
		fmt.Fprintf(b, "resource \"kubernetes_config_map_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  data = {\n    \"app.conf\" = <<-EOT\n%sEOT\n  }\n}\n\n", ns+"_"+name+"_config", name+"-config", ns, indent(body.String(), "      "))
		return
	}
	fmt.Fprintf(b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s-config\n  namespace: %s\ndata:\n  app.conf: |\n%s", name, ns, indent(body.String(), "    "))
}

func indent(s, pre string) string {
	lines := strings.SplitAfter(s, "\n")
	var b strings.Builder
	for _, l := range lines {
		if l != "" {
			b.WriteString(pre + l)
		}
	}
	return b.String()
}
