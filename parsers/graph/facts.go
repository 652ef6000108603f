package graph

import (
	"math"
	"slices"
	"strconv"
	"strings"
)

// Annotation keys with storage meaning.
const (
	AnnDefaultClass     = "storageclass.kubernetes.io/is-default-class"
	AnnBetaDefaultClass = "storageclass.beta.kubernetes.io/is-default-class"
	AnnBetaClass        = "volume.beta.kubernetes.io/storage-class"
)

// Access modes.
const (
	RWO  = "ReadWriteOnce"
	RWOP = "ReadWriteOncePod"
	RWX  = "ReadWriteMany"
	ROX  = "ReadOnlyMany"
)

// IsDefaultClass reports whether a StorageClass is a default class: either default
// annotation with the value exactly "true" (Kubernetes' IsDefaultAnnotation,
// pkg/volume/util/storageclass.go; docs/storage-facts.md#f1).
func IsDefaultClass(sc *Resource) bool {
	a, _ := sc.Annotation(AnnDefaultClass)
	b, _ := sc.Annotation(AnnBetaDefaultClass)
	return (a.IsString() || a.Is(Bool)) && a.Scalar == "true" ||
		(b.IsString() || b.Is(Bool)) && b.Scalar == "true"
}

// ClassRef is how a claim's StorageClass was decided.
type ClassRef struct {
	// Name is the class name; "" with Explicit means "no class" (storageClassName: "").
	Name string
	// Node is the field that set it (annotation or storageClassName), nil for defaults.
	Node *Node
	// Via is "annotation", "spec", "default" or "" when undecided.
	Via string
	// Class is the StorageClass resource when it is in the linted set.
	Class *Resource
	// Known reports whether the class name is decided (a missing storageClassName with
	// no single default class in the set is not).
	Known bool
}

// ClassOf resolves a claim's StorageClass: the beta annotation first (it wins over the
// spec), then spec.storageClassName, then the one default class in the linted set.
func (g *Graph) ClassOf(c *Claim) ClassRef {
	if !c.Known() {
		return ClassRef{}
	}
	if a := c.Object.Get("metadata", "annotations", AnnBetaClass); a != nil && !a.IsNull() {
		return g.classRef(a, "annotation")
	}
	if n := c.Object.Get("spec", "storageClassName"); n != nil && !n.IsNull() {
		return g.classRef(n, "spec")
	}
	if len(g.defaults) == 1 {
		return ClassRef{Name: g.defaults[0].Name, Via: "default", Class: g.defaults[0], Known: true}
	}
	return ClassRef{}
}

func (g *Graph) classRef(n *Node, via string) ClassRef {
	if n.IsUnknown() {
		return ClassRef{Node: n, Via: via}
	}
	ref := ClassRef{Name: n.Str(), Node: n, Via: via, Known: true}
	if ref.Name != "" {
		ref.Class = g.LookupNear("StorageClass", "", ref.Name, n.Range.File)
	}
	return ref
}

// PVOf returns the PersistentVolume a claim is pre-bound to (spec.volumeName) when it
// is in the linted set.
func (g *Graph) PVOf(c *Claim) *Resource {
	n := c.Spec().Get("volumeName")
	if n.Str() == "" {
		return nil
	}
	return g.LookupNear("PersistentVolume", "", n.Str(), n.Range.File)
}

// Modes are a claim's effective access modes: its own, and those of its pre-bound PV.
type Modes struct {
	Claim []string
	PV    []string // nil when there is no pre-bound PV in the set
}

// AccessModes returns the claim's effective modes.
func (g *Graph) AccessModes(c *Claim) Modes {
	m := Modes{Claim: c.Spec().Get("accessModes").Strings()}
	if pv := g.PVOf(c); pv != nil {
		m.PV = pv.Get("spec", "accessModes").Strings()
	}
	return m
}

// Effective is the list the attach layer checks: the PV's modes when pre-bound,
// otherwise the claim's.
func (m Modes) Effective() []string {
	if len(m.PV) > 0 {
		return m.PV
	}
	return m.Claim
}

// MultiAttachAllowed reports whether the claim or its PV lists RWX or ROX (Kubernetes'
// IsMultiAttachAllowed, pkg/volume/util/util.go; docs/storage-facts.md#f7): then
// sharing was intended and the multi-pod rules stay quiet.
func (m Modes) MultiAttachAllowed() bool {
	return has(m.Claim, RWX) || has(m.Claim, ROX) || has(m.PV, RWX) || has(m.PV, ROX)
}

// SingleWriter reports whether the effective modes are non-empty and only RWO/RWOP.
func (m Modes) SingleWriter() bool {
	if m.MultiAttachAllowed() {
		return false
	}
	e := m.Effective()
	if len(e) == 0 {
		return false
	}
	for _, x := range e {
		if x != RWO && x != RWOP {
			return false
		}
	}
	return true
}

// OnlyRWO reports whether the effective modes are exactly RWO (no RWOP).
func (m Modes) OnlyRWO() bool { return m.SingleWriter() && !m.HasRWOP() }

// HasRWOP reports whether the claim or PV asks for ReadWriteOncePod.
func (m Modes) HasRWOP() bool { return has(m.Claim, RWOP) || has(m.PV, RWOP) }

// Short renders modes the way messages show them: "ReadWriteOnce", "ReadWriteOnce, ReadOnlyMany".
func (m Modes) Short() string { return strings.Join(m.Effective(), ", ") }

func has(l []string, s string) bool {
	return slices.Contains(l, s)
}

// Backend is what backs a claim.
type Backend struct {
	Class BackendClass
	// Provisioner is the class's provisioner or the PV's CSI driver / plugin name.
	Provisioner string
	// Row is the table's knowledge of Provisioner.
	Row Provisioner
	// Via says how it was found: "class", "pv", or "" when unknown.
	Via string
}

// BackendOf classifies the storage behind a claim: through its pre-bound PV's source,
// otherwise its class's provisioner. A CSIDriver object in the set with attachRequired:
// false makes a driver non-attachable.
func (g *Graph) BackendOf(c *Claim) Backend {
	if pv := g.PVOf(c); pv != nil {
		if b := g.pvBackend(pv); b.Class != BackendUnknown {
			return b
		}
	}
	return g.ClassBackend(g.ClassOf(c).Class)
}

// ClassBackend classifies the storage a StorageClass provisions, as BackendOf does for
// a claim of the class; nil gives the unknown backend.
func (g *Graph) ClassBackend(sc *Resource) Backend {
	if sc == nil {
		return Backend{}
	}
	return g.provisionerBackend(sc.Get("provisioner").Str(), "class")
}

func (g *Graph) provisionerBackend(name, via string) Backend {
	if name == "" {
		return Backend{}
	}
	row := g.Provisioners.Classify(name)
	b := Backend{Class: row.Backend, Provisioner: name, Row: row, Via: via}
	if d := g.Lookup("CSIDriver", "", name); d != nil {
		if v, ok := d.Get("spec", "attachRequired").Bool(); ok && !v {
			b.Class = NonAttachable
		}
	}
	return b
}

// pvSources maps PV volume sources to backends (Kubernetes' IsAttachableVolume,
// pkg/volume/util/util.go; docs/storage-facts.md#f7).
var pvSources = []struct {
	key, plugin string
	class       BackendClass
}{
	{"awsElasticBlockStore", "kubernetes.io/aws-ebs", Attachable},
	{"gcePersistentDisk", "kubernetes.io/gce-pd", Attachable},
	{"azureDisk", "kubernetes.io/azure-disk", Attachable},
	{"cinder", "kubernetes.io/cinder", Attachable},
	{"vsphereVolume", "kubernetes.io/vsphere-volume", Attachable},
	{"portworxVolume", "kubernetes.io/portworx-volume", Attachable},
	{"rbd", "kubernetes.io/rbd", Attachable},
	{"iscsi", "kubernetes.io/iscsi", Attachable},
	{"fc", "kubernetes.io/fc", Attachable},
	{"azureFile", "kubernetes.io/azure-file", NonAttachable},
	{"nfs", "kubernetes.io/nfs", NonAttachable},
	{"hostPath", "kubernetes.io/host-path", NonAttachable},
	{"local", "kubernetes.io/local", NonAttachable},
	{"cephfs", "kubernetes.io/cephfs", NonAttachable},
	{"glusterfs", "kubernetes.io/glusterfs", NonAttachable},
	{"quobyte", "kubernetes.io/quobyte", NonAttachable},
	{"flocker", "kubernetes.io/flocker", Attachable},
	{"scaleIO", "kubernetes.io/scaleio", Attachable},
	{"storageos", "kubernetes.io/storageos", Attachable},
	{"photonPersistentDisk", "kubernetes.io/photon-pd", Attachable},
}

// PVPlugin returns the volume plugin or CSI driver a PersistentVolume (or an inline
// volume) uses, with the node naming it, or "" when it has no recognised source.
func PVPlugin(spec *Node) (string, *Node) {
	if d := spec.Get("csi", "driver"); d != nil {
		return d.Str(), d
	}
	for _, s := range pvSources {
		if n := spec.Get(s.key); n != nil {
			return s.plugin, n
		}
	}
	return "", nil
}

// PVClass returns a PersistentVolume's StorageClass as the PV controller reads it
// (Kubernetes' GetPersistentVolumeClass, pkg/apis/storage/v1/util/helpers.go;
// docs/storage-facts.md#f1): the beta annotation first, then spec.storageClassName. ""
// means the PV has no class; node is the field that decided, nil when neither is set.
func PVClass(pv *Resource) (string, *Node) {
	if a, ok := pv.Annotation(AnnBetaClass); ok && !a.IsNull() {
		return a.Str(), a
	}
	if n := pv.Get("spec", "storageClassName"); n != nil && !n.IsNull() {
		return n.Str(), n
	}
	return "", nil
}

func (g *Graph) pvBackend(pv *Resource) Backend {
	spec := pv.Get("spec")
	if d := spec.Get("csi", "driver"); d != nil {
		return g.provisionerBackend(d.Str(), "pv")
	}
	for _, s := range pvSources {
		if spec.Get(s.key) != nil {
			row := g.Provisioners.Classify(s.plugin)
			return Backend{Class: s.class, Provisioner: s.plugin, Row: row, Via: "pv"}
		}
	}
	return Backend{}
}

// Concurrency is C(w): how many pods of a workload can run at once.
type Concurrency struct {
	N    int  // pods at once (a representative count when Many)
	Many bool // unbounded: a DaemonSet, or CronJob runs that may overlap
	// Known is false when a deciding value is unknown (a Terraform computed value).
	Known bool
	// Why is a short phrase for messages: "replicas 3", "HorizontalPodAutoscaler web max 10".
	Why string
	// Node is the deciding field (replicas, maxReplicas, parallelism), or nil when a
	// default decided.
	Node *Node
	// Scaler is the autoscaler that raised N, if any.
	Scaler *Scaler
}

// Multi reports whether more than one pod can run at once.
func (c Concurrency) Multi() bool { return c.Known && (c.Many || c.N > 1) }

// ConcurrencyOf computes C(w) (docs/rules.md#concurrency) with the controllers' defaults
// (docs/storage-facts.md#f3, #f5).
func (g *Graph) ConcurrencyOf(w *Resource) Concurrency {
	switch w.Kind {
	case "Pod":
		return Concurrency{N: 1, Known: true, Why: "a single pod"}
	case "DaemonSet":
		if host, n := PinnedHost(w); host != "" {
			return Concurrency{N: 1, Known: true, Why: "DaemonSet pinned to " + host, Node: n}
		}
		return Concurrency{N: 2, Many: true, Known: true, Why: "one pod per node"}
	case "Job":
		return jobConcurrency(w.Get("spec"))
	case "CronJob":
		return cronJobConcurrency(w)
	}
	// Deployment, ReplicaSet, ReplicationController, StatefulSet, Rollout.
	rn := w.Get("spec", "replicas")
	c := Concurrency{N: 1, Known: true, Why: "replicas 1 (default)"}
	if rn != nil && !rn.IsNull() {
		if rn.IsUnknown() {
			return Concurrency{Why: "replicas unknown", Node: rn}
		}
		if rn.Kind == String && strings.TrimSpace(rn.Scalar) == "" {
			// Terraform's "" means unset.
		} else if v, ok := rn.Int(); ok {
			c = Concurrency{N: v, Known: true, Why: "replicas " + strconv.Itoa(v), Node: rn}
		} else {
			return Concurrency{Why: "replicas " + strconv.Quote(rn.Scalar), Node: rn}
		}
	}
	if c.N == 0 {
		return c
	}
	for _, s := range g.scalers[w] {
		if s.MaxNode.IsUnknown() {
			// An autoscaler whose maximum is decided at apply time: the workload may
			// run one pod or many, so C(w) is unknown, not its replicas.
			return Concurrency{Why: s.Resource.Kind + " " + s.Resource.Name + " max unknown", Node: s.MaxNode, Scaler: s}
		}
		if s.Max > c.N {
			c = Concurrency{N: s.Max, Known: true, Why: s.Resource.Kind + " " + s.Resource.Name + " max " + strconv.Itoa(s.Max), Node: s.MaxNode, Scaler: s}
		}
	}
	for _, s := range g.blindScalers[scalerScope{w.Namespace, w.Kind}] {
		if s.MaxNode.IsUnknown() || s.Max > c.N {
			// An autoscaler whose target is named at apply time may scale w past its
			// replicas: whether w runs one pod or many is not known statically.
			name := s.Resource.Get("spec", "scaleTargetRef", "name")
			return Concurrency{Why: s.Resource.Kind + " " + s.Resource.Name + " may target it (target name unknown)", Node: name, Scaler: s}
		}
	}
	return c
}

// cronJobConcurrency is C(w) of a CronJob: many over time unless concurrencyPolicy is
// Forbid (docs/rules.md#concurrency; Replace still overlaps while the old pods
// terminate), otherwise the concurrency of one run.
func cronJobConcurrency(w *Resource) Concurrency {
	spec := w.Get("spec")
	if s, _ := spec.Get("suspend").Bool(); s {
		return Concurrency{N: 0, Known: true, Why: "suspended", Node: spec.Get("suspend")}
	}
	run := jobConcurrency(spec.Get("jobTemplate", "spec"))
	if !run.Known || run.N == 0 {
		return run
	}
	pol := spec.Get("concurrencyPolicy")
	switch {
	case pol.IsUnknown():
		return Concurrency{Why: "concurrencyPolicy unknown", Node: pol}
	case pol.Str() == "Forbid":
		// One run at a time: the policy is what a reader needs to see, with the run's
		// own parallelism only when it is not the default single pod.
		if run.Node == nil {
			run.Why, run.Node = "concurrencyPolicy Forbid", pol
		} else {
			run.Why = "concurrencyPolicy Forbid, " + run.Why
		}
		return run
	case pol.IsNull() || pol.Str() == "":
		return Concurrency{N: max(run.N, 2), Many: true, Known: true, Why: "concurrencyPolicy Allow (default)"}
	}
	return Concurrency{N: max(run.N, 2), Many: true, Known: true, Why: "concurrencyPolicy " + pol.Str(), Node: pol}
}

func jobConcurrency(spec *Node) Concurrency {
	if s, _ := spec.Get("suspend").Bool(); s {
		return Concurrency{N: 0, Known: true, Why: "suspended", Node: spec.Get("suspend")}
	}
	pn, cn := spec.Get("parallelism"), spec.Get("completions")
	if pn.IsUnknown() || cn.IsUnknown() {
		return Concurrency{Why: "parallelism unknown"}
	}
	p := pn.IntOr(1)
	c := Concurrency{N: p, Known: true, Why: "parallelism " + strconv.Itoa(p), Node: pn}
	if pn == nil {
		c.Why = "parallelism 1 (default)"
	}
	if comp, ok := cn.Int(); ok && comp < p {
		c = Concurrency{N: comp, Known: true, Why: "completions " + strconv.Itoa(comp), Node: cn}
	}
	return c
}

// Surge is how many extra pods a rolling update starts before old ones stop.
type Surge struct {
	N     int
	Known bool
	// Why is a phrase for messages: "RollingUpdate (default), maxSurge 25% → 1".
	Why string
	// Node is the deciding field (strategy, maxSurge), or nil for defaults.
	Node *Node
}

// SurgeOf computes the effective surge of a Deployment or canary Rollout (0 for other
// kinds, Recreate and blue-green): maxSurge, default 25%, rounded up over the desired
// replicas (Kubernetes' ResolveFenceposts,
// pkg/controller/deployment/util/deployment_util.go; docs/storage-facts.md#f3).
// extensions/v1beta1 Deployments default to 1.
func (g *Graph) SurgeOf(w *Resource) Surge {
	var strat *Node
	def := "25%"
	switch w.Kind {
	case "Deployment":
		strat = w.Get("spec", "strategy")
		if t := strat.Get("type"); t != nil && t.Str() != "RollingUpdate" {
			if t.IsUnknown() {
				return Surge{Why: "strategy unknown", Node: t}
			}
			return Surge{Known: true, Why: "strategy " + t.Str(), Node: t}
		}
		if w.APIVersion == "extensions/v1beta1" {
			def = "1"
		}
		strat = strat.Get("rollingUpdate")
	case "Rollout":
		if w.Get("spec", "strategy", "canary") == nil {
			return Surge{Known: true, Why: "not a canary rollout"}
		}
		strat = w.Get("spec", "strategy", "canary")
		def = "25%"
	default:
		return Surge{Known: true, Why: w.Kind + " does not surge"}
	}
	replicas := 1
	if rn := w.Get("spec", "replicas"); rn != nil && !rn.IsNull() && strings.TrimSpace(rn.Scalar) != "" {
		v, ok := rn.Int()
		if !ok {
			return Surge{Why: "replicas unknown", Node: rn}
		}
		replicas = v
	}
	if replicas == 0 {
		return Surge{Known: true, Why: "replicas 0"}
	}
	ms := strat.Get("maxSurge")
	val, why := def, "maxSurge "+def+" (default)"
	if ms != nil && !ms.IsNull() {
		if ms.IsUnknown() {
			return Surge{Why: "maxSurge unknown", Node: ms}
		}
		val, why = ms.Str(), "maxSurge "+ms.Str()
	}
	n, ok := ScaledValue(val, replicas, true)
	if !ok {
		return Surge{Why: "maxSurge " + strconv.Quote(val), Node: ms}
	}
	node := ms
	if node == nil {
		node = w.Get("spec", "strategy")
	}
	if w.Kind == "Deployment" && w.Get("spec", "strategy", "type") == nil {
		why = "RollingUpdate (default), " + why
	}
	return Surge{N: n, Known: true, Why: why + " → " + strconv.Itoa(n), Node: node}
}

// ScaledValue resolves an int-or-percent against total, rounding up or down. Argo
// Rollouts writes percentages without the sign only in defaults, so plain numbers are
// absolute.
func ScaledValue(v string, total int, roundUp bool) (int, bool) {
	v = strings.TrimSpace(v)
	if before, ok := strings.CutSuffix(v, "%"); ok {
		p, err := strconv.Atoi(before)
		if err != nil || p < 0 {
			return 0, false
		}
		f := float64(p) * float64(total) / 100
		if roundUp {
			return int(math.Ceil(f)), true
		}
		return int(math.Floor(f)), true
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, false
	}
	return n, true
}

// HostnameLabel is the node label that names exactly one node.
const HostnameLabel = "kubernetes.io/hostname"

// PinnedHost reports the single node a workload's pods are pinned to (nodeName, a
// nodeSelector on kubernetes.io/hostname, or a required node affinity whose every term
// selects one hostname), with the deciding node; "" when not pinned.
func PinnedHost(w *Resource) (string, *Node) {
	spec := PodSpec(w)
	if n := spec.Get("nodeName"); n.Str() != "" {
		return n.Str(), n
	}
	if n := spec.Get("nodeSelector", HostnameLabel); n.Str() != "" {
		return n.Str(), n
	}
	terms := spec.Get("affinity", "nodeAffinity", "requiredDuringSchedulingIgnoredDuringExecution", "nodeSelectorTerms").List()
	host := ""
	var at *Node
	for _, t := range terms {
		found := ""
		for _, e := range t.Get("matchExpressions").List() {
			if e.Get("key").Str() == HostnameLabel && e.Get("operator").Str() == "In" {
				if vals := e.Get("values").Strings(); len(vals) == 1 {
					found, at = vals[0], e
				}
			}
		}
		if found == "" || (host != "" && found != host) {
			return "", nil
		}
		host = found
	}
	return host, at
}
