package graph_test

import (
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// TestOperatorSets checks what each modelled custom resource maps to: the pod count,
// each per-pod claim's name, class, modes and the resource field it maps back to, the
// spread and the deletion policy.
func TestOperatorSets(t *testing.T) {
	tests := []struct {
		name, doc string
		// want renders each set: "pods=3 claims=[name class modes path] spread=[...] delete=true/false"
		want []string
	}{
		{"cnpg defaults", `apiVersion: postgresql.cnpg.io/v1
kind: Cluster
metadata: {name: pg}
spec:
  instances: 3
  storage: {storageClass: fast, size: 1Gi}
  walStorage:
    pvcTemplate: {storageClassName: wal, accessModes: [ReadWriteOncePod]}
  tablespaces:
  - name: idx
    storage: {size: 1Gi}`,
			[]string{"pods=3 claims=[pg-N fast ReadWriteOnce spec.storage.storageClass; pg-N-wal wal ReadWriteOncePod spec.walStorage.pvcTemplate.storageClassName; pg-N-tbs-idx - ReadWriteOnce spec.tablespaces.0.storage.storageClass] spread=[kubernetes.io/hostname preferred] delete=owner"}},
		{"cnpg anti-affinity off, required zone", `apiVersion: postgresql.cnpg.io/v1
kind: Cluster
metadata: {name: pg}
spec:
  affinity: {enablePodAntiAffinity: false}
  topologySpreadConstraints:
  - {topologyKey: topology.kubernetes.io/zone, maxSkew: 1}`,
			[]string{"pods=1 claims=[] spread=[topology.kubernetes.io/zone required] delete=owner"}},
		{"prometheus claim template", `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s}
spec:
  replicas: 2
  persistentVolumeClaimRetentionPolicy: {whenDeleted: Delete}
  storage:
    volumeClaimTemplate:
      spec: {storageClassName: gp3}`,
			[]string{"pods=2 claims=[prometheus-k8s-db gp3 ReadWriteOnce spec.storage.volumeClaimTemplate.spec.storageClassName] spread=[] delete=policy"}},
		{"prometheus emptyDir wins", `apiVersion: monitoring.coreos.com/v1
kind: Prometheus
metadata: {name: k8s}
spec:
  storage:
    emptyDir: {}
    volumeClaimTemplate:
      spec: {storageClassName: gp3}`,
			[]string{"pods=1 claims=[] spread=[] delete=none"}},
		{"strimzi jbod", `apiVersion: kafka.strimzi.io/v1beta2
kind: KafkaNodePool
metadata: {name: pool, labels: {strimzi.io/cluster: c}}
spec:
  replicas: 3
  storage:
    type: jbod
    volumes:
    - {id: 0, type: persistent-claim, size: 1Gi, class: fast, deleteClaim: true}
    - {id: 1, type: ephemeral}
    - {id: 2, type: persistent-claim, size: 1Gi}`,
			[]string{"pods=3 claims=[data-0 fast ReadWriteOnce spec.storage.volumes.0.class; data-2 - ReadWriteOnce spec.storage.volumes.2.class] spread=[] delete=policy"}},
		{"strimzi kafka with node pools maps nothing of its own", `apiVersion: kafka.strimzi.io/v1beta2
kind: Kafka
metadata: {name: c, annotations: {strimzi.io/node-pools: enabled}}
spec:
  kafka:
    replicas: 3
    storage: {type: persistent-claim, size: 1Gi}`,
			[]string{"pods=? claims=[] spread=[] delete=none"}},
		{"eck default claim and policy", `apiVersion: elasticsearch.k8s.elastic.co/v1
kind: Elasticsearch
metadata: {name: es}
spec:
  nodeSets:
  - {name: a, count: 3}
  - name: b
    count: 2
    podTemplate:
      spec:
        affinity:
          podAntiAffinity:
            requiredDuringSchedulingIgnoredDuringExecution:
            - topologyKey: topology.kubernetes.io/zone
    volumeClaimTemplates:
    - metadata: {name: elasticsearch-data}
      spec: {storageClassName: fast, accessModes: [ReadWriteOnce]}`,
			[]string{"pods=3 claims=[elasticsearch-data - ReadWriteOnce spec.nodeSets.0] spread=[kubernetes.io/hostname preferred] delete=policy",
				"pods=2 claims=[elasticsearch-data fast ReadWriteOnce spec.nodeSets.1.volumeClaimTemplates.0.spec.storageClassName] spread=[topology.kubernetes.io/zone required] delete=policy"}},
		{"eck keeps claims", `apiVersion: elasticsearch.k8s.elastic.co/v1
kind: Elasticsearch
metadata: {name: es}
spec:
  volumeClaimDeletePolicy: DeleteOnScaledownOnly
  nodeSets:
  - {name: a, count: 1}`,
			[]string{"pods=1 claims=[elasticsearch-data - ReadWriteOnce spec.nodeSets.0] spread=[kubernetes.io/hostname preferred] delete=none"}},
		{"eck emptyDir data volume replaces the default claim", `apiVersion: elasticsearch.k8s.elastic.co/v1
kind: Elasticsearch
metadata: {name: es}
spec:
  nodeSets:
  - name: a
    count: 1
    podTemplate:
      spec:
        volumes:
        - {name: elasticsearch-data, emptyDir: {}}`,
			[]string{"pods=1 claims=[] spread=[kubernetes.io/hostname preferred] delete=policy"}},
		{"pgo instance sets and repo", `apiVersion: postgres-operator.crunchydata.com/v1beta1
kind: PostgresCluster
metadata: {name: hippo}
spec:
  instances:
  - name: a
    replicas: 2
    dataVolumeClaimSpec: {storageClassName: fast, accessModes: [ReadWriteOnce]}
    walVolumeClaimSpec: {accessModes: [ReadWriteOnce]}
  backups:
    pgbackrest:
      repos:
      - name: repo1
        volume:
          volumeClaimSpec: {storageClassName: slow, accessModes: [ReadWriteOnce]}
      - name: repo2
        s3: {bucket: b}`,
			[]string{"pods=2 claims=[hippo-a-…-pgdata fast ReadWriteOnce spec.instances.0.dataVolumeClaimSpec.storageClassName; hippo-a-…-pgwal - ReadWriteOnce spec.instances.0.walVolumeClaimSpec.storageClassName] spread=[kubernetes.io/hostname preferred; topology.kubernetes.io/zone preferred] delete=owner",
				"pods=1 claims=[hippo-repo1 slow ReadWriteOnce spec.backups.pgbackrest.repos.0.volume.volumeClaimSpec.storageClassName] spread=[] delete=owner"}},
		{"another group's Cluster is not mapped", "apiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata: {name: c}\nspec: {instances: 3}", nil},
		{"an unmodelled version is not mapped", "apiVersion: postgresql.cnpg.io/v2\nkind: Cluster\nmetadata: {name: c}\nspec: {instances: 3, storage: {size: 1Gi}}", nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			g := build(t, tc.doc)
			var got []string
			for _, s := range g.OperatorSets() {
				got = append(got, renderSet(g, s))
			}
			if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("sets:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

func renderSet(g *graph.Graph, s *graph.OperatorSet) string {
	var claims, spread []string
	for _, c := range s.Claims {
		class := g.ClassOf(c.Claim).Name
		if class == "" {
			class = "-"
		}
		claims = append(claims, c.Claim.Name+" "+class+" "+g.AccessModes(c.Claim).Short()+" "+strings.Join(c.Path("spec", "storageClassName"), "."))
	}
	for _, sp := range s.Spread {
		how := "preferred"
		if sp.Required {
			how = "required"
		}
		spread = append(spread, sp.Key+" "+how)
	}
	del := "none"
	switch {
	case s.Deletion.WithOwner && s.Deletion.Policy:
		del = "policy"
	case s.Deletion.WithOwner:
		del = "owner"
	}
	pods := "?"
	if s.Known {
		pods = itoa(s.Pods)
	}
	return "pods=" + pods + " claims=[" + strings.Join(claims, "; ") + "] spread=[" + strings.Join(spread, "; ") + "] delete=" + del
}

// TestOperatorUnknownSpread checks that a spread decided by a value known only at
// apply time (a Terraform variable) is not assumed.
func TestOperatorUnknownSpread(t *testing.T) {
	g := build(t, "apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: pg}\nspec: {instances: 3}")
	aff := graph.NewMap(graph.Range{}, []graph.Field{{Key: "enablePodAntiAffinity", Value: &graph.Node{Kind: graph.Unknown}}})
	g.Resources[0].Get("spec").AddFields(graph.Field{Key: "affinity", Value: aff})
	g = graph.New(g.Resources, graph.Options{})
	if sets := g.OperatorSets(); len(sets) != 1 || len(sets[0].Spread) != 0 {
		t.Errorf("an unknown enablePodAntiAffinity gave spread %+v", sets[0].Spread)
	}
}

// TestOperatorHostile feeds modelled kinds fields of the wrong shapes: nothing panics
// and nothing unknown becomes a count or a claim.
func TestOperatorHostile(t *testing.T) {
	docs := []string{
		"apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: a}\nspec: {instances: many, storage: [1, 2], tablespaces: {x: 1}, affinity: [x]}",
		"apiVersion: postgresql.cnpg.io/v1\nkind: Cluster\nmetadata: {name: b}\nspec: [1]",
		"apiVersion: monitoring.coreos.com/v1\nkind: Prometheus\nmetadata: {name: c}\nspec: {replicas: {a: 1}, storage: {volumeClaimTemplate: [1]}, affinity: {podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {x: 1}}}}",
		"apiVersion: kafka.strimzi.io/v1beta2\nkind: KafkaNodePool\nmetadata: {name: d}\nspec: {storage: {type: jbod, volumes: {a: 1}}}",
		"apiVersion: kafka.strimzi.io/v1beta2\nkind: Kafka\nmetadata: {name: e}\nspec: {kafka: {storage: x}, zookeeper: {storage: [x]}}",
		"apiVersion: elasticsearch.k8s.elastic.co/v1\nkind: Elasticsearch\nmetadata: {name: f}\nspec: {nodeSets: [1, {count: x, volumeClaimTemplates: x, podTemplate: [1]}]}",
		"apiVersion: postgres-operator.crunchydata.com/v1beta1\nkind: PostgresCluster\nmetadata: {name: g}\nspec: {instances: [x, {dataVolumeClaimSpec: x}], backups: {pgbackrest: {repos: [x]}}}",
		"apiVersion: postgresql.cnpg.io\nkind: Cluster\nmetadata: {name: h}",
	}
	g := build(t, docs...)
	for _, s := range g.OperatorSets() {
		if s.Known && s.Pods < 0 {
			t.Errorf("%s: negative pods", s.Label())
		}
		for _, c := range s.Claims {
			_ = g.ClassOf(c.Claim)
			_ = c.Path("spec", "accessModes")
		}
	}
}

// FuzzOperators maps arbitrary documents of the modelled kinds: whatever shapes their
// fields take, building the graph and reading every set never panics.
func FuzzOperators(f *testing.F) {
	for _, k := range []string{"postgresql.cnpg.io/v1\nkind: Cluster", "monitoring.coreos.com/v1\nkind: Prometheus",
		"kafka.strimzi.io/v1beta2\nkind: KafkaNodePool", "kafka.strimzi.io/v1beta2\nkind: Kafka",
		"elasticsearch.k8s.elastic.co/v1\nkind: Elasticsearch", "postgres-operator.crunchydata.com/v1beta1\nkind: PostgresCluster"} {
		f.Add("apiVersion: " + k + "\nmetadata: {name: x}\nspec: {instances: 3, storage: {size: 1Gi, storageClass: a, type: jbod, volumes: [{type: persistent-claim}]}, nodeSets: [{count: 2}], affinity: {podAntiAffinityType: required}}")
	}
	f.Fuzz(func(t *testing.T, doc string) {
		rs, _ := manifest.Parse("f.yaml", []byte(doc), manifest.Options{})
		g := graph.New(rs, graph.Options{})
		for _, s := range g.OperatorSets() {
			_ = s.Label() + s.GroupLine() + s.Creates
			for _, c := range s.Claims {
				_ = g.ClassOf(c.Claim)
				_ = g.AccessModes(c.Claim)
				_ = c.Label()
				_ = s.Resource.Locate(c.Path("spec", "storageClassName")...)
			}
		}
		for _, r := range rs {
			graph.OperatorOf(r)
		}
	})
}
