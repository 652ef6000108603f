package graph

import (
	"strconv"
)

// The operators pvlint models, one section each: how each custom resource becomes
// OperatorSets (operators.go holds the model they share).

// --- CloudNativePG ---------------------------------------------------------------

// cnpgSets maps a CloudNativePG Cluster: spec.instances pods, each with a PGDATA claim
// from spec.storage, a WAL claim from spec.walStorage and one claim per tablespace,
// created and owned by the operator (no StatefulSet): api/v1/cluster_types.go,
// pkg/reconciler/persistentvolumeclaim/build.go.
func cnpgSets(_ *Graph, r *Resource, op string) []*OperatorSet {
	s := &OperatorSet{Resource: r, Operator: op}
	s.Pods, s.Known, s.PodsWhy, s.PodsNode = count(r.Get("spec", "instances"), 1, "instances")
	s.Creates = "CloudNativePG creates " + podsText(s) + " and, for each, its own PVCs (" + r.Name + "-1, " + r.Name +
		"-2, …), managed directly without a StatefulSet and owned by the Cluster"
	add := func(base []string, suffix string) {
		st := r.Get(base...)
		if st == nil || st.IsNull() {
			return
		}
		c := &OperatorClaim{Field: dotted(base), Base: base}
		tmpl := st.Get("pvcTemplate")
		if tmpl != nil {
			c.Spec = extend(base, "pvcTemplate")
		}
		class := st.Get("storageClass")
		if class != nil || tmpl.Get("storageClassName") == nil {
			c.ClassField = extend(base, "storageClass")
		}
		size := st.Get("size")
		c.Claim = &Claim{Name: r.Name + "-N" + suffix, Namespace: r.Namespace, PerPod: true,
			Object: claimObject(r.Name+"-N"+suffix, st.Range, tmpl, class, size, true)}
		s.Claims = append(s.Claims, c)
	}
	add(path("spec", "storage"), "")
	add(path("spec", "walStorage"), "-wal")
	for i, t := range r.Get("spec", "tablespaces").List() {
		add(path("spec", "tablespaces", strconv.Itoa(i), "storage"), "-tbs-"+t.Get("name").Str())
	}
	aff := r.Get("spec", "affinity")
	// A value known only at apply time decides nothing: no spread is assumed.
	guess := aff.Get("enablePodAntiAffinity").IsUnknown() || aff.Get("podAntiAffinityType").IsUnknown() || aff.Get("topologyKey").IsUnknown()
	if en, ok := aff.Get("enablePodAntiAffinity").Bool(); !guess && (!ok || en) {
		key := aff.Get("topologyKey").Str()
		if key == "" {
			key = HostnameKey
		}
		typ := aff.Get("podAntiAffinityType")
		sp := Spread{Key: key, Required: typ.Str() == "required", Node: typ}
		switch {
		case typ.Str() != "":
			sp.Text = "affinity.podAntiAffinityType " + typ.Str() + " on " + key
		case aff.Get("topologyKey") != nil:
			sp.Node = aff.Get("topologyKey")
			sp.Text = "CloudNativePG's pod anti-affinity (preferred by default) on affinity.topologyKey " + key
		default:
			sp.Node = nil
			sp.Text = "CloudNativePG's default pod anti-affinity (preferred, on " + key + ")"
		}
		s.Spread = append(s.Spread, sp)
	}
	s.Spread = append(s.Spread, PodSpread(NewMap(Range{}, []Field{{Key: "podAntiAffinity", Value: aff.Get("additionalPodAntiAffinity")}}), r.Get("spec", "topologySpreadConstraints"))...)
	s.Deletion = Deletion{WithOwner: true, Text: "the PVCs are owned by the Cluster and deleted with it"}
	s.Grows = "CloudNativePG resizes the PVCs when the size grows (resizeInUseVolumes, default true)"
	return []*OperatorSet{s}
}

func podsText(s *OperatorSet) string {
	switch {
	case !s.Known:
		return "its pods (" + s.PodsWhy + ")"
	case s.Pods == 1:
		return "1 pod (" + s.PodsWhy + ")"
	}
	return strconv.Itoa(s.Pods) + " pods (" + s.PodsWhy + ")"
}

// --- Prometheus Operator ---------------------------------------------------------

// promSets maps Prometheus, PrometheusAgent, Alertmanager and ThanosRuler: one
// StatefulSet per shard of spec.replicas pods, storage from spec.storage (emptyDir, the
// default, then ephemeral, then volumeClaimTemplate: pkg/apis/monitoring/v1
// prometheus_types.go StorageSpec; pkg/prometheus/server/statefulset.go).
func promSets(_ *Graph, r *Resource, op string) []*OperatorSet {
	spec := r.Get("spec")
	if r.Kind == "PrometheusAgent" && spec.Get("mode").Str() == "DaemonSet" {
		return []*OperatorSet{{Resource: r, Operator: op, Creates: "Prometheus Operator creates a DaemonSet (mode DaemonSet), without storage"}}
	}
	s := &OperatorSet{Resource: r, Operator: op}
	s.Pods, s.Known, s.PodsWhy, s.PodsNode = count(spec.Get("replicas"), 1, "replicas")
	prefix, suffix := map[string]string{"Prometheus": "prometheus", "PrometheusAgent": "prom-agent",
		"Alertmanager": "alertmanager", "ThanosRuler": "thanos-ruler"}[r.Kind], "-db"
	if r.Kind == "ThanosRuler" {
		suffix = "-data"
	}
	sts := prefix + "-" + r.Name
	shards := ""
	if r.Kind == "Prometheus" || r.Kind == "PrometheusAgent" {
		if n, known, why, _ := count(spec.Get("shards"), 1, "shards"); !known || n > 1 {
			shards = " per shard (" + why + ": " + sts + ", " + sts + "-shard-1, …)"
		}
	}
	st := spec.Get("storage")
	base := path("spec", "storage")
	switch {
	case st == nil || st.IsNull():
		s.Creates = "Prometheus Operator creates StatefulSet " + sts + shards + " of " + podsText(s) + " with an emptyDir volume (spec.storage unset)"
		return []*OperatorSet{s}
	case st.Get("emptyDir") != nil:
		s.Creates = "Prometheus Operator creates StatefulSet " + sts + shards + " of " + podsText(s) + " with an emptyDir volume (spec.storage.emptyDir)"
		return []*OperatorSet{s}
	case st.Get("ephemeral") != nil:
		t := st.Get("ephemeral", "volumeClaimTemplate")
		tb := extend(base, "ephemeral", "volumeClaimTemplate")
		c := &OperatorClaim{Field: dotted(tb), Base: tb, Spec: extend(tb, "spec"), Meta: extend(tb, "metadata"), Ephemeral: true,
			Claim: &Claim{Name: sts + "-N-" + sts + suffix, Namespace: r.Namespace, Object: t, PerPod: true}}
		s.Claims = append(s.Claims, c)
		s.Creates = "Prometheus Operator creates StatefulSet " + sts + shards + " of " + podsText(s) + ", each with a generic ephemeral volume from spec.storage.ephemeral"
	default:
		t := st.Get("volumeClaimTemplate")
		if t == nil {
			s.Creates = "Prometheus Operator creates StatefulSet " + sts + shards + " of " + podsText(s) + " with an emptyDir volume (no volumeClaimTemplate)"
			return []*OperatorSet{s}
		}
		tb := extend(base, "volumeClaimTemplate")
		name := t.Get("metadata", "name").Str()
		if name == "" {
			name = sts + suffix
		}
		obj := t
		if t.Get("spec", "accessModes") == nil {
			// The operator sets ReadWriteOnce when the template leaves the modes out.
			obj = NewMap(t.Range, []Field{{Key: "metadata", Value: t.Get("metadata")},
				{Key: "spec", Value: claimObject(name, t.Range, t.Get("spec"), nil, nil, true).Get("spec")}})
		}
		c := &OperatorClaim{Field: dotted(tb), Base: tb, Spec: extend(tb, "spec"), Meta: extend(tb, "metadata"),
			Claim: &Claim{Name: name, Namespace: r.Namespace, Object: obj, PerPod: true}}
		s.Claims = append(s.Claims, c)
		s.Creates = "Prometheus Operator creates StatefulSet " + sts + shards + " of " + podsText(s) + ", one PVC per pod (" + name + "-" + sts + "-0, …) from spec.storage.volumeClaimTemplate"
	}
	s.Spread = PodSpread(spec.Get("affinity"), spec.Get("topologySpreadConstraints"))
	rp := path("spec", "persistentVolumeClaimRetentionPolicy", "whenDeleted")
	s.Deletion = Deletion{Policy: true, Path: rp, Text: "persistentVolumeClaimRetentionPolicy.whenDeleted unset, defaults to Retain"}
	if n := r.Get(rp...); n.Str() == "Delete" {
		s.Deletion.WithOwner, s.Deletion.Node, s.Deletion.Text = true, n, "persistentVolumeClaimRetentionPolicy.whenDeleted Delete"
	}
	return []*OperatorSet{s}
}

// --- Strimzi ---------------------------------------------------------------------

// nodePoolSets maps a Strimzi KafkaNodePool: spec.replicas pods (a StrimziPodSet), each
// with one ReadWriteOnce claim per persistent-claim volume of spec.storage (api
// PersistentClaimStorage.java, JbodStorage.java, KafkaNodePoolSpec.java).
func nodePoolSets(g *Graph, r *Resource, op string) []*OperatorSet {
	cluster := r.Get("metadata", "labels", "strimzi.io/cluster").Str()
	s := &OperatorSet{Resource: r, Operator: op}
	s.Pods, s.Known, s.PodsWhy, s.PodsNode = count(r.Get("spec", "replicas"), 0, "replicas")
	s.Creates = "Strimzi creates StrimziPodSet " + cluster + "-" + r.Name + " of " + podsText(s) + ", one PVC per pod and volume (data-[ID-]" + cluster + "-" + r.Name + "-N)"
	strimziStorage(s, r, path("spec", "storage"))
	s.Spread = PodSpread(r.Get("spec", "template", "pod", "affinity"), r.Get("spec", "template", "pod", "topologySpreadConstraints"))
	if k := g.Lookup("Kafka", r.Namespace, cluster); k != nil && cluster != "" {
		s.Spread = append(s.Spread, rackSpread(k)...)
	}
	return []*OperatorSet{s}
}

// kafkaSets maps a Strimzi Kafka's own storage: spec.kafka.replicas and storage when
// the cluster does not use node pools (v1beta2 without the strimzi.io/node-pools or
// strimzi.io/kraft annotation and without a KafkaNodePool of the cluster), and
// spec.zookeeper.
func kafkaSets(g *Graph, r *Resource, op string) []*OperatorSet {
	var out []*OperatorSet
	// With node pools (the annotation, KRaft, or a KafkaNodePool of this cluster in
	// the world) the pools' storage is used and spec.kafka's is ignored.
	pools := r.Get("metadata", "annotations", "strimzi.io/node-pools").Str() == "enabled" ||
		r.Get("metadata", "annotations", "strimzi.io/kraft").Str() == "enabled"
	for _, p := range g.ByKind("KafkaNodePool") {
		pools = pools || p.Namespace == r.Namespace && p.Get("metadata", "labels", "strimzi.io/cluster").Str() == r.Name
	}
	for _, part := range []string{"kafka", "zookeeper"} {
		if part == "kafka" && pools || r.Get("spec", part, "storage") == nil {
			continue
		}
		s := &OperatorSet{Resource: r, Operator: op, Path: path("spec", part), Name: ""}
		s.Pods, s.Known, s.PodsWhy, s.PodsNode = count(r.Get("spec", part, "replicas"), 0, "spec."+part+".replicas")
		s.Creates = "Strimzi creates " + r.Name + "-" + part + " with " + podsText(s) + ", one PVC per pod and volume (data-[ID-]" + r.Name + "-" + part + "-N)"
		strimziStorage(s, r, path("spec", part, "storage"))
		s.Spread = PodSpread(r.Get("spec", part, "template", "pod", "affinity"), r.Get("spec", part, "template", "pod", "topologySpreadConstraints"))
		if part == "kafka" {
			s.Spread = append(s.Spread, rackSpread(r)...)
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		out = append(out, &OperatorSet{Resource: r, Operator: op, Creates: "Strimzi creates the brokers and controllers from the Kafka's KafkaNodePools"})
	}
	return out
}

// rackSpread is the pod anti-affinity Strimzi's rack awareness adds on
// spec.kafka.rack.topologyKey (preferred, so brokers spread over racks).
func rackSpread(k *Resource) []Spread {
	n := k.Get("spec", "kafka", "rack", "topologyKey")
	if n.Str() == "" {
		return nil
	}
	return []Spread{{Key: n.Str(), Node: n, Text: "Strimzi rack awareness (preferred pod anti-affinity) on spec.kafka.rack.topologyKey " + n.Str()}}
}

func strimziStorage(s *OperatorSet, r *Resource, base []string) {
	st := r.Get(base...)
	vols := []*Node{st}
	paths := [][]string{base}
	if st.Get("type").Str() == "jbod" {
		vols, paths = nil, nil
		for i, v := range st.Get("volumes").List() {
			vols = append(vols, v)
			paths = append(paths, extend(base, "volumes", strconv.Itoa(i)))
		}
	}
	for i, v := range vols {
		if v.Get("type").Str() != "persistent-claim" {
			continue
		}
		name := "data"
		if id := v.Get("id").Str(); id != "" && st.Get("type").Str() == "jbod" {
			name = "data-" + id
		}
		c := &OperatorClaim{Field: dotted(paths[i]), Base: paths[i], ClassField: extend(paths[i], "class")}
		c.Claim = &Claim{Name: name, Namespace: r.Namespace, PerPod: true,
			Object: claimObject(name, v.Range, nil, v.Get("class"), v.Get("size"), true)}
		s.Claims = append(s.Claims, c)
		if s.Deletion.WithOwner {
			continue
		}
		dp := extend(paths[i], "deleteClaim")
		s.Deletion = Deletion{Policy: true, Path: dp, Text: "deleteClaim unset, defaults to false"}
		if b, _ := v.Get("deleteClaim").Bool(); b {
			s.Deletion = Deletion{WithOwner: true, Policy: true, Path: dp, Node: v.Get("deleteClaim"), Text: dotted(dp) + " true"}
		}
	}
	if len(s.Claims) > 0 {
		s.Grows = "Strimzi resizes persistent-claim volumes when their size grows"
	}
}

// --- ECK -------------------------------------------------------------------------

// eckSets maps an ECK Elasticsearch: one StatefulSet per spec.nodeSets[] entry of count
// pods, one PVC per pod from each volumeClaimTemplates entry, elasticsearch-data of 1Gi
// ReadWriteOnce on the default class when none is written
// (pkg/controller/elasticsearch/volume/defaults.go); claims deleted with the cluster
// unless spec.volumeClaimDeletePolicy is DeleteOnScaledownOnly
// (pkg/apis/elasticsearch/v1/elasticsearch_types.go).
func eckSets(_ *Graph, r *Resource, op string) []*OperatorSet {
	var out []*OperatorSet
	dp := path("spec", "volumeClaimDeletePolicy")
	del := Deletion{WithOwner: true, Policy: true, Path: dp, Text: "volumeClaimDeletePolicy unset, defaults to DeleteOnScaledownAndClusterDeletion"}
	if n := r.Get(dp...); n != nil && !n.IsNull() {
		del = Deletion{WithOwner: n.Str() != "DeleteOnScaledownOnly" && !n.IsUnknown(), Policy: true, Path: dp, Node: n, Text: "volumeClaimDeletePolicy " + n.Str()}
	}
	for i, ns := range r.Get("spec", "nodeSets").List() {
		p := path("spec", "nodeSets", strconv.Itoa(i))
		s := &OperatorSet{Resource: r, Operator: op, Path: p, Name: ns.Get("name").Str(), Deletion: del}
		s.Pods, s.Known, s.PodsWhy, s.PodsNode = count(ns.Get("count"), 0, "count")
		sts := r.Name + "-es-" + s.Name
		s.Creates = "ECK creates StatefulSet " + sts + " of " + podsText(s) + ", one PVC per pod from each claim template"
		tmpls := ns.Get("volumeClaimTemplates").List()
		for j, t := range tmpls {
			tb := extend(p, "volumeClaimTemplates", strconv.Itoa(j))
			name := t.Get("metadata", "name").Str()
			s.Claims = append(s.Claims, &OperatorClaim{Field: dotted(tb), Base: tb, Spec: extend(tb, "spec"), Meta: extend(tb, "metadata"),
				Claim: &Claim{Name: name, Namespace: r.Namespace, Object: t, PerPod: true}})
		}
		// ECK adds its default claim only when the pod template has no volume of that
		// name (an emptyDir elasticsearch-data replaces it):
		// pkg/controller/common/defaults/pvc.go AppendDefaultPVCs.
		own := false
		for _, v := range ns.Get("podTemplate", "spec", "volumes").List() {
			own = own || v.Get("name").Str() == "elasticsearch-data"
		}
		if len(tmpls) == 0 && own {
			s.Creates = "ECK creates StatefulSet " + sts + " of " + podsText(s) + " whose elasticsearch-data volume is the pod template's own (no claim)"
		}
		if len(tmpls) == 0 && !own {
			s.Creates = "ECK creates StatefulSet " + sts + " of " + podsText(s) + ", one PVC elasticsearch-data per pod: 1Gi, ReadWriteOnce, on the default class (no volumeClaimTemplates)"
			s.Claims = append(s.Claims, &OperatorClaim{Field: dotted(p) + " (default volumeClaimTemplates)", Base: p, Default: true,
				Claim: &Claim{Name: "elasticsearch-data", Namespace: r.Namespace, PerPod: true,
					Object: claimObject("elasticsearch-data", ns.Range, nil, nil, &Node{Kind: String, Scalar: "1Gi", Range: ns.Range}, true)}})
		}
		pod := ns.Get("podTemplate", "spec")
		if aff := pod.Get("affinity"); aff != nil {
			s.Spread = PodSpread(aff, pod.Get("topologySpreadConstraints"))
		} else {
			s.Spread = append([]Spread{{Key: HostnameKey, Text: "ECK's default pod anti-affinity (preferred, on " + HostnameKey + ")"}},
				PodSpread(nil, pod.Get("topologySpreadConstraints"))...)
		}
		s.Grows = "ECK resizes the PVCs when a claim template's storage request grows"
		out = append(out, s)
	}
	return out
}

// --- Crunchy PGO -----------------------------------------------------------------

// pgoSets maps a Crunchy PGO PostgresCluster: each spec.instances[] set runs replicas
// pods, each its own StatefulSet of one pod with a pgdata claim from
// dataVolumeClaimSpec and a WAL claim from walVolumeClaimSpec; each pgBackRest repo
// with a volume is a claim of the repo host
// (pkg/apis/postgres-operator.crunchydata.com/v1beta1/postgrescluster_types.go,
// pgbackrest_types.go; internal/controller/postgrescluster/instance.go, topology.go).
func pgoSets(_ *Graph, r *Resource, op string) []*OperatorSet {
	var out []*OperatorSet
	// The default spread applies unless disabled; a value known only at apply time
	// decides nothing, so no default spread is assumed then.
	disable := r.Get("spec", "disableDefaultPodScheduling")
	defaults := !disable.IsUnknown()
	if b, ok := disable.Bool(); ok && b {
		defaults = false
	}
	for i, in := range r.Get("spec", "instances").List() {
		p := path("spec", "instances", strconv.Itoa(i))
		name := in.Get("name").Str()
		s := &OperatorSet{Resource: r, Operator: op, Path: p, Name: name}
		if name == "" {
			s.Name = "#" + strconv.Itoa(i)
		}
		s.Pods, s.Known, s.PodsWhy, s.PodsNode = count(in.Get("replicas"), 1, "replicas")
		s.Creates = "Crunchy PGO creates one StatefulSet of one pod per replica (" + podsText(s) + "), each pod with its own pgdata PVC (and WAL PVC)"
		for _, v := range []struct{ key, suffix string }{{"dataVolumeClaimSpec", "pgdata"}, {"walVolumeClaimSpec", "pgwal"}} {
			spec := in.Get(v.key)
			if spec == nil || spec.IsNull() {
				continue
			}
			b := extend(p, v.key)
			s.Claims = append(s.Claims, &OperatorClaim{Field: dotted(b), Base: b, Spec: b,
				Claim: &Claim{Name: r.Name + "-" + name + "-…-" + v.suffix, Namespace: r.Namespace, PerPod: true,
					Object: claimObject(r.Name+"-"+name+"-…-"+v.suffix, spec.Range, spec, nil, nil, false)}})
			if spec.Get("autoGrow") != nil {
				s.Grows = "Crunchy PGO grows the volume automatically (" + dotted(extend(b, "autoGrow")) + ")"
			} else if s.Grows == "" {
				s.Grows = "Crunchy PGO resizes the PVCs when the storage request grows"
			}
		}
		s.Spread = PodSpread(in.Get("affinity"), in.Get("topologySpreadConstraints"))
		if defaults {
			s.Spread = append(s.Spread,
				Spread{Key: HostnameKey, Text: "Crunchy PGO's default topology spread (ScheduleAnyway) on " + HostnameKey},
				Spread{Key: ZoneKey, Text: "Crunchy PGO's default topology spread (ScheduleAnyway) on " + ZoneKey})
		}
		s.Deletion = Deletion{WithOwner: true, Text: "the PVCs are owned by the PostgresCluster and deleted with it"}
		out = append(out, s)
	}
	for i, repo := range r.Get("spec", "backups", "pgbackrest", "repos").List() {
		spec := repo.Get("volume", "volumeClaimSpec")
		if spec == nil {
			continue
		}
		p := path("spec", "backups", "pgbackrest", "repos", strconv.Itoa(i))
		b := extend(p, "volume", "volumeClaimSpec")
		s := &OperatorSet{Resource: r, Operator: op, Path: p, Name: repo.Get("name").Str(), Pods: 1, Known: true, PodsWhy: "one repo host"}
		s.Creates = "Crunchy PGO creates the pgBackRest repo host StatefulSet " + r.Name + "-repo-host of one pod with this repository's PVC"
		s.Claims = append(s.Claims, &OperatorClaim{Field: dotted(b), Base: b, Spec: b,
			Claim: &Claim{Name: r.Name + "-" + s.Name, Namespace: r.Namespace, PerPod: true,
				Object: claimObject(r.Name+"-"+s.Name, spec.Range, spec, nil, nil, false)}})
		s.Deletion = Deletion{WithOwner: true, Text: "the PVC is owned by the PostgresCluster and deleted with it"}
		out = append(out, s)
	}
	return out
}
