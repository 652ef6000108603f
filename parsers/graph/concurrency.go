package graph

// How many pods of a workload run at once: replicas, autoscalers, Job and
// CronJob overlap, rolling-update surge, pinning to one node.

import (
	"math"
	"strconv"
	"strings"
)

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
