package graph

import (
	"strconv"
	"strings"
)

// Format names the kind of input a resource came from. Rules never branch on it except
// for format-only hazards (Terraform provider defaults); outputs show it to users.
type Format string

// The input formats pvlint reads.
const (
	FormatYAML      Format = "yaml"
	FormatHelm      Format = "helm"
	FormatKustomize Format = "kustomize"
	FormatTerraform Format = "terraform"
	FormatPlan      Format = "terraform-plan"
	// FormatProfile is a StorageClass of a platform profile (platforms.go): built
	// in, from no file.
	FormatProfile Format = "cluster-profile"
)

// Origin says where a resource was defined, in the user's terms.
type Origin struct {
	Format  Format
	File    string // the file a user would edit (template, patch or .tf), forward slashes
	Doc     int    // 0-based document index within File for multi-document YAML
	Variant string // Helm values variant or Kustomize build; "" for plain inputs
	Address string // Terraform address, e.g. module.db.kubernetes_deployment_v1.web
	// Root is the Terraform root module (its directory, as displayed) whose
	// evaluation produced the resource: addresses are unique within one root only.
	Root   string
	Source string // Helm "# Source:" path of rendered output
	// Context, when set, marks a resource that describes the cluster the linted
	// resources are applied to rather than a resource being linted: a platform
	// profile's class ("GKE default classes") or an object of a cluster snapshot
	// ("cluster snapshot snap.yaml"). Context resources resolve references like any
	// other, yield to a linted resource of the same kind, namespace and name, and
	// are never reported on.
	Context string
}

// Location is a related place shown with a finding: a link of the chain, the rendered
// output of a template, a module call site.
type Location struct {
	Range   Range
	Message string
	// For, when valid, shows the location only with a finding reported there: the
	// library template that wrote a value reported at the values line it came from.
	For Range
}

// Resource is one Kubernetes object, whatever format produced it.
type Resource struct {
	APIVersion string
	Kind       string
	Namespace  string // "" for cluster-scoped kinds; defaulted by New for namespaced ones
	Name       string
	Origin     Origin
	Range      Range // the whole object (document, template or HCL block)
	Object     *Node // the Kubernetes-shaped object: apiVersion, kind, metadata, spec...

	// Related are locations that belong with every finding on this resource, added by
	// the producer: the rendered line of a Helm template, a module's call site, the
	// base file of a Kustomize patch.
	Related []Location

	// Facts holds format-specific values the Kubernetes object cannot express, keyed by
	// documented names (see the Fact* constants). Rules for format-only hazards read it.
	Facts map[string]*Node
}

// Documented keys of Resource.Facts.
const (
	// FactWaitUntilBound is Terraform's wait_until_bound on a claim (absent = default true).
	FactWaitUntilBound = "terraform.wait_until_bound"
	// FactEmptyClassName is Terraform's storage_class_name = "" (dropped by the provider):
	// the node is the attribute. Present only when the attribute is the empty string.
	FactEmptyClassName = "terraform.storage_class_name_empty"
	// FactDependsOn lists (as String items) the Terraform addresses a resource
	// depends on directly: the resources its arguments reference (directly or through
	// locals, module inputs and outputs), its depends_on, and the depends_on of the
	// module calls around it. An address may name a resource block (every instance),
	// one instance, or a module call (every resource in it); the addresses are
	// relative to the root module (Origin.Root).
	FactDependsOn = "terraform.depends_on"
	// FactReferences maps a value of the object to the one Terraform resource its
	// expression references (kubernetes_persistent_volume_claim.data.metadata[0].name):
	// keys are the value's start offset in the resource's file (see TerraformRef).
	FactReferences = "terraform.references"
	// FactUnrendered is on a GitOps object (Argo CD Application or ApplicationSet, Flux
	// Kustomization or HelmRelease) that pvlint did not render: a List of String nodes,
	// each at the line that names a source not rendered, its Scalar saying what was
	// not rendered and what would render it (parsers/gitops).
	FactUnrendered = "gitops.unrendered"
)

// TerraformRef returns the address of the resource of the same root module whose
// attribute the value n was read from (claim_name =
// kubernetes_persistent_volume_claim.data.metadata[0].name), or "": the reference
// says which resource is meant, whatever its name evaluates to.
func (r *Resource) TerraformRef(n *Node) string {
	refs := r.Facts[FactReferences]
	if refs == nil || n == nil || n.Range.File != r.Origin.File {
		return ""
	}
	return refs.Get(RefKey(n.Range)).Str()
}

// RefKey is the key of FactReferences for a value at rg.
func RefKey(rg Range) string { return strconv.Itoa(int(rg.Start.Byte)) }

// DependsOn returns the addresses of FactDependsOn.
func (r *Resource) DependsOn() []string { return r.Facts[FactDependsOn].Strings() }

// IsContext reports whether the resource is cluster context (Origin.Context), not
// one being linted.
func (r *Resource) IsContext() bool { return r != nil && r.Origin.Context != "" }

// Get is shorthand for r.Object.Get(path...).
func (r *Resource) Get(path ...string) *Node {
	if r == nil {
		return nil
	}
	return r.Object.Get(path...)
}

// Locate returns the range of the deepest existing node along path (see Node.Locate),
// or the resource's own range when the object has none.
func (r *Resource) Locate(path ...string) Range {
	if r == nil {
		return Range{}
	}
	if rg := r.Object.Locate(path...); rg.IsValid() {
		return rg
	}
	return r.Range
}

// Group returns the API group of the resource ("" for the core group).
func (r *Resource) Group() string { return APIGroup(r.APIVersion) }

// APIGroup returns the group part of an apiVersion ("apps/v1" → "apps", "v1" → "").
func APIGroup(apiVersion string) string {
	if before, _, ok := strings.Cut(apiVersion, "/"); ok {
		return before
	}
	return ""
}

// String names the resource as users write it: Kind/namespace/name or Kind/name.
func (r *Resource) String() string {
	if r == nil {
		return "<nil>"
	}
	if r.Namespace == "" {
		return r.Kind + "/" + r.Name
	}
	return r.Kind + "/" + r.Namespace + "/" + r.Name
}

// Annotation returns metadata.annotations[key] and whether it is set.
func (r *Resource) Annotation(key string) (*Node, bool) {
	n := r.Get("metadata", "annotations", key)
	return n, n != nil
}

// clusterScoped lists the cluster-scoped kinds pvlint may meet. Everything else is
// namespaced, as kubectl would treat an unknown custom resource with a namespace.
var clusterScoped = map[string]bool{
	"StorageClass": true, "PersistentVolume": true, "Namespace": true, "Node": true,
	"ClusterRole": true, "ClusterRoleBinding": true, "CustomResourceDefinition": true,
	"CSIDriver": true, "CSINode": true, "VolumeAttachment": true, "PriorityClass": true,
	"ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true,
	"ValidatingAdmissionPolicy": true, "ValidatingAdmissionPolicyBinding": true,
	"APIService": true, "IngressClass": true, "RuntimeClass": true, "ClusterIssuer": true,
	"VolumeSnapshotClass": true, "PodSecurityPolicy": true, "ComponentStatus": true,
	"CertificateSigningRequest": true, "ClusterRoleBindingList": true,
	"VolumeAttributesClass": true, "StorageVersionMigration": true,
}

// IsClusterScoped reports whether kind has no namespace.
func IsClusterScoped(kind string) bool { return clusterScoped[kind] }

// Diagnostic is a problem with an input rather than with a resource: a file that cannot
// be read or parsed, a chart that fails to render, a limit that was hit. The driver
// reports each as a PVL000 finding; the other inputs are still linted.
type Diagnostic struct {
	Range   Range
	Message string
	Variant string
	// Note marks what is not a problem of the input but something pvlint declined
	// to do, said where it happened: a module source or file() path outside the
	// linted root, which pvlint does not read.
	Note bool
}

func (d Diagnostic) Error() string { return d.Range.String() + ": " + d.Message }
