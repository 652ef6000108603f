package graph

// Facts about claims: storage annotations, access modes, the StorageClass and
// pre-bound PV a claim resolves to.

import (
	"slices"
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
		if c.Resource != nil {
			if sc := g.referenced(c.Resource, n, "StorageClass"); sc != nil {
				return ClassRef{Name: RefName(sc), Node: n, Via: "spec", Class: sc, Known: true}
			}
		}
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
