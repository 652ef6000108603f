package terraform

import (
	"path/filepath"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

// loadFiles writes a module (file name → content, subdirectories allowed) and loads
// its root directory.
func loadFiles(t *testing.T, files map[string]string, opts Options) *Result {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		write(t, filepath.Join(dir, filepath.FromSlash(name)), content)
	}
	return Load([]Dir{{Path: dir, Root: dir}}, relTo(dir), opts)
}

// valueAt renders the node at path of the resource with address addr: its scalar,
// "<unknown>", "<null>", "<absent>", or "<no resource>".
func valueAt(res *Result, addr string, path ...string) string {
	for _, r := range res.Resources {
		if r.Origin.Address != addr {
			continue
		}
		n := r.Get(path...)
		switch {
		case n == nil:
			return "<absent>"
		case n.IsUnknown():
			return "<unknown>"
		case n.IsNull():
			return "<null>"
		case n.Kind == graph.List:
			return "<list>"
		case n.Kind == graph.Map:
			return "<map>"
		}
		return n.Scalar
	}
	return "<no resource>"
}

// claim is a kubernetes_persistent_volume_claim_v1 named by expr, for the cases
// below to read a value through.
func claim(name, expr string) string {
	return `resource "kubernetes_persistent_volume_claim_v1" "` + name + `" {
  metadata {
    name = ` + expr + `
  }
  spec {
    access_modes = ["ReadWriteOnce"]
    resources {
      requests = {
        storage = "1Gi"
      }
    }
  }
}
`
}

// Modules that terraform validate accepts, in the forms real repositories use: none
// of them may yield a diagnostic, and what pvlint cannot know is unknown.
func TestValidModulesHaveNoDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		addr  string
		path  []string
		want  string
	}{
		{"bare legacy map type is map(any)", map[string]string{"main.tf": `variable "labels" {
  type    = map
  default = { team = "storage" }
}
` + claim("c", `var.labels["team"]`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "storage"},
		{"bare legacy list type is list(any)", map[string]string{"main.tf": `variable "names" {
  type    = list
  default = ["first", "second"]
}
` + claim("c", `var.names[1]`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "second"},
		{"bare string keyword", map[string]string{"main.tf": `variable "name" {
  type    = string
  default = "plain"
}
` + claim("c", `var.name`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "plain"},
		{"legacy map type in JSON syntax", map[string]string{"main.tf.json": `{
  "variable": {"labels": {"type": "map", "default": {"team": "json"}}}
}
`, "claim.tf": claim("c", `var.labels.team`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "json"},
		{"lookup with a null default", map[string]string{"main.tf": `locals {
  claims = {
    a = { name = "named" }
    b = {}
  }
}
` + `resource "kubernetes_persistent_volume_claim_v1" "c" {
  for_each = local.claims
  metadata {
    name      = coalesce(lookup(each.value, "name", null), "fallback-${each.key}")
    namespace = lookup(each.value, "namespace", null)
  }
}
`}, `kubernetes_persistent_volume_claim_v1.c["b"]`, []string{"metadata", "name"}, "fallback-b"},
		{"splat over counted instances of another provider's resource", map[string]string{"main.tf": `resource "aws_iam_role" "r" {
  count = 2
  name  = "role-${count.index}"
}
` + claim("c", `join(",", aws_iam_role.r[*].arn)`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"for expression over for_each instances of another provider's resource", map[string]string{"main.tf": `resource "google_service_account" "sa" {
  for_each   = toset(["a", "b"])
  account_id = each.key
}
` + claim("c", `join(",", [for s in google_service_account.sa : s.email])`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"attribute of one instance of another provider's resource", map[string]string{"main.tf": `resource "azurerm_subnet" "s" {
  for_each = { a = "10.0.0.0/24" }
  name     = each.key
}
locals {
  ids = { for k, s in azurerm_subnet.s : k => s.id }
}
` + claim("c", `"subnet-${local.ids["a"]}-${azurerm_subnet.s["a"].name}"`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"for_each over another provider's resource keeps its keys", map[string]string{"main.tf": `resource "aws_iam_role" "r" {
  for_each = toset(["a", "b"])
  name     = each.key
}
resource "aws_s3_bucket" "b" {
  count = 3
}
resource "kubernetes_persistent_volume_claim_v1" "c" {
  for_each = aws_iam_role.r
  metadata {
    name   = "${each.key}-${length(aws_s3_bucket.b)}"
    labels = { arn = each.value.arn }
  }
}
`}, `kubernetes_persistent_volume_claim_v1.c["b"]`, []string{"metadata", "name"}, "b-3"},
		{"another provider's resource counted by an unknown number", map[string]string{"main.tf": `variable "n" {
  type = number
}
variable "names" {
  type = set(string)
}
resource "aws_iam_role" "r" {
  count = var.n
}
resource "aws_iam_role" "s" {
  for_each = var.names
}
` + claim("c", `"${length(aws_iam_role.r)}-${length(aws_iam_role.s)}"`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"computed attribute of a Kubernetes resource through a splat", map[string]string{"main.tf": `resource "kubernetes_namespace_v1" "ns" {
  count = 2
  metadata {
    name = "ns-${count.index}"
  }
}
locals {
  uids  = kubernetes_namespace_v1.ns[*].metadata[0].uid
  names = [for ns in kubernetes_namespace_v1.ns : ns.metadata[0].name]
}
` + `resource "kubernetes_persistent_volume_claim_v1" "c" {
  metadata {
    name      = "c-${local.uids[0]}"
    namespace = local.names[1]
  }
}
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "namespace"}, "ns-1"},
		{"id of a Kubernetes resource in a for expression", map[string]string{"main.tf": `resource "kubernetes_secret_v1" "s" {
  for_each = toset(["a"])
  metadata {
    name = each.key
  }
}
` + claim("c", `join("", [for s in kubernetes_secret_v1.s : s.id])`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"provider-defined function of another provider", map[string]string{"main.tf": claim("c", `provider::aws::arn_parse("arn:aws:iam::123456789012:role/x").account_id`)},
			"kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"provider-defined function in a .tf.json template", map[string]string{"main.tf.json": `{
  "locals": {"account": "${provider::aws::arn_parse(\"arn:aws:iam::123456789012:role/x\").account_id}"},
  "resource": {"kubernetes_persistent_volume_claim_v1": {"c": {"metadata": {"name": "${local.account}"}}}}
}
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"try and can over unknown values", map[string]string{"main.tf": `data "aws_caller_identity" "me" {}
` + claim("c", `can(data.aws_caller_identity.me.account_id) ? try(data.aws_caller_identity.me.tags["x"], "none") : "no"`)},
			"kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"try falls back when a known value lacks the attribute", map[string]string{"main.tf": `locals {
  settings = { a = 1 }
}
` + claim("c", `try(local.settings.name, "tried")`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "tried"},
		{"dynamic block over another provider's resource", map[string]string{"main.tf": `resource "random_pet" "p" {
  count = 2
}
resource "kubernetes_deployment_v1" "d" {
  metadata {
    name = "d"
  }
  spec {
    template {
      metadata {}
      spec {
        dynamic "volume" {
          for_each = random_pet.p[*].id
          content {
            name = volume.value
          }
        }
      }
    }
  }
}
`}, "kubernetes_deployment_v1.d", []string{"metadata", "name"}, "d"},
		{"moved, import, removed and check blocks", map[string]string{"main.tf": `moved {
  from = kubernetes_persistent_volume_claim_v1.old
  to   = kubernetes_persistent_volume_claim_v1.c
}
import {
  to = kubernetes_persistent_volume_claim_v1.c
  id = "default/c"
}
removed {
  from = kubernetes_persistent_volume_claim_v1.gone
  lifecycle {
    destroy = false
  }
}
check "claim_bound" {
  data "kubernetes_persistent_volume_claim_v1" "probe" {
    metadata {
      name = "c"
    }
  }
  assert {
    condition     = data.kubernetes_persistent_volume_claim_v1.probe.spec[0].volume_name != ""
    error_message = "the claim is not bound"
  }
}
` + claim("c", `"moved"`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "moved"},
		{"terraform settings, backend and cloud, provider aliases", map[string]string{"versions.tf": `terraform {
  required_version = ">= 1.7"
  required_providers {
    kubernetes = {
      source                = "hashicorp/kubernetes"
      version               = ">= 2.30"
      configuration_aliases = [kubernetes.edge]
    }
  }
  backend "s3" {
    bucket = "state"
    key    = "k8s.tfstate"
  }
}
`, "cloud/versions.tf": `terraform {
  cloud {
    organization = "example"
    workspaces {
      tags = ["k8s"]
    }
  }
}
`, "providers.tf": `provider "kubernetes" {
  alias       = "edge"
  config_path = "~/.kube/config"
}
`, "main.tf": `resource "kubernetes_persistent_volume_claim_v1" "c" {
  provider = kubernetes.edge
  metadata {
    name = "aliased"
  }
}
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "aliased"},
		{"registry and git module calls are not fetched", map[string]string{"main.tf": `module "eks" {
  source  = "terraform-aws-modules/eks/aws"
  version = "~> 20.0"
  for_each = toset(["a", "b"])
  cluster_name = each.key
}
module "net" {
  source = "git::https://example.com/network.git//modules/vpc?ref=v1.2.0"
  count  = 2
}
` + claim("c", `"${module.eks["a"].cluster_name}-${module.net[0].vpc_id}-${length(module.net)}"`)},
			"kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"local module outputs are evaluated", map[string]string{"main.tf": `module "names" {
  source = "./modules/names"
  prefix = "local"
}
` + claim("c", `module.names.claim`), "modules/names/main.tf": `variable "prefix" {
  type = string
}
output "claim" {
  value = "${var.prefix}-claim"
}
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "local-claim"},
		{"an error only a root variable's default causes", map[string]string{"main.tf": `variable "zones" {
  type    = list(string)
  default = []
}
variable "settings" {
  type    = map(string)
  default = {}
}
variable "enabled" {
  type    = bool
  default = null
}
` + claim("c", `"${element(var.zones, 0)}-${var.settings["name"]}"`) + `resource "kubernetes_persistent_volume_claim_v1" "d" {
  count = var.enabled ? 1 : 0
  metadata {
    name = "d"
  }
}
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"optional object attributes with defaults", map[string]string{"main.tf": `variable "claim" {
  type = object({
    name    = optional(string, "optional-default")
    storage = optional(string)
    extra   = optional(object({ class = optional(string, "fast") }), {})
  })
  default = {}
}
` + claim("c", `"${var.claim.name}-${var.claim.extra.class}-${var.claim.storage == null}"`)},
			"kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "optional-default-fast-true"},
		{"sensitive, nonsensitive and templatestring", map[string]string{"main.tf": `locals {
  tmpl   = "$${kind}-claim"
  secret = sensitive("hidden")
}
` + claim("c", `"${templatestring(local.tmpl, { kind = "fast" })}-${nonsensitive(local.secret)}"`)},
			"kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "fast-claim-hidden"},
		{"ephemeral resources and variables", map[string]string{"main.tf": `variable "token" {
  type      = string
  ephemeral = true
  default   = "t"
}
ephemeral "random_password" "p" {
  length = 16
}
` + claim("c", `ephemeral.random_password.p.result`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "<unknown>"},
		{"path and workspace in locals", map[string]string{"main.tf": `locals {
  where = "${path.module}|${path.root}|${terraform.workspace}"
}
` + claim("c", `local.where`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, ".|.|default"},
		{"self in a provisioner", map[string]string{"main.tf": `resource "kubernetes_persistent_volume_claim_v1" "c" {
  metadata {
    name = "provisioned"
  }
  provisioner "local-exec" {
    command = "echo ${self.metadata[0].name} ${self.id}"
  }
  connection {
    host = self.id
  }
}
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "provisioned"},
		{"test and variable files beside the module", map[string]string{"main.tf": claim("c", `"tested"`), "tests/claim.tftest.hcl": `run "plan" {
  command = plan
  assert {
    condition     = kubernetes_persistent_volume_claim_v1.c.metadata[0].name == "tested"
    error_message = "wrong name"
  }
}
`, "main.tftest.hcl": `run "x" {
  command = plan
}
`, "staging.tfvars": `unknown_variable = "not declared here"
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "tested"},
		{"comments in .tf.json", map[string]string{"main.tf.json": `{
  "//": "a comment at the top",
  "variable": {"name": {"//": "a comment in a variable", "default": "commented"}},
  "resource": {
    "kubernetes_persistent_volume_claim_v1": {
      "c": {
        "//": "a comment in a resource",
        "metadata": {"//": "a comment in a block", "name": "${var.name}"}
      }
    }
  }
}
`}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "commented"},
		{"null to a non-nullable variable takes its default", map[string]string{"main.tf": `module "m" {
  source = "./m"
  create = null
  name   = null
}
`, "m/main.tf": `variable "create" {
  type     = bool
  default  = true
  nullable = false
}
variable "name" {
  type     = string
  default  = "nullable-default"
}
` + `resource "kubernetes_persistent_volume_claim_v1" "c" {
  count = var.create ? 1 : 0
  metadata {
    name = var.name == null ? "was-null" : var.name
  }
}
`}, "module.m.kubernetes_persistent_volume_claim_v1.c[0]", []string{"metadata", "name"}, "was-null"},
		{"convert with a type constraint", map[string]string{"main.tf": `locals {
  names = convert(["a", "b"], list(string))
  obj   = convert({}, object({ name = optional(string, "converted") }))
}
` + claim("c", `"${local.obj.name}-${length(local.names)}"`)}, "kubernetes_persistent_volume_claim_v1.c", []string{"metadata", "name"}, "converted-2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := loadFiles(t, tt.files, Options{})
			if diff := cmp.Diff([]string(nil), diagLines(res)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if got := valueAt(res, tt.addr, tt.path...); got != tt.want {
				t.Errorf("%s %v = %s, want %s (resources %v)", tt.addr, tt.path, got, tt.want, addrs(res))
			}
		})
	}
}

// What Terraform itself rejects stays a diagnostic at its position.
func TestInvalidModulesKeepTheirDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"bare set is not a legacy type", map[string]string{"main.tf": `variable "s" {
  type = set
}
`}, []string{"main.tf:2:10 invalid type specification: The set type constructor requires one argument specifying the element type."}},
		{"quoted legacy types are refused by Terraform", map[string]string{"main.tf": `variable "s" {
  type = "string"
}
variable "l" {
  type = "list"
}
`}, []string{
			`main.tf:2:10 invalid quoted type constraints: Terraform 0.11 and earlier required type constraints to be given in quotes; Terraform now refuses them. Remove the quotes around "string".`,
			`main.tf:5:10 invalid quoted type constraints: Terraform 0.11 and earlier required type constraints to be given in quotes; Terraform now refuses them. Remove the quotes around "list" and write list(string) or list(any).`,
		}},
		{"object type without attributes", map[string]string{"main.tf": `variable "rules" {
  type = list(object)
}
`}, []string{"main.tf:2:15 invalid type specification: The object type constructor requires one argument specifying the attribute types and values as a map."}},
		{"a function Terraform does not have", map[string]string{"main.tf": claim("c", `kebabcase("x")`)},
			[]string{`main.tf:3:12 call to unknown function: there is no function named "kebabcase" in Terraform`}},
		{"lookup without a default on a missing key", map[string]string{"main.tf": claim("c", `lookup({ a = "x" }, "b")`)},
			[]string{`main.tf:3:19 invalid function argument: Invalid value for "inputMap" parameter: the given object has no attribute "b".`}},
		{"lookup with a default of the wrong type for a map", map[string]string{"main.tf": `locals {
  m = tomap({ a = 1 })
}
` + claim("c", `lookup(local.m, "b", {})`)}, []string{`main.tf:6:33 invalid function argument: Invalid value for "default" parameter: the default value must have the same type as the map elements.`}},
		{"a value given in terraform.tfvars is the run's, not an assumption", map[string]string{"main.tf": `variable "zones" {
  type    = list(string)
  default = ["a"]
}
` + claim("c", `element(var.zones, 0)`), "terraform.tfvars": `zones = []
`}, []string{`main.tf:7:12 error in function call: Call to function "element" failed: cannot use element function with an empty list.`}},
		{"a function Terraform does not have, in a .tf.json template", map[string]string{"main.tf.json": `{
  "resource": {"kubernetes_persistent_volume_claim_v1": {"c": {"metadata": {"name": "${kebabcase(\"x\")}"}}}}
}
`}, []string{`main.tf.json:2:88 call to unknown function: There is no function named "kebabcase".`}},
		{"a missing attribute of a known local", map[string]string{"main.tf": `locals {
  settings = { a = 1 }
}
` + claim("c", `local.settings.name`)}, []string{`main.tf:6:26 unsupported attribute: This object does not have an attribute named "name".`}},
		{"a cycle through the counts of other providers' resources", map[string]string{"main.tf": `resource "aws_instance" "a" {
  count = length(aws_instance.b)
}
resource "aws_instance" "b" {
  count = length(aws_instance.a)
}
`}, []string{"main.tf:1:1 aws_instance.a refers to itself through a cycle"}},
		{"null to a non-nullable variable without a default", map[string]string{"main.tf": `module "m" {
  source = "./m"
  name   = null
}
`, "m/main.tf": `variable "name" {
  type     = string
  nullable = false
}
`}, []string{`main.tf:3:12 invalid value for variable "name": the variable is not nullable and has no default, so it cannot be null`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := loadFiles(t, tt.files, Options{})
			got := diagLines(res)
			sort.Strings(got)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
		})
	}
}

// Terraform's file functions read ~/ from the home directory, outside the linted
// directory, even when the module has a directory named ~ of its own. pvlint does not
// read it, and the module is valid Terraform: the values are unknown, with no finding.
func TestHomeDirectoryIsOutside(t *testing.T) {
	res := loadFiles(t, map[string]string{
		"~/client.crt": "not-this",
		"main.tf": claim("c", `file("~/client.crt")`) + `resource "kubernetes_persistent_volume_claim_v1" "e" {
  metadata {
    name = fileexists("~/client.crt") ? "exists" : "absent"
  }
}
`,
	}, Options{})
	if got := diagLines(res); len(got) != 0 {
		t.Errorf("diagnostics %q, want none", got)
	}
	for _, r := range []string{"kubernetes_persistent_volume_claim_v1.c", "kubernetes_persistent_volume_claim_v1.e"} {
		if got := valueAt(res, r, "metadata", "name"); got != "<unknown>" {
			t.Errorf("%s: name = %s, want <unknown>", r, got)
		}
	}
}

// Override files are merged into the blocks they override, after every other file,
// in lexical order: attributes replace attributes, nested blocks replace every
// block of their type, locals and variables are replaced by name.
func TestOverrideFiles(t *testing.T) {
	res := loadFiles(t, map[string]string{
		"main.tf": `variable "mode" {
  type    = string
  default = "WaitForFirstConsumer"
}
locals {
  name = "base"
}
resource "kubernetes_storage_class_v1" "fast" {
  metadata {
    name   = local.name
    labels = { tier = "base" }
  }
  storage_provisioner = "ebs.csi.aws.com"
  volume_binding_mode = var.mode
  parameters = {
    type = "gp3"
  }
}
resource "kubernetes_storage_class_v1" "kept" {
  metadata {
    name = "kept"
  }
  storage_provisioner = "ebs.csi.aws.com"
}
`,
		"override.tf": `variable "mode" {
  default = "Immediate"
}
resource "kubernetes_storage_class_v1" "fast" {
  metadata {
    name = "${local.name}-overridden"
  }
}
`,
		"z_override.tf": `locals {
  name = "local"
}
resource "kubernetes_storage_class_v1" "fast" {
  count = 2
}
`,
	}, Options{})
	if diff := cmp.Diff([]string(nil), diagLines(res)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		addr string
		path []string
		want string
	}{
		{"kubernetes_storage_class_v1.fast[1]", []string{"metadata", "name"}, "local-overridden"},
		{"kubernetes_storage_class_v1.fast[1]", []string{"metadata", "labels"}, "<absent>"},
		{"kubernetes_storage_class_v1.fast[1]", []string{"volumeBindingMode"}, "Immediate"},
		{"kubernetes_storage_class_v1.fast[1]", []string{"parameters", "type"}, "gp3"},
		{"kubernetes_storage_class_v1.kept", []string{"metadata", "name"}, "kept"},
	} {
		if got := valueAt(res, c.addr, c.path...); got != c.want {
			t.Errorf("%s %v = %s, want %s (resources %v)", c.addr, c.path, got, c.want, addrs(res))
		}
	}
	for _, r := range res.Resources {
		if r.Origin.Address == "kubernetes_storage_class_v1.fast[0]" {
			if got := at(r.Get("metadata", "name").Range); got != "override.tf:6:12-6:38" {
				t.Errorf("the overridden name is at %s, want override.tf:6:12-6:38", got)
			}
		}
	}
}

func TestOverrideOfNothingIsAnError(t *testing.T) {
	res := loadFiles(t, map[string]string{
		"main.tf": claim("c", `"c"`),
		"override.tf": `resource "kubernetes_persistent_volume_claim_v1" "missing" {
  metadata {
    name = "m"
  }
}
`,
	}, Options{})
	want := []string{"override.tf:1:1 override of resource kubernetes_persistent_volume_claim_v1.missing, which no other file of the module declares (Terraform refuses the module)"}
	if diff := cmp.Diff(want, diagLines(res)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

// testdata/terraform/realworld is a root module in the shape of a cloud sample: it
// mixes every construct above, and pvlint reads its Kubernetes objects with no
// diagnostic.
func TestRealWorldRootModule(t *testing.T) {
	res := loadDir(t, "../../testdata/terraform/realworld", Options{})
	rs := byAddr(t, res)
	var got []string
	for a := range rs {
		got = append(got, a)
	}
	sort.Strings(got)
	want := []string{
		`kubernetes_storage_class_v1.standard`,
		`module.app["blog"].kubernetes_deployment_v1.app`,
		`module.app["blog"].kubernetes_persistent_volume_claim_v1.data`,
		`module.app["shop"].kubernetes_deployment_v1.app`,
		`module.app["shop"].kubernetes_persistent_volume_claim_v1.data`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("resources (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		addr string
		path []string
		want string
	}{
		{"kubernetes_storage_class_v1.standard", []string{"volumeBindingMode"}, "Immediate"},
		{"kubernetes_storage_class_v1.standard", []string{"metadata", "labels", "account"}, "<unknown>"},
		{`module.app["shop"].kubernetes_persistent_volume_claim_v1.data`, []string{"spec", "resources", "requests", "storage"}, "20Gi"},
		{`module.app["blog"].kubernetes_persistent_volume_claim_v1.data`, []string{"spec", "resources", "requests", "storage"}, "10Gi"},
		{`module.app["blog"].kubernetes_persistent_volume_claim_v1.data`, []string{"spec", "storageClassName"}, "standard"},
		{`module.app["shop"].kubernetes_persistent_volume_claim_v1.data`, []string{"spec", "storageClassName"}, "standard"},
		{`module.app["shop"].kubernetes_persistent_volume_claim_v1.data`, []string{"metadata", "labels", "volume"}, "<unknown>"},
		{`module.app["blog"].kubernetes_deployment_v1.app`, []string{"spec", "replicas"}, "2"},
	} {
		if got := valueAt(res, c.addr, c.path...); got != c.want {
			t.Errorf("%s %v = %s, want %s", c.addr, c.path, got, c.want)
		}
	}
}
