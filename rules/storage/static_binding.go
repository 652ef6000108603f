package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// StaticBindingMismatch (PVL014) reports claims and PersistentVolumes meant for each
// other that do not fit, as the PV controller would judge them: a claim naming a PV
// (spec.volumeName) or a PV reserving a claim (spec.claimRef) whose class, access modes,
// volume mode or size disagree, a PV reserved for another claim, a beta class
// annotation that overrides spec.storageClassName, and Terraform's storage_class_name
// = "" that the provider drops. The level follows what the controller does: error when
// the pair does not bind (or binds to a volume that cannot serve the claim), warning
// when only the recorded class is wrong.
var StaticBindingMismatch = &lint.Rule{
	ID:       "PVL014",
	Name:     "static-binding-mismatch",
	Severity: lint.Error,
	Summary:  "a pre-bound claim and PersistentVolume do not match",
	Description: "A PersistentVolumeClaim names a PersistentVolume in spec.volumeName, or a PersistentVolume " +
		"reserves a claim in spec.claimRef, but the two disagree: the claim's StorageClass (a claim without " +
		"storageClassName gets the default class at admission, so it no longer matches a class-less PV), its " +
		"access modes (the PV must offer every one), its volumeMode, or its requested size (the PV must be at " +
		"least as large); or the PV is reserved for another claim. The claim stays Pending with \"Cannot bind to " +
		"requested volume\", or is provisioned a new, empty volume while the PV with the data stays unused. " +
		"Also reported: a volume.beta.kubernetes.io/storage-class annotation that overrides spec.storageClassName " +
		"(warning), and Terraform's storage_class_name = \"\", which the provider drops so the claim gets the " +
		"default class (error when static binding is intended, warning otherwise).",
	Remediation: "Give the claim and the PV the same storageClassName (\"\" on both for class-less static " +
		"binding, as the Kubernetes pre-binding example does), access modes the PV offers, the same volumeMode " +
		"and a request no larger than the PV; point claimRef at the claim (name and namespace). In Terraform, " +
		"give the PV and the claim the same non-empty class name, or write the claim as a kubernetes_manifest.",
	Tags:  []string{"binding", "storage-class", "terraform"},
	Kinds: []string{"PersistentVolumeClaim", "PersistentVolume", "StatefulSet"},
	Check: checkStaticBinding,
}

func checkStaticBinding(p *lint.Pass) {
	g := p.Graph
	for _, r := range g.Resources {
		switch r.Kind {
		case "PersistentVolumeClaim":
			checkClassAnnotation(p, r, "PVC", r.Get("spec", "storageClassName"))
			checkEmptyClassName(p, r)
			if pv := pvNamed(g, r); pv != nil {
				checkPair(p, pair{claim: r, pv: pv, byName: true, reserved: reserves(pv, r)})
			}
		case "PersistentVolume":
			checkClassAnnotation(p, r, "PV", r.Get("spec", "storageClassName"))
			if c := reservedClaim(g, r); c != nil && c.Get("spec", "volumeName").Str() == "" {
				checkPair(p, pair{claim: c, pv: r, reserved: true})
			}
		case "StatefulSet":
			checkEmptyClassName(p, r)
		}
	}
}

// pair is a claim and a PV meant for each other: the claim names the PV (byName), the
// PV's claimRef reserves the claim (reserved), or both.
type pair struct {
	claim, pv        *graph.Resource
	byName, reserved bool
}

// pvNamed is the PV a claim names in spec.volumeName, when it is in the linted set
// (the one in the claim's own file when a name is defined twice).
func pvNamed(g *graph.Graph, c *graph.Resource) *graph.Resource {
	if n := c.Get("spec", "volumeName"); n.Str() != "" {
		return g.LookupNear("PersistentVolume", "", n.Str(), n.Range.File)
	}
	return nil
}

// reserves reports whether pv's claimRef names the claim, as the PV controller compares
// them (IsVolumeBoundToClaim): name and namespace exactly, so a claimRef without a
// namespace reserves no claim.
func reserves(pv, c *graph.Resource) bool {
	ref := pv.Get("spec", "claimRef")
	return ref != nil && ref.Get("name").Str() == c.Name && ref.Get("namespace").Str() == c.Namespace
}

// reservedClaim is the claim a PV's claimRef names, when it is in the linted set.
func reservedClaim(g *graph.Graph, pv *graph.Resource) *graph.Resource {
	ref := pv.Get("spec", "claimRef")
	if ref == nil || ref.Get("name").Str() == "" || ref.Get("namespace").Str() == "" {
		return nil
	}
	return g.LookupNear("PersistentVolumeClaim", ref.Get("namespace").Str(), ref.Get("name").Str(), ref.Range.File)
}

// checkPair applies the PV controller's checks (checkVolumeSatisfyClaim) to a pair.
func checkPair(p *lint.Pass, pr pair) {
	c, pv := pr.claim, pr.pv
	if ref := pv.Get("spec", "claimRef"); pr.byName && ref != nil && !pr.reserved {
		who := "PVC " + ref.Get("namespace").Str() + "/" + ref.Get("name").Str()
		if ref.Get("namespace").Str() == "" {
			who = "a claimRef without a namespace, which matches no claim"
		}
		msg := "PVC " + c.Name + " names PV " + pv.Name + " in volumeName, but the PV is reserved for " + who +
			`: the claim stays Pending with "volume \"` + pv.Name + `\" already bound to a different claim."`
		p.Report(c, c.Locate("spec", "volumeName"), lint.Error, msg, lint.Related{Range: pv.Locate("spec", "claimRef"), Message: "PV " + pv.Name + ": claimRef"})
		return
	}
	checkPairClass(p, pr)
	cm, pm := c.Get("spec", "accessModes").Strings(), pv.Get("spec", "accessModes").Strings()
	if missing := without(cm, pm); len(cm) > 0 && len(pm) > 0 && len(missing) > 0 {
		reportPair(p, pr, "accessModes", "incompatible accessMode",
			"asks for "+strings.Join(missing, ", ")+", which PV "+pv.Name+" ("+strings.Join(pm, ", ")+") does not offer")
	}
	if cv, pvm := orDefault(c.Get("spec", "volumeMode").Str(), "Filesystem"), orDefault(pv.Get("spec", "volumeMode").Str(), "Filesystem"); cv != pvm {
		reportPair(p, pr, "volumeMode", "incompatible volumeMode", "has volumeMode "+cv+", PV "+pv.Name+" has "+pvm)
	}
	req, capacity := c.Get("spec", "resources", "requests", "storage").Str(), pv.Get("spec", "capacity", "storage").Str()
	rq, ok1 := graph.ParseQuantity(req)
	cq, ok2 := graph.ParseQuantity(capacity)
	if ok1 && ok2 && cq.Cmp(rq) < 0 {
		reportPair(p, pr, "resources.requests.storage", "requested PV is too small",
			"requests "+req+", more than PV "+pv.Name+" holds ("+capacity+")")
	}
}

// checkPairClass compares the claim's class, as admission leaves it, with the PV's.
func checkPairClass(p *lint.Pass, pr pair) {
	g, c, pv := p.Graph, pr.claim, pr.pv
	pvClass, _ := graph.PVClass(pv)
	ref := g.ClassOf(&graph.Claim{Name: c.Name, Namespace: c.Namespace, Resource: c, Object: c.Object})
	set := ref.Via == "annotation" || ref.Via == "spec"
	switch {
	case !set && pvClass == "":
		if c.Facts[graph.FactEmptyClassName] != nil {
			return // checkEmptyClassName says why the class is missing
		}
		what := "the cluster's default StorageClass, if it has one (most do),"
		if ref.Known {
			what = "the default StorageClass (" + ref.Name + " in the linted set)"
		}
		consequence := `so it stays Pending with "Cannot bind to requested volume \"` + pv.Name + `\": storageClassName does not match"`
		sev := lint.Error
		if pr.reserved {
			consequence, sev = "and binds only because the PV's claimRef skips the check, recording a class its volume does not have", lint.Warning
		}
		at := c.Locate("spec", "volumeName")
		if !pr.byName {
			at = pv.Locate("spec", "claimRef")
		}
		msg := "PVC " + c.Name + " is pre-bound to PV " + pv.Name + ", which has no class, but sets no storageClassName: admission gives it " +
			what + " " + consequence + "; " + emptyClassAdvice(c)
		p.ReportFix(emptyClassFix(c), pairResource(pr), at, nil, sev, msg, pairLinks(pr, "storageClassName")...)
	case !set && !ref.Known:
		// The default class is not in the linted set: its name is unknown.
	case ref.Name != pvClass:
		claimClass := quoteEmpty(ref.Name)
		if !set {
			claimClass += " (the default class)"
		}
		reportPair(p, pr, "storageClassName", "storageClassName does not match",
			"has class "+claimClass+", PV "+pv.Name+" has "+quoteEmpty(pvClass))
	}
}

// reportPair reports one disagreement of a pair on the claim (when it names the PV) or
// on the PV (when only its claimRef ties them), with the controller's reason.
func reportPair(p *lint.Pass, pr pair, field, reason, what string) {
	c, pv := pr.claim, pr.pv
	path := append([]string{"spec"}, strings.Split(field, ".")...)
	var msg string
	sev := lint.Error
	switch {
	case pr.byName && !pr.reserved:
		msg = "PVC " + c.Name + " names PV " + pv.Name + " in volumeName but " + what +
			`: the claim stays Pending with "Cannot bind to requested volume \"` + pv.Name + `\": ` + reason + `"`
	case pr.byName:
		msg = "PVC " + c.Name + " and PV " + pv.Name + " are pre-bound to each other, but the claim " + what +
			": the PV's claimRef makes Kubernetes bind them without checking, so the claim gets a volume that does not fit it"
	default:
		msg = "PV " + pv.Name + " reserves PVC " + c.Name + " in claimRef, but the claim " + what +
			": Kubernetes does not give the claim this PV; it is provisioned a new, empty volume or stays Pending, and the PV is never used"
	}
	if field == "storageClassName" && pr.reserved {
		sev = lint.Warning
		msg = "PVC " + c.Name + " and PV " + pv.Name + " are tied by the PV's claimRef, but the claim " + what +
			": they bind without the class check, so the claim records a class its volume does not have"
	}
	if pr.byName {
		at := c.Locate(path...)
		if c.Get(path...) == nil {
			at = c.Locate("spec", "volumeName") // the field is missing: report at the tie
		}
		p.ReportPath(c, at, path, sev, msg, pairLinks(pr, field)...)
		return
	}
	p.ReportPath(pv, pv.Locate("spec", "claimRef"), path, sev, msg, pairLinks(pr, field)...)
}

// pairResource is the side of a pair a finding is reported on.
func pairResource(pr pair) *graph.Resource {
	if pr.byName {
		return pr.claim
	}
	return pr.pv
}

// pairLinks are the related locations of a pair: the other side's field, and the PV's
// claimRef when it is why the pair binds without checks.
func pairLinks(pr pair, field string) []lint.Related {
	claimPath := append([]string{"spec"}, strings.Split(field, ".")...)
	pvPath := claimPath
	if field == "resources.requests.storage" {
		pvPath = []string{"spec", "capacity", "storage"}
	}
	if !pr.byName {
		return []lint.Related{{Range: pr.claim.Locate(claimPath...), Message: "PVC " + pr.claim.Name + ": " + fieldText(pr.claim, claimPath)}}
	}
	at, text := pr.pv.Locate(pvPath...), fieldText(pr.pv, pvPath)
	if field == "storageClassName" {
		if class, n := graph.PVClass(pr.pv); n != nil {
			at, text = n.Range, "class "+quoteEmpty(class)
		}
	}
	out := []lint.Related{{Range: at, Message: "PV " + pr.pv.Name + ": " + text}}
	if pr.reserved {
		out = append(out, lint.Related{Range: pr.pv.Locate("spec", "claimRef"), Message: "PV " + pr.pv.Name + ": claimRef " + pr.claim.Namespace + "/" + pr.claim.Name})
	}
	return out
}

// fieldText renders a field and its value for a related location: "accessModes
// ReadWriteOnce", "volumeMode unset".
func fieldText(r *graph.Resource, path []string) string {
	n := r.Get(path...)
	v := n.Str()
	if l := n.Strings(); len(l) > 0 {
		v = strings.Join(l, ", ")
	}
	if n == nil || n.IsNull() {
		v = "unset"
	}
	return strings.Join(path[1:], ".") + " " + quoteEmpty(v)
}

// checkClassAnnotation reports a volume.beta.kubernetes.io/storage-class annotation
// that disagrees with spec.storageClassName: the annotation wins (Kubernetes'
// GetPersistentVolumeClaimClass reads it first; docs/storage-facts.md#f1).
func checkClassAnnotation(p *lint.Pass, r *graph.Resource, kind string, spec *graph.Node) {
	a, ok := r.Annotation(graph.AnnBetaClass)
	if !ok || spec == nil || spec.IsNull() || a.IsUnknown() || spec.IsUnknown() || a.Str() == spec.Str() {
		return
	}
	msg := kind + " " + r.Name + " has annotation " + graph.AnnBetaClass + ": " + quoteEmpty(a.Str()) +
		" and storageClassName: " + quoteEmpty(spec.Str()) + ": the annotation wins, so the class is " + quoteEmpty(a.Str())
	p.ReportPath(r, a.Range, []string{"metadata", "annotations", graph.AnnBetaClass}, lint.Warning, msg,
		lint.Related{Range: r.Locate("spec", "storageClassName"), Message: kind + " " + r.Name + ": storageClassName " + quoteEmpty(spec.Str())})
}

// checkEmptyClassName reports Terraform's storage_class_name = "" on a claim or a
// StatefulSet claim template: the provider sends it as unset, so the claim gets the
// default class (docs/storage-facts.md#f8). Static binding intended (volume_name set,
// or a class-less PV in the set) makes it an error.
func checkEmptyClassName(p *lint.Pass, r *graph.Resource) {
	n := r.Facts[graph.FactEmptyClassName]
	if n == nil {
		return
	}
	g := p.Graph
	sev, why := lint.Warning, "it gets the default StorageClass instead of no class"
	if pv := pvNamed(g, r); pv != nil {
		sev, why = lint.Error, `it gets the default StorageClass and never binds to PV `+pv.Name+` (volume_name), which has no class: "Cannot bind to requested volume \"`+pv.Name+`\": storageClassName does not match"`
	} else if name := r.Get("spec", "volumeName").Str(); name != "" {
		sev, why = lint.Error, "it gets the default StorageClass, so it binds PV "+name+" (volume_name) only if that PV has the default class"
	} else if pv := classlessPV(g); pv != nil {
		sev, why = lint.Error, "it gets the default StorageClass and never binds to a class-less PV such as "+pv.Name
	}
	what := "PVC " + r.Name
	if r.Kind != "PersistentVolumeClaim" {
		what = r.Kind + " " + r.Name + " (volume_claim_template)"
	}
	msg := what + ` sets storage_class_name = "", which the Terraform provider drops as unset: ` + why
	p.ReportPath(r, n.Range, []string{"spec", "storageClassName"}, sev, msg)
}

// classlessPV is the first PersistentVolume of the set that has no class, or nil.
func classlessPV(g *graph.Graph) *graph.Resource {
	for _, pv := range g.ByKind("PersistentVolume") {
		if c, _ := graph.PVClass(pv); c == "" {
			return pv
		}
	}
	return nil
}

// without returns the elements of a missing from b.
func without(a, b []string) []string {
	var out []string
	for _, x := range a {
		found := false
		for _, y := range b {
			found = found || x == y
		}
		if !found {
			out = append(out, x)
		}
	}
	return out
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}

// emptyClassAdvice is the fix for a pre-bound claim that needs the empty class. The
// Terraform provider drops storage_class_name = "" (docs/storage-facts.md#f8), so
// there the fix is a class name shared by the PV and the claim, or a
// kubernetes_manifest claim.
func emptyClassAdvice(c *graph.Resource) string {
	if f := c.Origin.Format; f == graph.FormatTerraform || f == graph.FormatPlan {
		return `Terraform cannot send storage_class_name = "": give the PV and the claim the same non-empty storage_class_name, or declare the claim with kubernetes_manifest`
	}
	return `set storageClassName: ""`
}

// emptyClassFix adds storageClassName: "" to a pre-bound claim whose PV has no class.
// Terraform's provider drops an empty storage_class_name (docs/storage-facts.md#f8), so a
// Terraform claim gets no automatic fix: it needs the PV given a class instead.
func emptyClassFix(c *graph.Resource) *lint.Fix {
	if c.Origin.Format == graph.FormatTerraform || c.Origin.Format == graph.FormatPlan {
		return nil
	}
	return &lint.Fix{Description: `Set storageClassName: "" on the claim, so admission gives it no default class and it binds to its class-less PV`,
		Edits: lint.Put(c.Get("spec"), "storageClassName", lint.String(""))}
}
