package terraform

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

func TestDependencies(t *testing.T) {
	rs := byAddr(t, loadDir(t, "../../testdata/terraform/deps", Options{}))
	claim := func(r *graph.Resource) *graph.Node {
		if r == nil {
			t.Fatal("resource missing")
		}
		vols := graph.PodSpec(r).Get("volumes").List()
		if len(vols) == 0 {
			return nil
		}
		return vols[0].Get("persistentVolumeClaim", "claimName")
	}
	tests := []struct {
		addr string
		deps []string
		ref  string
	}{
		{"kubernetes_deployment_v1.web", []string{"kubernetes_persistent_volume_claim_v1.data"}, "kubernetes_persistent_volume_claim_v1.data"},
		{"kubernetes_deployment_v1.literal", nil, ""},
		{"kubernetes_deployment_v1.after", []string{"kubernetes_persistent_volume_claim_v1.logs"}, ""},
		{"module.app.kubernetes_pod_v1.job", []string{"kubernetes_persistent_volume_claim_v1.data", "kubernetes_persistent_volume_claim_v1.logs"}, "kubernetes_persistent_volume_claim_v1.data"},
		{"kubernetes_persistent_volume_claim_v1.data", nil, ""},
	}
	for _, tt := range tests {
		r := rs[tt.addr]
		if r == nil {
			t.Errorf("%s: not emitted", tt.addr)
			continue
		}
		if diff := cmp.Diff(tt.deps, r.DependsOn()); diff != "" {
			t.Errorf("%s: dependencies (-want +got):\n%s", tt.addr, diff)
		}
		if r.Kind == "PersistentVolumeClaim" {
			continue
		}
		if got := r.TerraformRef(claim(r)); got != tt.ref {
			t.Errorf("%s: claim_name refers to %q, want %q", tt.addr, got, tt.ref)
		}
		if r.Origin.Root != "." {
			t.Errorf("%s: root %q, want .", tt.addr, r.Origin.Root)
		}
	}
}
