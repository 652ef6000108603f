package graph

import "slices"

// Workload kinds whose pod templates can mount claims (the "consumers" of
// docs/rules.md#consumer).
var workloadKinds = map[string]bool{
	"Pod": true, "Deployment": true, "ReplicaSet": true, "ReplicationController": true,
	"StatefulSet": true, "DaemonSet": true, "Job": true, "CronJob": true, "Rollout": true,
}

// IsWorkload reports whether kind runs pods from a template that may mount claims.
func IsWorkload(kind string) bool { return workloadKinds[kind] }

// WorkloadKinds are the kinds IsWorkload accepts, sorted: the Kinds of a rule that
// reads every workload (a rule that lists them by hand tends to forget one).
func WorkloadKinds() []string {
	kinds := make([]string, 0, len(workloadKinds))
	for k := range workloadKinds {
		kinds = append(kinds, k)
	}
	slices.Sort(kinds)
	return kinds
}

// Claim is a PersistentVolumeClaim as a workload sees it: either a claim resource that
// pods share, or a per-pod template (StatefulSet volumeClaimTemplates, generic
// ephemeral volumes) that is never shared.
type Claim struct {
	Name      string
	Namespace string
	// Resource is the PersistentVolumeClaim object, nil for per-pod templates and for
	// claims not in the linted set.
	Resource *Resource
	// Object is the claim's object tree (metadata, spec): the resource's object or the
	// template's node. Nil when the claim is not in the set.
	Object *Node
	// PerPod marks volumeClaimTemplates and ephemeral claims: one claim per pod.
	PerPod bool
}

// Known reports whether the claim's definition is in the linted set.
func (c *Claim) Known() bool { return c != nil && c.Object != nil }

// Spec returns the claim's spec node.
func (c *Claim) Spec() *Node {
	if c == nil {
		return nil
	}
	return c.Object.Get("spec")
}

// Mount is one volume of a workload's pod template that refers to a claim.
type Mount struct {
	Workload *Resource
	// Volume is the pod template's volumes[] entry, or the volumeClaimTemplates entry.
	Volume *Node
	// VolumeName is the volume's name in the pod template.
	VolumeName string
	// Claim is what the volume refers to.
	Claim *Claim
	// ReadOnly is persistentVolumeClaim.readOnly. It does not avoid Multi-Attach.
	ReadOnly bool
	// Shadowed marks a template volume whose name is also a StatefulSet claim
	// template: the template takes precedence, so the volume is per-pod.
	Shadowed bool
}

// Shared reports whether every pod of the workload mounts the same claim.
func (m *Mount) Shared() bool { return !m.Claim.PerPod && !m.Shadowed }

// Scaler is an autoscaler targeting a workload.
type Scaler struct {
	Resource *Resource
	// Max is maxReplicas (HPA) or maxReplicaCount (KEDA, default 100).
	Max int
	// MaxNode is the node that set Max, or nil when it is KEDA's default.
	MaxNode *Node
}

// PodTemplate returns the pod template object (with metadata and spec) of a workload,
// or for a Pod the Pod object itself.
func PodTemplate(w *Resource) *Node {
	switch w.Kind {
	case "Pod":
		return w.Object
	case "CronJob":
		return w.Get("spec", "jobTemplate", "spec", "template")
	default:
		return w.Get("spec", "template")
	}
}

// PodSpec returns the pod spec of a workload's template.
func PodSpec(w *Resource) *Node { return PodTemplate(w).Get("spec") }

// PodSpecPath is the field path of PodSpec within the workload's object.
func PodSpecPath(kind string) []string {
	switch kind {
	case "Pod":
		return []string{"spec"}
	case "CronJob":
		return []string{"spec", "jobTemplate", "spec", "template", "spec"}
	default:
		return []string{"spec", "template", "spec"}
	}
}

func (g *Graph) linkWorkload(w *Resource) {
	spec := PodSpec(w)
	if w.Kind == "Rollout" && spec == nil {
		if ref := w.Get("spec", "workloadRef"); ref != nil {
			if d := g.LookupNear(orDefault(ref.Get("kind").Str(), "Deployment"), w.Namespace, ref.Get("name").Str(), w.Range.File); d != nil {
				g.workloadRef[w] = d
				spec = PodSpec(d)
			}
		}
	}
	templates := map[string]*Node{}
	var tmplOrder []string
	if w.Kind == "StatefulSet" {
		for _, t := range w.Get("spec", "volumeClaimTemplates").List() {
			name := t.Get("metadata", "name").Str()
			if name == "" {
				continue
			}
			if _, dup := templates[name]; !dup {
				tmplOrder = append(tmplOrder, name)
			}
			templates[name] = t
		}
	}
	for _, v := range spec.Get("volumes").List() {
		name := v.Get("name").Str()
		if pvc := v.Get("persistentVolumeClaim"); pvc != nil {
			claimName := pvc.Get("claimName").Str()
			m := &Mount{Workload: w, Volume: v, VolumeName: name}
			ro, _ := pvc.Get("readOnly").Bool()
			m.ReadOnly = ro
			if t, ok := templates[name]; ok {
				delete(templates, name)
				m.Shadowed = true
				m.Claim = &Claim{Name: name, Namespace: w.Namespace, Object: t, PerPod: true}
			} else {
				m.Claim = g.claim(claimName, w.Namespace, w.Range.File)
			}
			g.mounts[w] = append(g.mounts[w], m)
			if m.Claim.Resource != nil && m.Shared() {
				g.consumers[m.Claim.Resource] = append(g.consumers[m.Claim.Resource], m)
			}
			continue
		}
		if t := v.Get("ephemeral", "volumeClaimTemplate"); t != nil {
			m := &Mount{Workload: w, Volume: v, VolumeName: name,
				Claim: &Claim{Name: name, Namespace: w.Namespace, Object: t, PerPod: true}}
			g.mounts[w] = append(g.mounts[w], m)
		}
	}
	for _, name := range tmplOrder {
		t, ok := templates[name]
		if !ok {
			continue // mounted above as a shadowed template volume
		}
		m := &Mount{Workload: w, Volume: t, VolumeName: name,
			Claim: &Claim{Name: name, Namespace: w.Namespace, Object: t, PerPod: true}}
		g.mounts[w] = append(g.mounts[w], m)
	}
}

func (g *Graph) claim(name, namespace, file string) *Claim {
	c := &Claim{Name: name, Namespace: namespace}
	if r := g.LookupNear("PersistentVolumeClaim", namespace, name, file); r != nil {
		c.Resource = r
		c.Object = r.Object
	}
	return c
}

func (g *Graph) linkScaler(r *Resource) {
	var ref *Node
	var s Scaler
	switch {
	case r.Kind == "HorizontalPodAutoscaler":
		ref = r.Get("spec", "scaleTargetRef")
		s.MaxNode = r.Get("spec", "maxReplicas")
		s.Max = s.MaxNode.IntOr(0)
	case r.Kind == "ScaledObject" && r.Group() == "keda.sh":
		ref = r.Get("spec", "scaleTargetRef")
		s.MaxNode = r.Get("spec", "maxReplicaCount")
		s.Max = s.MaxNode.IntOr(100)
		if s.MaxNode.IsNull() {
			s.MaxNode = nil
			s.Max = 100
		}
	default:
		return
	}
	if ref == nil {
		return
	}
	kind := orDefault(ref.Get("kind").Str(), "Deployment")
	if name := ref.Get("name"); name.IsUnknown() {
		// A target named at apply time may be any workload of its kind in the
		// namespace: ConcurrencyOf leaves their C(w) unknown rather than guess.
		s.Resource = r
		k := scalerScope{r.Namespace, kind}
		g.blindScalers[k] = append(g.blindScalers[k], &s)
		return
	}
	if ref.Get("name").Str() == "" {
		return
	}
	target := g.LookupNear(kind, r.Namespace, ref.Get("name").Str(), r.Range.File)
	if target == nil {
		return
	}
	if av := ref.Get("apiVersion").Str(); av != "" && APIGroup(av) != target.Group() {
		return
	}
	s.Resource = r
	g.scalers[target] = append(g.scalers[target], &s)
}

// scalerScope is where an autoscaler with an unknown target name may point: every
// workload of one kind in one namespace.
type scalerScope struct{ namespace, kind string }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}
