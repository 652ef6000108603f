package terraform

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

// loadDir loads one module directory, confined to itself, with names relative to it.
func loadDir(t *testing.T, dir string, opts Options) *Result {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return Load([]Dir{{Path: abs, Root: abs}}, relTo(abs), opts)
}

func relTo(root string) func(string) string {
	return func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil {
			return filepath.ToSlash(r)
		}
		return filepath.ToSlash(p)
	}
}

// byAddr indexes resources by Terraform address, failing on diagnostics.
func byAddr(t *testing.T, res *Result) map[string]*graph.Resource {
	t.Helper()
	for _, d := range res.Diagnostics {
		t.Errorf("unexpected diagnostic %s: %s", d.Range, d.Message)
	}
	m := map[string]*graph.Resource{}
	for _, r := range res.Resources {
		m[r.Origin.Address] = r
	}
	return m
}

// at is a compact range for comparisons: "file:line:col-line:col".
func at(r graph.Range) string {
	return fmt.Sprintf("%s:%d:%d-%d:%d", r.File, r.Start.Line, r.Start.Column, r.End.Line, r.End.Column)
}

func TestEvaluation(t *testing.T) {
	rs := byAddr(t, loadDir(t, "../../testdata/terraform/eval", Options{}))
	tests := []struct {
		name, addr string
		path       []string
		want       string // the scalar, or "<unknown>"
		where      string // the node's range, when checked
	}{
		{"variable default through an object type's optional attribute", `kubernetes_storage_class_v1.extra["bulk"]`, []string{"volumeBindingMode"}, "WaitForFirstConsumer", "main.tf:26:25-26:43"},
		{"terraform.tfvars overrides the default", "kubernetes_storage_class_v1.fast", []string{"volumeBindingMode"}, "WaitForFirstConsumer", "main.tf:17:25-17:41"},
		{"for_each key", `kubernetes_storage_class_v1.extra["bulk"]`, []string{"metadata", "name"}, "bulk", ""},
		{"for_each value", `kubernetes_storage_class_v1.extra["bulk"]`, []string{"provisioner"}, "efs.csi.aws.com", ""},
		{"count.index", "kubernetes_persistent_volume_claim_v1.data[1]", []string{"metadata", "name"}, "web-data-1", "main.tf:32:17-32:51"},
		{"reference with [0]", "kubernetes_persistent_volume_claim_v1.data[0]", []string{"spec", "storageClassName"}, "fast", "main.tf:38:26-38:75"},
		{"legacy reference with .0", "kubernetes_persistent_volume_claim_v1.legacy_ref", []string{"spec", "storageClassName"}, "fast", ""},
		{"computed attribute of a resource", "kubernetes_persistent_volume_claim_v1.legacy_ref", []string{"spec", "volumeName"}, "<unknown>", "main.tf:55:26-55:73"},
		{"data source", "kubernetes_persistent_volume_claim_v1.legacy_ref", []string{"metadata", "namespace"}, "<unknown>", ""},
		{"local", "kubernetes_persistent_volume_claim_v1.data[0]", []string{"metadata", "labels", "app.kubernetes.io/name"}, "web", ""},
		{"local module input", "module.app.kubernetes_deployment_v1.this", []string{"metadata", "namespace"}, "shop", "modules/app/main.tf:25:17-25:30"},
		{"module variable default beats nothing", "module.app.kubernetes_deployment_v1.this", []string{"spec", "replicas"}, "1", ""},
		{"root variable without a value", "module.app.kubernetes_deployment_v1.this", []string{"spec", "template", "spec", "containers", "0", "image"}, "<unknown>", ""},
		{"dynamic block key", "module.app.kubernetes_deployment_v1.this", []string{"spec", "template", "spec", "volumes", "0", "name"}, "data", ""},
		{"dynamic block value from a reference", "module.app.kubernetes_deployment_v1.this", []string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, "web-data-0", ""},
		{"module output in a manifest", "kubernetes_manifest.quota_claim", []string{"spec", "storageClassName"}, "local-path", "main.tf:82:26-82:42"},
		{"manifest tuple item range", "kubernetes_manifest.quota_claim", []string{"spec", "accessModes", "0"}, "ReadWriteOncePod", "main.tf:81:27-81:45"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := rs[tt.addr]
			if r == nil {
				t.Fatalf("no resource %s", tt.addr)
			}
			n := r.Get(tt.path...)
			if n == nil {
				t.Fatalf("%s: no %v in %v", tt.addr, tt.path, r.Object.Interface())
			}
			got := n.Str()
			if n.IsUnknown() {
				got = "<unknown>"
			}
			if got != tt.want {
				t.Errorf("%s %v = %q, want %q", tt.addr, tt.path, got, tt.want)
			}
			if tt.where != "" && at(n.Range) != tt.where {
				t.Errorf("%s %v at %s, want %s", tt.addr, tt.path, at(n.Range), tt.where)
			}
		})
	}
}

func TestCommandLineVariables(t *testing.T) {
	file := filepath.Join("..", "..", "testdata", "terraform", "eval", "prod.tfvars")
	tests := []struct {
		name string
		vars []Var
		want string
	}{
		{"default", nil, "1"},
		{"--var", []Var{{Name: "replicas", Value: "5"}}, "5"},
		{"--var-file", []Var{{File: file}}, "4"},
		{"later --var wins", []Var{{File: file}, {Name: "replicas", Value: "6"}}, "6"},
		{"later --var-file wins", []Var{{Name: "replicas", Value: "6"}, {File: file}}, "4"},
		{"undeclared names are ignored", []Var{{Name: "nope", Value: "x"}}, "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs := byAddr(t, loadDir(t, "../../testdata/terraform/eval", Options{Vars: tt.vars}))
			got := rs["module.app.kubernetes_deployment_v1.this"].Get("spec", "replicas")
			if got.Str() != tt.want || got.Kind != graph.String {
				t.Errorf("replicas = %v %q, want string %q", got.Kind, got.Str(), tt.want)
			}
		})
	}
}

func TestVariableErrors(t *testing.T) {
	res := loadDir(t, "../../testdata/terraform/eval", Options{Vars: []Var{{Name: "replicas", Value: "many"}, {File: "no-such.tfvars"}}})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Range.File+": "+d.Message)
	}
	want := []string{
		`--var replicas: invalid value for variable "replicas": a number is required`,
		"no-such.tfvars: cannot read variables file: no such file or directory",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func TestModuleCallSite(t *testing.T) {
	rs := byAddr(t, loadDir(t, "../../testdata/terraform/eval", Options{}))
	d := rs["module.app.kubernetes_deployment_v1.this"]
	var got []string
	for _, l := range d.Related {
		got = append(got, at(l.Range)+" "+l.Message)
	}
	if diff := cmp.Diff([]string{"main.tf:59:1-59:13 module.app is called here"}, got); diff != "" {
		t.Errorf("related (-want +got):\n%s", diff)
	}
	if d.Origin.File != "modules/app/main.tf" || at(d.Range) != "modules/app/main.tf:22:1-61:2" {
		t.Errorf("origin %s at %s", d.Origin.File, at(d.Range))
	}
}

func TestManifestFromFile(t *testing.T) {
	res := loadDir(t, "../../testdata/terraform/eval", Options{})
	rs := byAddr(t, res)
	c := rs["kubernetes_manifest.claim"]
	if c == nil {
		t.Fatal("no kubernetes_manifest.claim")
	}
	if c.Origin.Format != graph.FormatTerraform || c.Origin.File != "manifests/claim.yaml" {
		t.Errorf("origin = %+v", c.Origin)
	}
	if got := at(c.Get("spec", "storageClassName").Range); got != "manifests/claim.yaml:9:21-9:25" {
		t.Errorf("storageClassName at %s", got)
	}
	if len(c.Related) != 1 || at(c.Related[0].Range) != "main.tf:68:1-68:39" {
		t.Errorf("related = %v", c.Related)
	}
	if !res.Consumed["manifests/claim.yaml"] || res.Sources["manifests/claim.yaml"] == nil {
		t.Errorf("claim.yaml not recorded as consumed: %v", res.Consumed)
	}
}
