package terraform

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

// TestRootsDoNotDependOnOrder: directories are evaluated as they are read, before it
// is known whether a directory read later calls them. A module read before its caller
// is evaluated on its own (variables at their defaults, reading a file of its own),
// and that evaluation must leave nothing: not its resources, not the file it read, not
// its problems. Two directories calling each other are entered at the first given (ring-a here). Every
// order of the directories, evaluated as a worker would or in-process, gives one result.
func TestRootsDoNotDependOnOrder(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "lib", "main.tf"), `variable "claim" {
  default = "standalone"
}
locals {
  note = file("${path.module}/${var.claim}.txt")
}
resource "kubernetes_persistent_volume_claim_v1" "c" {
  metadata {
    name        = var.claim
    annotations = { note = local.note }
  }
}
`)
	write(t, filepath.Join(dir, "lib", "called.txt"), "read through the call")
	write(t, filepath.Join(dir, "lib", "standalone.txt"), "read only on its own")
	write(t, filepath.Join(dir, "app", "main.tf"), `module "lib" {
  source = "../lib"
  claim  = "called"
}
`)
	write(t, filepath.Join(dir, "ring-a", "main.tf"), `module "b" {
  source = "../ring-b"
}
resource "kubernetes_storage_class_v1" "a" {
  storage_provisioner = "a"
}
`)
	write(t, filepath.Join(dir, "ring-b", "main.tf"), `module "a" {
  source = "../ring-a"
}
resource "kubernetes_storage_class_v1" "b" {
  storage_provisioner = nosuchfunction()
}
`)
	names := []string{"lib", "app", "ring-a", "ring-b"}
	var first *Result
	for _, order := range [][]int{{0, 1, 2, 3}, {1, 0, 2, 3}, {2, 0, 3, 1}} {
		var dirs []Dir
		for _, i := range order {
			dirs = append(dirs, Dir{Path: filepath.Join(dir, names[i]), Root: dir})
		}
		for _, viaWire := range []bool{false, true} {
			res := Load(dirs, relTo(dir), Options{})
			if viaWire {
				var err error
				if res, err = LoadWire(dirs, relTo(dir), Options{}).Result(); err != nil {
					t.Fatal(err)
				}
			}
			// Roots are listed in the order given: compare them in one order.
			slices.SortStableFunc(res.Resources, func(a, b *graph.Resource) int { return strings.Compare(a.Origin.Address, b.Origin.Address) })
			if first == nil {
				first = res
				continue
			}
			if diff := cmp.Diff(first, res); diff != "" {
				t.Fatalf("order %v (wire %v) changes the result (-first +this):\n%s", order, viaWire, diff)
			}
		}
	}
	var got []string
	for _, r := range first.Resources {
		got = append(got, r.Origin.Address+" "+r.Name+" "+r.Get("metadata", "annotations", "note").Str())
	}
	want := []string{
		"kubernetes_storage_class_v1.a  ",
		"module.b.kubernetes_storage_class_v1.b  ",
		"module.lib.kubernetes_persistent_volume_claim_v1.c called read through the call",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	if _, ok := first.Sources["lib/standalone.txt"]; ok || first.Consumed["lib/standalone.txt"] {
		t.Error("the file only lib's own evaluation reads is a source")
	}
	if !first.Consumed["lib/called.txt"] {
		t.Errorf("consumed = %v, want lib/called.txt", first.Consumed)
	}
	wantDiags := []string{
		"ring-b/main.tf:2:12 module.a calls a module that is already being evaluated: a cycle; not read",
		`ring-b/main.tf:5:25 call to unknown function: there is no function named "nosuchfunction" in Terraform`,
	}
	if diff := cmp.Diff(wantDiags, diagLines(first)); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}
