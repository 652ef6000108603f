package corpus

// Each writer appends one object to the current file, as YAML or (gen.tf) Terraform,
// and counts it. The YAML mixes block and flow style, quoted and plain scalars and
// comments, as hand-written and generated manifests do.

func (g *gen) namespace(ns string) {
	g.stats.Objects++
	if g.tf {
		g.f("resource \"kubernetes_namespace_v1\" %q {\n  metadata {\n    name = %q\n    labels = {\n      team = %q\n    }\n  }\n}\n\n", ns, ns, ns)
		return
	}
	g.f("---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: %s\n  labels:\n    team: %s\n    pod-security.kubernetes.io/enforce: restricted\n", ns, ns)
}

func (g *gen) storageClass(c class) {
	g.stats.Objects++
	if g.tf {
		g.f("resource \"kubernetes_storage_class_v1\" %q {\n  metadata {\n    name = %q\n", c.name, c.name)
		if c.isDefault {
			g.f("    annotations = {\n      \"storageclass.kubernetes.io/is-default-class\" = \"true\"\n    }\n")
		}
		g.f("  }\n  storage_provisioner = %q\n  reclaim_policy      = %q\n", c.provisioner, c.reclaim)
		if c.binding != "" {
			g.f("  volume_binding_mode = %q\n", c.binding)
		}
		g.f("}\n\n")
		return
	}
	g.f("---\napiVersion: storage.k8s.io/v1\nkind: StorageClass\nmetadata:\n  name: %s\n", c.name)
	if c.isDefault {
		g.f("  annotations:\n    storageclass.kubernetes.io/is-default-class: \"true\"\n")
	}
	g.f("provisioner: %s\n", c.provisioner)
	if c.binding != "" {
		g.f("volumeBindingMode: %s\n", c.binding)
	}
	g.f("reclaimPolicy: %s\nallowVolumeExpansion: true\n", c.reclaim)
}

// persistentVolume writes a pre-provisioned volume bound to claim legacy-<i> of
// team-00 (a claim that is not in the corpus: the PV alone is linted).
func (g *gen) persistentVolume(i int) {
	g.stats.Objects++
	mode := g.pick(modes)
	if g.tf {
		g.f("resource \"kubernetes_persistent_volume_v1\" \"legacy_%03d\" {\n  metadata {\n    name = \"legacy-%03d\"\n  }\n  spec {\n    capacity = {\n      storage = \"%dGi\"\n    }\n    access_modes                     = [%q]\n    persistent_volume_reclaim_policy = \"Delete\"\n    storage_class_name               = \"standard-rwo\"\n    persistent_volume_source {\n      csi {\n        driver        = \"pd.csi.storage.gke.io\"\n        volume_handle = \"projects/p/zones/europe-west1-b/disks/legacy-%03d\"\n      }\n    }\n    claim_ref {\n      namespace = \"team-00\"\n      name      = \"legacy-%03d\"\n    }\n  }\n}\n\n",
			i, i, 10+g.rnd.IntN(500), mode, i, i)
		return
	}
	g.f("---\napiVersion: v1\nkind: PersistentVolume\nmetadata:\n  name: legacy-%03d\nspec:\n  capacity:\n    storage: %dGi\n  accessModes: [%s]\n  persistentVolumeReclaimPolicy: Delete\n  storageClassName: standard-rwo\n  csi:\n    driver: pd.csi.storage.gke.io\n    volumeHandle: projects/p/zones/europe-west1-b/disks/legacy-%03d\n  claimRef:\n    namespace: team-00\n    name: legacy-%03d\n",
		i, 10+g.rnd.IntN(500), mode, i, i)
}

// prometheusRule writes storage alerts: one that can fire and one on a label the
// metric does not have (PVL021).
func (g *gen) prometheusRule(i int) {
	g.stats.Objects++
	g.f("---\napiVersion: monitoring.coreos.com/v1\nkind: PrometheusRule\nmetadata:\n  name: storage-%02d\n  namespace: monitoring\nspec:\n  groups:\n    - name: storage\n      rules:\n        - alert: VolumeNotAttached\n          expr: kube_volumeattachment_info{attached=\"false\"} == 1\n          for: 10m\n          labels: {severity: warning}\n        - alert: ClaimPending\n          expr: kube_persistentvolumeclaim_status_phase{phase=\"Pending\"} == 1\n          for: 15m\n          labels: {severity: warning}\n          annotations:\n            summary: 'PVC {{ $labels.namespace }}/{{ $labels.persistentvolumeclaim }} is pending'\n", i)
}

func (g *gen) serviceAccount(ns, name string) {
	g.stats.Objects++
	if g.tf {
		g.f("resource \"kubernetes_service_account_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n}\n\n", ns+"_"+name, name, ns)
		return
	}
	g.f("---\napiVersion: v1\nkind: ServiceAccount\nmetadata:\n  name: %s\n  namespace: %s\n  annotations:\n    eks.amazonaws.com/role-arn: arn:aws:iam::123456789012:role/%s\n", name, ns, name)
}

// configMap writes a bulky ConfigMap (a few kilobytes of configuration text), the
// kind of object that dominates real repositories by size.
func (g *gen) configMap(ns, name string) {
	g.stats.Objects++
	if g.tf {
		g.f("resource \"kubernetes_config_map_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  data = {\n    \"log.level\" = \"info\"\n    \"app.conf\"  = <<-EOT\n%s    EOT\n  }\n}\n\n",
			ns+"_"+name+"_config", name+"-config", ns, g.settings(name, "      "))
		return
	}
	g.f("---\n# Configuration of %s, rendered from the platform's templates.\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s-config\n  namespace: %s\n  labels:\n    app.kubernetes.io/name: %s\ndata:\n  log.level: info\n  feature.flags: \"checkout,search,recommendations\"\n  app.conf: |\n%s",
		name, name, ns, name, g.settings(name, "    "))
}

func (g *gen) claim(ns, name string) {
	g.stats.Objects++
	mode, class := g.pick(modes), g.className()
	size := 1 + g.rnd.IntN(100)
	if g.tf {
		g.f("resource \"kubernetes_persistent_volume_claim_v1\" %q {\n  metadata {\n    name      = %q\n    namespace = %q\n  }\n  spec {\n    access_modes = [%q]\n", ns+"_"+name, name, ns, mode)
		if class != "" {
			g.f("    storage_class_name = %q\n", class)
		}
		g.f("    resources {\n      requests = {\n        storage = \"%dGi\"\n      }\n    }\n  }\n  wait_until_bound = %v\n}\n\n", size, g.rnd.IntN(2) == 0)
		return
	}
	g.f("---\napiVersion: v1\nkind: PersistentVolumeClaim\nmetadata:\n  name: %s\n  namespace: %s\n  labels:\n    app.kubernetes.io/name: %s\nspec:\n  accessModes:\n    - %s\n", name, ns, name, mode)
	if class != "" {
		g.f("  storageClassName: %s\n", class)
	}
	g.f("  resources:\n    requests:\n      storage: %dGi\n", size)
}
