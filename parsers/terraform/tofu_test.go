package terraform

import (
	"fmt"
	"slices"
	"sort"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

// TestTofuShadowed checks OpenTofu's precedence rule file by file: a .tofu file hides
// the .tf file of the same base name, a .tofu.json file the .tf.json one, and nothing
// else hides anything.
func TestTofuShadowed(t *testing.T) {
	present := map[string]bool{}
	for _, n := range []string{"main.tf", "main.tofu", "claim.tf.json", "claim.tofu.json",
		"web.tf", "web.tofu.json", "data.tf.json", "data.tofu", "only.tofu", "override.tf", "override.tofu"} {
		present[n] = true
	}
	want := map[string]bool{"main.tf": true, "claim.tf.json": true, "override.tf": true}
	for n := range present {
		if got := tofuShadowed(n, present); got != want[n] {
			t.Errorf("tofuShadowed(%s) = %v, want %v", n, got, want[n])
		}
	}
	for _, tc := range []struct {
		name, ext string
	}{{"a.tf", ".tf"}, {"a.tf.json", ".tf.json"}, {"a.tofu", ".tofu"}, {"a.tofu.json", ".tofu.json"},
		{"a.json", ""}, {"a.tfvars", ""}, {"a.TOFU", ""}, {"tofu", ""}, {"a.tofu.yaml", ""}} {
		if got := ConfigExt(tc.name); got != tc.ext {
			t.Errorf("ConfigExt(%s) = %q, want %q", tc.name, got, tc.ext)
		}
	}
}

// TestOpenTofuModule loads testdata/terraform/opentofu, a module mixing .tf and .tofu
// files: the resources and values are those of the .tofu files (main.tofu over
// main.tf, claim.tofu.json over claim.tf.json, override.tofu over override.tf), the
// files OpenTofu ignores are not read, and a module directory of .tofu files only is
// called and evaluated.
func TestOpenTofuModule(t *testing.T) {
	res := loadDir(t, "../../testdata/terraform/opentofu", Options{})
	rs := byAddr(t, res)
	var files []string
	for f := range res.Sources {
		files = append(files, f)
	}
	sort.Strings(files)
	if d := cmp.Diff([]string{"claim.tofu.json", "main.tofu", "modules/disks/main.tofu", "override.tofu", "web.tofu"}, files); d != "" {
		t.Errorf("files read (-want +got):\n%s", d)
	}
	var addrs []string
	for a := range rs {
		addrs = append(addrs, a)
	}
	slices.Sort(addrs)
	if d := cmp.Diff([]string{"kubernetes_deployment_v1.web", "kubernetes_persistent_volume_claim_v1.data",
		"kubernetes_storage_class_v1.gp3", "module.disks.kubernetes_storage_class_v1.this"}, addrs); d != "" {
		t.Fatalf("resources (-want +got):\n%s", d)
	}
	for _, tc := range []struct {
		addr string
		path []string
		want string
	}{
		{"kubernetes_storage_class_v1.gp3", []string{"volumeBindingMode"}, "WaitForFirstConsumer"},
		{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "storageClassName"}, "gp3"},
		{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "accessModes"}, "[ReadWriteOnce]"},
		{"kubernetes_deployment_v1.web", []string{"spec", "replicas"}, "3"},
		{"module.disks.kubernetes_storage_class_v1.this", []string{"metadata", "name"}, "cache"},
	} {
		n := rs[tc.addr].Object.Get(tc.path...)
		got := n.Str()
		if items := n.Strings(); n.Is(graph.List) {
			got = fmt.Sprint(items)
		} else if i, ok := n.Int(); ok {
			got = fmt.Sprint(i)
		}
		if got != tc.want {
			t.Errorf("%s %v = %q, want %q", tc.addr, tc.path, got, tc.want)
		}
	}
}
