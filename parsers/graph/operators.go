package graph

// Stateful operators: custom resources whose operator creates pods that each get
// their own claims (docs/operators.md). The graph maps each such resource to
// OperatorSets — groups of pods with per-instance claims, their spread constraints and
// the operator's claim deletion policy — so that the storage rules read them as they
// read StatefulSet claim templates, and every finding names the custom resource and
// the field to change. What each operator creates, and from which of its fields, is
// written here once, with the operator's source in docs/operators.md.

import (
	"strconv"
	"strings"
)

// OperatorSet is one group of pods an operator creates from a custom resource: a
// CloudNativePG Cluster's instances, one Prometheus shard's StatefulSet, a Strimzi
// node pool, an ECK nodeSet, a Crunchy PGO instance set or pgBackRest repo host.
type OperatorSet struct {
	Resource *Resource
	// Operator names the operator: "CloudNativePG", "Prometheus Operator", "Strimzi",
	// "ECK", "Crunchy PGO".
	Operator string
	// Path is the group's field path within the resource (spec.nodeSets.0), nil when
	// the group is the whole resource.
	Path []string
	// Name is the group's name (a nodeSet's, an instance set's), "" for the whole resource.
	Name string
	// Creates says what the operator creates from the group, for related locations.
	Creates string
	// Pods is how many pods of the group run at once, each with its own claims; Known
	// is false when the count is not known statically.
	Pods  int
	Known bool
	// PodsWhy renders the count's origin ("instances 3", "count 3 (default 1)"), and
	// PodsNode is the field that set it (nil for a default).
	PodsWhy  string
	PodsNode *Node
	// Claims are the per-pod claims the operator creates for each pod.
	Claims []*OperatorClaim
	// Spread are the pod anti-affinity and topology spread constraints between the
	// group's pods, written in the resource or added by the operator by default.
	Spread []Spread
	// Deletion is the operator's policy for the claims when the resource is deleted.
	Deletion Deletion
	// Grows says how the operator grows the claims' volumes when asked (its documented
	// resize), "" when it does not document one.
	Grows string
}

// Label names the group in messages: "Cluster pg (CloudNativePG)", "nodeSet data of
// Elasticsearch logs (ECK)".
func (s *OperatorSet) Label() string { return s.LabelWith("") }

// LabelWith is Label with a detail beside the operator's name: "Cluster pg
// (CloudNativePG, instances 3)".
func (s *OperatorSet) LabelWith(detail string) string {
	r := s.Resource
	if detail != "" {
		detail = ", " + detail
	}
	what := r.Kind + " " + r.Name + " (" + s.Operator + detail + ")"
	if s.Name != "" {
		return s.groupWord() + " " + s.Name + " of " + what
	}
	return what
}

// GroupLine renders the group and its pod count for drawings: "instances 3",
// "nodeSet default: count 3".
func (s *OperatorSet) GroupLine() string {
	if s.Name == "" {
		return s.PodsWhy
	}
	return s.groupWord() + " " + s.Name + ": " + s.PodsWhy
}

func (s *OperatorSet) groupWord() string {
	switch {
	case len(s.Path) > 1 && s.Path[1] == "nodeSets":
		return "nodeSet"
	case len(s.Path) > 1 && s.Path[1] == "instances":
		return "instance set"
	case len(s.Path) > 1 && s.Path[1] == "backups":
		return "pgBackRest repo"
	}
	return "group"
}

// OperatorClaim is one claim an operator creates for each pod of a set, as far as the
// custom resource decides it.
type OperatorClaim struct {
	Set *OperatorSet
	// Claim is the claim as the operator creates it (PerPod), its object built from the
	// resource's fields: a class, size and access modes written in the resource keep
	// their nodes, so ranges point at the resource.
	Claim *Claim
	// Field is the resource's field that defines the claim, as users write it:
	// "spec.storage", "spec.nodeSets[0].volumeClaimTemplates[0]".
	Field string
	// Base is Field's path; Spec is the path of the PVC-spec-shaped node the claim is
	// built on (pvcTemplate, dataVolumeClaimSpec, volumeClaimTemplate.spec), nil when
	// none; Meta the path of an embedded template's metadata; ClassField the path of
	// the field that chooses the class when it is not spec.storageClassName.
	Base, Spec, Meta, ClassField []string
	// Ephemeral marks a generic ephemeral volume: deleted with its pod by design.
	Ephemeral bool
	// Default marks a claim the operator creates without the resource writing one
	// (ECK's elasticsearch-data).
	Default bool
}

// Path maps a field path of the claim object ("spec", "storageClassName") to the
// field of the resource that sets it, or to the claim's own field when the resource
// has no closer one (where a missing field belongs).
func (c *OperatorClaim) Path(claimPath ...string) []string {
	cp := func(p []string, rest ...string) []string {
		return append(append([]string{}, p...), rest...)
	}
	switch {
	case len(claimPath) == 2 && claimPath[0] == "spec" && claimPath[1] == "storageClassName" && c.ClassField != nil:
		return cp(c.ClassField)
	case len(claimPath) > 0 && claimPath[0] == "spec" && c.Spec != nil:
		return cp(c.Spec, claimPath[1:]...)
	case len(claimPath) > 0 && claimPath[0] == "metadata" && c.Meta != nil:
		return cp(c.Meta, claimPath[1:]...)
	}
	return cp(c.Base)
}

// Label names the claim in messages: "spec.storage of CloudNativePG Cluster pg".
func (c *OperatorClaim) Label() string {
	r := c.Set.Resource
	return c.Field + " of " + c.Set.Operator + " " + r.Kind + " " + r.Name
}

// Spread is one constraint that keeps a set's pods apart.
type Spread struct {
	// Key is the topology key (kubernetes.io/hostname, topology.kubernetes.io/zone).
	Key string
	// Required is true for required anti-affinity and DoNotSchedule spread; false for
	// preferred anti-affinity and ScheduleAnyway.
	Required bool
	// Node is the field that sets it, nil for the operator's default.
	Node *Node
	// Text renders it: "podAntiAffinityType required on kubernetes.io/hostname".
	Text string
}

// Deletion is what the operator does with the claims when the resource is deleted.
type Deletion struct {
	// WithOwner is true when the claims are deleted with the resource.
	WithOwner bool
	// Policy is true when a field of the resource decides it and offers keeping the
	// claims (ECK volumeClaimDeletePolicy, Strimzi deleteClaim, Prometheus Operator
	// persistentVolumeClaimRetentionPolicy); false for plain ownership.
	Policy bool
	// Node is the deciding field, nil when the operator's default applies.
	Node *Node
	// Path is the deciding field's path (where it belongs when unset).
	Path []string
	// Text renders it: "volumeClaimDeletePolicy unset, defaults to DeleteOnScaledownAndClusterDeletion".
	Text string
}

// operatorKind is a custom resource kind pvlint models.
type operatorKind struct {
	group, kind, operator string
	versions              []string
	build                 func(g *Graph, r *Resource, op string) []*OperatorSet
}

var operatorKinds = []operatorKind{
	{"postgresql.cnpg.io", "Cluster", "CloudNativePG", []string{"v1"}, cnpgSets},
	{"monitoring.coreos.com", "Prometheus", "Prometheus Operator", []string{"v1"}, promSets},
	{"monitoring.coreos.com", "PrometheusAgent", "Prometheus Operator", []string{"v1alpha1"}, promSets},
	{"monitoring.coreos.com", "Alertmanager", "Prometheus Operator", []string{"v1"}, promSets},
	{"monitoring.coreos.com", "ThanosRuler", "Prometheus Operator", []string{"v1"}, promSets},
	{"kafka.strimzi.io", "Kafka", "Strimzi", []string{"v1beta2", "v1"}, kafkaSets},
	{"kafka.strimzi.io", "KafkaNodePool", "Strimzi", []string{"v1beta2", "v1"}, nodePoolSets},
	{"elasticsearch.k8s.elastic.co", "Elasticsearch", "ECK", []string{"v1"}, eckSets},
	{"postgres-operator.crunchydata.com", "PostgresCluster", "Crunchy PGO", []string{"v1beta1", "v1"}, pgoSets},
}

// OperatorKind describes a custom resource of a kind pvlint models.
type OperatorKind struct {
	// Operator names the operator ("CloudNativePG").
	Operator string
	// Modelled is false when the kind is known but its apiVersion is not one pvlint
	// models: it is then not mapped, and the versions it knows are Versions.
	Modelled bool
	Versions []string
}

// OperatorOf reports whether r is a custom resource of a kind pvlint models (by API
// group and kind, so another group's Cluster is not one), and whether its version is
// one pvlint models.
func OperatorOf(r *Resource) (OperatorKind, bool) {
	if r == nil {
		return OperatorKind{}, false
	}
	group, version := r.Group(), r.APIVersion[strings.IndexByte(r.APIVersion, '/')+1:]
	for _, k := range operatorKinds {
		if k.group == group && k.kind == r.Kind {
			ok := false
			for _, v := range k.versions {
				ok = ok || v == version
			}
			return OperatorKind{Operator: k.operator, Modelled: ok, Versions: k.versions}, true
		}
	}
	return OperatorKind{}, false
}

// linkOperator maps a modelled custom resource to its sets.
func (g *Graph) linkOperator(r *Resource) {
	if r.IsContext() {
		return
	}
	group := r.Group()
	for _, k := range operatorKinds {
		if k.group != group || k.kind != r.Kind {
			continue
		}
		if ok, _ := OperatorOf(r); !ok.Modelled {
			return
		}
		sets := k.build(g, r, k.operator)
		for _, s := range sets {
			for _, c := range s.Claims {
				c.Set = s
			}
		}
		g.operated = append(g.operated, sets...)
		return
	}
}

// OperatorSets returns the pod groups of the modelled custom resources, in input order.
func (g *Graph) OperatorSets() []*OperatorSet { return g.operated }

// count reads a pod count field with its default: known is false for an unknown value.
func count(n *Node, def int, name string) (int, bool, string, *Node) {
	switch {
	case n.IsUnknown():
		return 0, false, name + " not known statically", n
	case n == nil || n.IsNull():
		return def, true, name + " unset, defaults to " + strconv.Itoa(def), nil
	}
	v, ok := n.Int()
	if !ok {
		return 0, false, name + " " + n.Str(), n
	}
	return v, true, name + " " + strconv.Itoa(v), n
}

// claimObject builds the object of a claim the operator creates: the PVC spec the
// resource writes (if any) with the class, size and default access modes the operator
// sets from its own fields. Nodes from the resource keep their ranges; defaults take
// the range of at.
func claimObject(name string, at Range, spec, class, size *Node, defaultModes bool) *Node {
	var fields []Field
	for _, f := range spec.Fields() {
		if f.Key == "storageClassName" && class != nil || f.Key == "resources" && size != nil {
			continue
		}
		fields = append(fields, f)
	}
	if class != nil {
		fields = append(fields, Field{Key: "storageClassName", KeyRange: class.Range, Value: class})
	}
	if size != nil {
		req := NewMap(size.Range, []Field{{Key: "storage", KeyRange: size.Range, Value: size}})
		fields = append(fields, Field{Key: "resources", KeyRange: size.Range,
			Value: NewMap(size.Range, []Field{{Key: "requests", KeyRange: size.Range, Value: req}})})
	}
	if spec.Get("accessModes") == nil && defaultModes {
		fields = append(fields, Field{Key: "accessModes", KeyRange: at,
			Value: NewList(at, []*Node{{Kind: String, Scalar: RWO, Range: at}})})
	}
	meta := NewMap(at, []Field{{Key: "name", KeyRange: at, Value: &Node{Kind: String, Scalar: name, Range: at}}})
	return NewMap(at, []Field{{Key: "metadata", KeyRange: at, Value: meta}, {Key: "spec", KeyRange: at, Value: NewMap(at, fields)}})
}

func path(p ...string) []string { return p }

func extend(p []string, rest ...string) []string {
	return append(append([]string{}, p...), rest...)
}

// dotted renders a field path as users write it: spec.nodeSets[0].count.
func dotted(p []string) string {
	var b strings.Builder
	for i, s := range p {
		if _, err := strconv.Atoi(s); err == nil {
			b.WriteString("[" + s + "]")
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// PodSpread reads the pod anti-affinity terms and topology spread constraints of
// a pod spec's fields (affinity, topologySpreadConstraints), as the scheduler would
// apply them to the set's pods. A term's label selector is taken to select the set's
// own pods, as the operators' defaults and their documented examples do.
func PodSpread(affinity, tsc *Node) []Spread {
	var out []Spread
	anti := affinity.Get("podAntiAffinity")
	for _, t := range anti.Get("requiredDuringSchedulingIgnoredDuringExecution").List() {
		if k := t.Get("topologyKey").Str(); k != "" {
			out = append(out, Spread{Key: k, Required: true, Node: t.Get("topologyKey"), Text: "required pod anti-affinity on " + k})
		}
	}
	for _, t := range anti.Get("preferredDuringSchedulingIgnoredDuringExecution").List() {
		if k := t.Get("podAffinityTerm", "topologyKey").Str(); k != "" {
			out = append(out, Spread{Key: k, Node: t.Get("podAffinityTerm", "topologyKey"), Text: "preferred pod anti-affinity on " + k})
		}
	}
	for _, c := range tsc.List() {
		k := c.Get("topologyKey").Str()
		if k == "" {
			continue
		}
		if c.Get("whenUnsatisfiable").Str() == "ScheduleAnyway" {
			out = append(out, Spread{Key: k, Node: c.Get("topologyKey"), Text: "topology spread (ScheduleAnyway) on " + k})
		} else {
			out = append(out, Spread{Key: k, Required: true, Node: c.Get("topologyKey"), Text: "topology spread (DoNotSchedule) on " + k})
		}
	}
	return out
}

// Well-known topology keys.
const (
	HostnameKey = "kubernetes.io/hostname"
	ZoneKey     = "topology.kubernetes.io/zone"
)
