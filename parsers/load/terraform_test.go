package load

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/terraform"
)

// baseOrigins loads testdata/terraform/<name>, expecting no diagnostic, and lists its
// base resources as "format file address resource".
func baseOrigins(t *testing.T, name string) (*Result, []string) {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("../../testdata/terraform", name))
	if err != nil {
		t.Fatal(err)
	}
	res := Load([]string{"."}, Options{Dir: dir})
	for _, d := range res.Diagnostics {
		t.Errorf("unexpected diagnostic %s: %s", d.Range, d.Message)
	}
	var got []string
	for _, r := range res.Base {
		got = append(got, fmt.Sprintf("%s %s %s %s", r.Origin.Format, r.Origin.File, r.Origin.Address, r))
	}
	return res, got
}

// TestTerraformWithManifests loads Terraform, a plan and YAML from one directory
// into one graph: a Terraform StorageClass resolves a YAML claim, a YAML Deployment
// mounts a Terraform claim, and a manifest Terraform reads with file() is linted once.
func TestTerraformWithManifests(t *testing.T) {
	res, got := baseOrigins(t, "cross")
	want := []string{
		"yaml app.yaml  PersistentVolumeClaim/shop/data",
		"yaml app.yaml  Deployment/shop/web",
		"terraform-plan plan.json kubernetes_storage_class_v1.standard StorageClass/standard",
		"terraform-plan plan.json kubernetes_persistent_volume_claim_v1.data PersistentVolumeClaim/shop/data",
		"terraform-plan plan.json module.app.kubernetes_deployment_v1.web Deployment/shop/web",
		"terraform storage.tf kubernetes_storage_class_v1.zonal StorageClass/zonal",
		"terraform storage.tf kubernetes_persistent_volume_claim_v1.reports PersistentVolumeClaim/shop/reports",
		"terraform cache-claim.yaml kubernetes_manifest.cache PersistentVolumeClaim/shop/cache",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("resources (-want +got):\n%s", diff)
	}
	for _, n := range []string{"storage.tf", "cache-claim.yaml", "plan.json", "app.yaml"} {
		if res.Sources[n] == nil {
			t.Errorf("no source for %s", n)
		}
	}

	// Plan and configuration describe the same app twice; lint the YAML with the
	// configuration only, as a user linting the .tf files would.
	var rs []*graph.Resource
	for _, r := range res.Base {
		if r.Origin.Format != graph.FormatPlan {
			rs = append(rs, r)
		}
	}
	g := graph.New(rs, graph.Options{})
	web := g.Lookup("Deployment", "shop", "web")
	var mounts []string
	for _, m := range g.Mounts(web) {
		class := g.ClassOf(m.Claim)
		c := "(no class)"
		if class.Class != nil {
			c = class.Class.Name + " from " + string(class.Class.Origin.Format) + " " + class.Class.Origin.File
		}
		mounts = append(mounts, fmt.Sprintf("%s → %s claim %s, class %s", m.VolumeName, m.Claim.Resource.Origin.Format, m.Claim.Name, c))
	}
	wantMounts := []string{
		"data → yaml claim data, class zonal from terraform storage.tf",
		"reports → terraform claim reports, class (no class)",
	}
	if diff := cmp.Diff(wantMounts, mounts); diff != "" {
		t.Errorf("mounts (-want +got):\n%s", diff)
	}
	if got := g.Lookup("StorageClass", "", "zonal").Get("volumeBindingMode"); got.Str() != "Immediate" || got.Range.Start.Line != 1 {
		t.Errorf("the provider's Immediate default is at the class block: %v at %s", got.Str(), got.Range)
	}
}

func TestTerraformVariablesFromOptions(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/terraform/eval")
	if err != nil {
		t.Fatal(err)
	}
	res := Load([]string{"."}, Options{Dir: dir, Terraform: terraform.Options{Vars: []terraform.Var{{File: "prod.tfvars"}}}})
	for _, r := range res.Base {
		if r.Origin.Address == "module.app.kubernetes_deployment_v1.this" {
			if got := r.Get("spec", "replicas").Str(); got != "4" {
				t.Errorf("replicas = %q, want 4 from --var-file prod.tfvars (relative to Dir)", got)
			}
			return
		}
	}
	t.Fatal("the module's Deployment was not loaded (modules/app must not be a root of its own)")
}

func TestExplicitTerraformFile(t *testing.T) {
	dir, err := filepath.Abs("../../testdata/terraform/errors/syntax")
	if err != nil {
		t.Fatal(err)
	}
	res := Load([]string{"ok.tf"}, Options{Dir: dir})
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, d.Range.String())
	}
	if diff := cmp.Diff([]string{"broken.tf:6:25"}, got); diff != "" {
		t.Errorf("naming one file reads its whole module (-want +got):\n%s", diff)
	}
	if len(res.Base) != 1 || res.Base[0].Name != "ok" {
		t.Errorf("resources = %v", res.Base)
	}
}

// TestPlanNextToItsConfiguration: a plan linted with its own configuration does not
// describe the configuration's objects a second time. The configuration's copies stay
// (a class named from a variable without a value included: the plan's name does not
// disagree with an unknown one); the plan keeps what the configuration does not
// declare, and a resource of a configuration address whose name differs (as a plan of
// another root module sharing the address would have).
func TestPlanNextToItsConfiguration(t *testing.T) {
	_, got := baseOrigins(t, "plan-and-config")
	want := []string{
		"terraform-plan plan.json kubernetes_storage_class_v1.legacy StorageClass/legacy",
		`terraform-plan plan.json module.app.kubernetes_persistent_volume_claim_v1.data["a"] PersistentVolumeClaim/shop/other`,
		"terraform main.tf kubernetes_storage_class_v1.fast StorageClass/fast",
		"terraform main.tf kubernetes_storage_class_v1.scratch StorageClass/${var.class_name}",
		`terraform modules/app/main.tf module.app.kubernetes_persistent_volume_claim_v1.data["a"] PersistentVolumeClaim/shop/data-a`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

// TestOpenTofuFiles loads testdata/terraform/opentofu, where the module of the
// modules/disks directory has .tofu files only, and claim.tofu.json is a Terraform
// file, never a JSON manifest: each resource comes from the .tofu file OpenTofu reads.
func TestOpenTofuFiles(t *testing.T) {
	_, got := baseOrigins(t, "opentofu")
	want := []string{
		"terraform claim.tofu.json kubernetes_persistent_volume_claim_v1.data PersistentVolumeClaim/data",
		"terraform main.tofu kubernetes_storage_class_v1.gp3 StorageClass/gp3",
		"terraform web.tofu kubernetes_deployment_v1.web Deployment/web",
		"terraform modules/disks/main.tofu module.disks.kubernetes_storage_class_v1.this StorageClass/cache",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("resources (-want +got):\n%s", diff)
	}
}
