package terraform

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// diagLines renders diagnostics as "file:line:col message".
func diagLines(res *Result) []string {
	var out []string
	for _, d := range res.Diagnostics {
		out = append(out, d.Range.String()+" "+d.Message)
	}
	return out
}

func addrs(res *Result) []string {
	var out []string
	for _, r := range res.Resources {
		out = append(out, r.Origin.Address)
	}
	return out
}

func TestSyntaxErrorKeepsOtherFiles(t *testing.T) {
	res := loadDir(t, "../../testdata/terraform/errors/syntax", Options{})
	want := []string{"broken.tf:6:25 invalid expression: Expected the start of an expression, but found an invalid expression token."}
	if diff := cmp.Diff(want, diagLines(res)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"kubernetes_storage_class_v1.ok"}, addrs(res)); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

func TestReadsStayInside(t *testing.T) {
	res := loadDir(t, "../../testdata/terraform/errors/escape", Options{})
	// Reads outside the directory are declined (the module is valid), each with a
	// note where its path is known without evaluating; only the unknown function is
	// an error.
	// /etc/passwd is shown relative to the module, as every path is: how many ../
	// depends on where the checkout lies.
	abs, err := filepath.Abs("../../testdata/terraform/errors/escape")
	if err != nil {
		t.Fatal(err)
	}
	passwd := relTo(abs)("/etc/passwd")
	want := []string{
		`main.tf:3:17 "` + passwd + `" leads outside the linted root: pvlint does not read it, and what the configuration reads from it is unknown`,
		`main.tf:9:27 "../../../../README.md" leads outside the linted root: pvlint does not read it, and what the configuration reads from it is unknown`,
		`main.tf:15:12 call to unknown function: there is no function named "kebabcase" in Terraform`,
	}
	if diff := cmp.Diff(want, diagLines(res)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	for _, r := range res.Resources {
		if strings.Contains(r.Name, "root:") {
			t.Errorf("%s read /etc/passwd: %q", r.Origin.Address, r.Name)
		}
	}
	if got := res.Resources[3].Name; got != "from-a-file" {
		t.Errorf("a file inside the directory is read: name %q", got)
	}
	if res.Resources[0].Get("metadata", "name").IsUnknown() != true {
		t.Errorf("a refused read is unknown")
	}
}

func TestSymlinkEscape(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	secret := filepath.Join(outside, "secret.txt")
	write(t, secret, "s3cret")
	if err := os.Symlink(secret, filepath.Join(dir, "link.txt")); err != nil {
		t.Skipf("symlinks unavailable: %v", err)
	}
	write(t, filepath.Join(dir, "main.tf"), `resource "kubernetes_persistent_volume_claim_v1" "x" {
  metadata {
    name = file("link.txt")
  }
}
`)
	res := Load([]Dir{{Path: dir, Root: dir}}, relTo(dir), Options{})
	want := []string{`main.tf:3:17 "link.txt" leads outside the linted root: pvlint does not read it, and what the configuration reads from it is unknown`}
	if diff := cmp.Diff(want, diagLines(res)); diff != "" {
		t.Errorf("diagnostics (-want +got): the read is declined, its value unknown, and a note says so\n%s", diff)
	}
	for _, d := range res.Diagnostics {
		if !d.Note {
			t.Errorf("%s: a declined read is a note, not an error", d.Range)
		}
	}
	if len(res.Resources) != 1 || !res.Resources[0].Get("metadata", "name").IsUnknown() {
		t.Errorf("the name read through the link is not unknown: %v", res.Resources)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestInstanceBudget(t *testing.T) {
	defer func(n int) { maxRunInstances = n }(maxRunInstances)
	maxRunInstances = 50
	dir := t.TempDir()
	write(t, filepath.Join(dir, "main.tf"), `module "m" {
  count  = 10
  source = "./m"
}
`)
	write(t, filepath.Join(dir, "m", "main.tf"), `resource "kubernetes_persistent_volume_claim_v1" "c" {
  count = 10
  metadata {
    name = "c${count.index}"
  }
}
`)
	res := Load([]Dir{{Path: dir, Root: dir}}, relTo(dir), Options{})
	want := []string{"m/main.tf:2:11 this configuration expands to more than 50 instances; the rest is not expanded"}
	if diff := cmp.Diff(want, diagLines(res)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	if n := len(res.Resources); n != 40 {
		t.Errorf("%d resources, want the 40 within the budget (10 module instances, then four modules of 10 claims)", n)
	}
}

func TestEvaluationLimitsAndErrors(t *testing.T) {
	tests := []struct {
		name, src string
		opts      Options
		want      []string
		addrs     []string
	}{
		{"count over the limit", `resource "kubernetes_persistent_volume_claim_v1" "many" {
  count = 3
  metadata {
    name = "c${count.index}"
  }
}
`, Options{MaxInstances: 2}, []string{"main.tf:2:11 count is 3, more than the limit of 2 instances; the block is not expanded"}, nil},
		{"for_each over a list", `resource "kubernetes_persistent_volume_claim_v1" "l" {
  for_each = ["a", "b"]
  metadata {
    name = each.key
  }
}
`, Options{}, []string{"main.tf:2:14 for_each must be a map, or a set of strings, not tuple"}, nil},
		{"unknown count is undecided, not an error", `variable "n" {
  type = number
}
resource "kubernetes_persistent_volume_claim_v1" "u" {
  count = var.n
  metadata {
    name = "u"
  }
}
`, Options{}, nil, nil},
		{"local cycle", `locals {
  a = local.b
  b = local.a
}
resource "kubernetes_persistent_volume_claim_v1" "c" {
  metadata {
    name = local.a
  }
}
`, Options{}, []string{"main.tf:2:7 local.a refers to itself through a cycle"}, []string{"kubernetes_persistent_volume_claim_v1.c"}},
		{"remote module is not fetched", `module "remote" {
  source = "terraform-aws-modules/eks/aws"
}
resource "kubernetes_persistent_volume_claim_v1" "r" {
  metadata {
    name = module.remote.claim
  }
}
`, Options{}, nil, []string{"kubernetes_persistent_volume_claim_v1.r"}},
		{"module outside the directory", `module "up" {
  source = "../elsewhere"
}
`, Options{}, []string{`main.tf:2:12 module source "../elsewhere" leads outside the linted root (.): pvlint does not read it, so the resources of module.up are not linted (lint from a directory that holds both)`}, nil}, // valid Terraform: not read, its outputs unknown, a note
		{"module calling itself", `module "again" {
  source = "./"
}
resource "kubernetes_persistent_volume_claim_v1" "self" {
  metadata {
    name = "self"
  }
}
`, Options{}, []string{"main.tf:2:12 module.again calls a module that is already being evaluated: a cycle; not read"},
			[]string{"kubernetes_persistent_volume_claim_v1.self"}},
		{"duplicate resource", `resource "kubernetes_storage_class_v1" "d" {
  storage_provisioner = "a"
}
resource "kubernetes_storage_class_v1" "d" {
  storage_provisioner = "b"
}
`, Options{}, []string{"main.tf:4:1 duplicate resource kubernetes_storage_class_v1.d: the block at main.tf:1:1 already declares it (Terraform refuses the module); references use the first"},
			[]string{"kubernetes_storage_class_v1.d", "kubernetes_storage_class_v1.d"}},
		{"unknown provider function is computed by its provider", `resource "kubernetes_persistent_volume_claim_v1" "p" {
  metadata {
    name = provider::aws::arn_parse("x").resource
  }
}
`, Options{}, nil, []string{"kubernetes_persistent_volume_claim_v1.p"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "main.tf"), tt.src)
			res := Load([]Dir{{Path: dir, Root: dir}}, relTo(dir), tt.opts)
			if diff := cmp.Diff(tt.want, diagLines(res)); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if tt.addrs != nil {
				if diff := cmp.Diff(tt.addrs, addrs(res)); diff != "" {
					t.Errorf("resources (-want +got):\n%s", diff)
				}
			}
		})
	}
}
