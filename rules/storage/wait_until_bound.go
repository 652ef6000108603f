package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// WaitUntilBound (PVL016) reports Terraform claims that wait to be bound on a
// WaitForFirstConsumer class. The provider's wait_until_bound defaults to true: apply
// blocks on the claim until it is Bound, but such a class binds a claim only once a
// pod uses it, and the pod is created after the claim — so apply hangs until the
// create timeout (docs/storage-facts.md#f8, terraform-provider-kubernetes #1986).
//
// It reads graph.FactWaitUntilBound, which only claims of the
// kubernetes_persistent_volume_claim resources carry (the attribute, or the default
// true at the resource block): YAML and kubernetes_manifest claims never wait.
var WaitUntilBound = &lint.Rule{
	ID:       "PVL016",
	Name:     "tf-wait-until-bound",
	Severity: lint.Error,
	Summary:  "terraform apply waits for a claim that binds only when a pod uses it",
	Description: "A Terraform kubernetes_persistent_volume_claim (or _v1) leaves wait_until_bound unset or " +
		"true, so terraform apply waits until the claim is Bound before it creates anything that depends on " +
		"it. Its StorageClass has volumeBindingMode WaitForFirstConsumer: the claim binds only when a pod " +
		"that uses it is scheduled, and that pod is created after the claim. Apply hangs until the claim's " +
		"create timeout (5 minutes) and fails. Terraform creates resources in parallel unless one refers to " +
		"another, so this happens only when a workload that mounts the claim depends on it (a reference to " +
		"the claim, directly or through locals and modules, or depends_on), or when no workload of the " +
		"configuration mounts it; a workload that names the claim by a literal string is created alongside " +
		"it, and its pod binds it. Error when the class is known to be WaitForFirstConsumer; " +
		"note when the class (often the cluster's default, WaitForFirstConsumer on most managed clusters) is " +
		"not in the linted files.",
	Remediation: "Set wait_until_bound = false on the claim; the pod that mounts it binds it when scheduled.",
	Tags:        []string{"terraform", "binding", "storage-class"},
	Kinds:       []string{"PersistentVolumeClaim"},
	Check:       checkWaitUntilBound,
}

func checkWaitUntilBound(p *lint.Pass) {
	g := p.Graph
	for _, r := range g.ByKind("PersistentVolumeClaim") {
		wait := r.Facts[graph.FactWaitUntilBound]
		if on, ok := wait.Bool(); !ok || !on {
			continue
		}
		if v := r.Get("spec", "volumeName"); v.Str() != "" || v.IsUnknown() {
			// A pre-bound claim binds to its volume at once, whatever the class says.
			continue
		}
		why, hangs := whyWaitHangs(g, r)
		if !hangs {
			continue
		}
		c := &graph.Claim{Name: r.Name, Namespace: r.Namespace, Resource: r, Object: r.Object}
		ref := g.ClassOf(c)
		waits := "PVC " + graph.RefName(r) + " waits until it is bound (wait_until_bound " + waitText(wait, r) + ")"
		switch {
		case ref.Class != nil:
			mode := ref.Class.Get("volumeBindingMode")
			if mode.Str() != "WaitForFirstConsumer" {
				continue
			}
			msg := waits + " on " + classText(ref) + " (volumeBindingMode WaitForFirstConsumer): " +
				"the claim binds only when a pod uses it, so terraform apply hangs until the claim's create timeout" + why
			p.ReportFix(noWaitFix(wait, r), r, wait.Range, nil, lint.SeverityNone, msg,
				lint.Related{Range: ref.Class.Locate("volumeBindingMode"), Message: "StorageClass " + ref.Name + ": volumeBindingMode WaitForFirstConsumer"})
		case ref.Known && ref.Name == "":
			// storageClassName "": no dynamic provisioning, nothing to wait for a pod.
		default:
			msg := waits + " on " + unknownClassText(ref) + classHint(ref) + ": if that class is WaitForFirstConsumer, " +
				"as default classes of managed clusters usually are, terraform apply hangs until the claim's create timeout" + why
			var related []lint.Related
			if ref.Node != nil {
				related = append(related, lint.Related{Range: ref.Node.Range, Message: "PVC " + r.Name + ": " + unknownClassText(ref)})
			}
			p.ReportFix(noWaitFix(wait, r), r, wait.Range, nil, lint.Note, msg, related...)
		}
	}
}

// whyWaitHangs decides whether a waiting claim hangs the apply, and says why.
// Terraform creates resources in parallel unless one refers to the other: a workload
// of the configuration that mounts the claim without depending on it is created
// while the claim waits, and its pod binds it. The apply hangs when a workload that
// mounts it depends on it (it is created only once the claim is bound), or when no
// workload of the configuration mounts it (nothing the apply creates binds it). For a
// plan, which records no references, a workload that mounts the claim may depend on
// it: the claim is reported, as before references were read.
func whyWaitHangs(g *graph.Graph, claim *graph.Resource) (string, bool) {
	var mounts []*graph.Mount
	for _, m := range g.Consumers(claim) {
		w := m.Workload
		if w.Origin.Format == claim.Origin.Format && w.Origin.Root == claim.Origin.Root {
			mounts = append(mounts, m)
		}
	}
	if len(mounts) == 0 {
		return " — no workload of this Terraform configuration mounts the claim, so nothing the apply creates binds it", true
	}
	if claim.Origin.Format != graph.FormatTerraform {
		return "", true
	}
	for _, m := range mounts {
		if via := dependsOnClaim(g, m.Workload, claim); via != "" {
			return " — " + m.Workload.Kind + " " + m.Workload.Name + " mounts it and depends on it (" + via +
				"), so Terraform creates it only after the claim is bound", true
		}
	}
	return "", false
}

// dependsOnClaim reports whether Terraform creates w only after claim: an address w
// depends on names the claim (its block, its instance or a module call holding it),
// directly or through other resources of the root module. It returns the address of
// w's own dependency that leads there, or "".
func dependsOnClaim(g *graph.Graph, w, claim *graph.Resource) string {
	var index map[string][]*graph.Resource // lazily: the root module's resources by address
	covers := func(dep, addr string) bool {
		return addr == dep || strings.HasPrefix(addr, dep+"[") || strings.HasPrefix(addr, dep+".")
	}
	seen := map[string]bool{}
	for _, first := range w.DependsOn() {
		queue := []string{first}
		for len(queue) > 0 && len(seen) < 10000 {
			dep := queue[0]
			queue = queue[1:]
			if seen[dep] {
				continue
			}
			seen[dep] = true
			if covers(dep, claim.Origin.Address) {
				return first
			}
			if index == nil {
				index = map[string][]*graph.Resource{}
				for _, r := range g.Resources {
					if r.Origin.Format == graph.FormatTerraform && r.Origin.Root == claim.Origin.Root && r.Origin.Address != "" {
						index[r.Origin.Address] = append(index[r.Origin.Address], r)
					}
				}
			}
			for addr, rs := range index {
				if covers(dep, addr) {
					for _, r := range rs {
						queue = append(queue, r.DependsOn()...)
					}
				}
			}
		}
	}
	return ""
}

// noWaitFix sets wait_until_bound = false: the attribute when it is written, or a new
// one in the resource block when the default applies. It is safe whatever the class:
// the pod that mounts the claim binds it when it is scheduled.
func noWaitFix(wait *graph.Node, r *graph.Resource) *lint.Fix {
	var edits []lint.Edit
	switch {
	case waitText(wait, r) != "true":
		edits = []lint.Edit{lint.Insert(r.Object, "wait_until_bound", lint.Bool(false))}
	case wait.Is(graph.Bool) || wait.Is(graph.String):
		edits = []lint.Edit{lint.Set(wait, lint.Bool(false))}
	}
	return &lint.Fix{Description: "Set wait_until_bound = false, so terraform apply goes on to create the pod that binds the claim", Edits: edits}
}

// waitText says whether wait_until_bound was written or defaulted: the default sits
// where the resource block starts, an attribute at its own value.
func waitText(wait *graph.Node, r *graph.Resource) string {
	if wait.Range.Start == r.Range.Start {
		return "unset, defaults to true"
	}
	return "true"
}

func classText(ref graph.ClassRef) string {
	if ref.Via == "default" {
		return "the default StorageClass " + ref.Name
	}
	return "StorageClass " + ref.Name
}

func unknownClassText(ref graph.ClassRef) string {
	switch {
	case ref.Known:
		return "StorageClass " + ref.Name + ", which is not in the linted set"
	case ref.Node != nil:
		return "a StorageClass not known statically"
	}
	return "the cluster's default StorageClass, which is not in the linted set"
}
