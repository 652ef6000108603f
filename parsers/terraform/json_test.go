package terraform

import (
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

func TestFacts(t *testing.T) {
	src := source(t, "claim.tf")
	rs := byAddr(t, loadDir(t, normalizeDir, Options{}))
	data := rs["kubernetes_persistent_volume_claim_v1.data"]
	header := `resource "kubernetes_persistent_volume_claim_v1" "data"`
	if n := data.Facts[graph.FactEmptyClassName]; n == nil || at(n.Range) != span(t, "claim.tf", src, header, `""`) {
		t.Errorf("empty class fact = %v", n)
	}
	if n := data.Facts[graph.FactWaitUntilBound]; n == nil || n.Str() != "false" || at(n.Range) != span(t, "claim.tf", src, header, "false") {
		t.Errorf("wait_until_bound fact = %v", n)
	}
	bound := rs["kubernetes_persistent_volume_claim.bound"]
	want := span(t, "claim.tf", src, `resource "kubernetes_persistent_volume_claim" "bound"`, `resource "kubernetes_persistent_volume_claim" "bound"`)
	if n := bound.Facts[graph.FactWaitUntilBound]; len(bound.Facts) != 1 || n.Str() != "true" || at(n.Range) != want {
		t.Errorf("a claim that leaves wait_until_bound unset waits, at its block: %v", bound.Facts)
	}
	if f := rs["kubernetes_persistent_volume_v1.disk"].Facts; f != nil {
		t.Errorf("a volume has no claim facts: %v", f)
	}
}

func TestJSONConfiguration(t *testing.T) {
	const file = "main.tf.json"
	srcBytes, err := os.ReadFile("../../testdata/terraform/json/" + file)
	if err != nil {
		t.Fatal(err)
	}
	src := string(srcBytes)
	rs := byAddr(t, loadDir(t, "../../testdata/terraform/json", Options{}))
	tests := []struct {
		addr   string
		path   []string
		want   string
		val    string // text whose range the value has, searched from after
		after  string
		header bool // the value sits at the resource's header (a provider default)
	}{
		{"kubernetes_storage_class_v1.slow", []string{"metadata", "name"}, "slow", `"${local.class}"`, `"slow"`, false},
		{"kubernetes_storage_class_v1.slow", []string{"volumeBindingMode"}, "Immediate", `"slow"`, `"kubernetes_storage_class_v1"`, true},
		{"kubernetes_persistent_volume_claim_v1.data", []string{"metadata", "labels", "app.kubernetes.io/name"}, "web", `"web"`, `"data"`, false},
		{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "accessModes", "0"}, "ReadWriteOnce", `"ReadWriteOnce"`, `"data"`, false},
		{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "storageClassName"}, "slow", `"${kubernetes_storage_class_v1.slow.metadata[0].name}"`, `"data"`, false},
		{"kubernetes_persistent_volume_claim_v1.data", []string{"spec", "resources", "requests", "storage"}, "5Gi", `"5Gi"`, `"data"`, false},
		{"kubernetes_deployment_v1.web", []string{"spec", "replicas"}, "3", `"${var.replicas}"`, `"web"`, false},
		{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, "data", `"data"`, `"claim_name"`, false},
		{"kubernetes_deployment_v1.web", []string{"spec", "template", "spec", "containers", "0", "volumeMounts", "0", "mountPath"}, "/data", `"/data"`, `"web"`, false},
	}
	for _, tt := range tests {
		t.Run(tt.addr+"/"+strings.Join(tt.path, "."), func(t *testing.T) {
			r := rs[tt.addr]
			if r == nil {
				t.Fatalf("no %s", tt.addr)
			}
			n := r.Get(tt.path...)
			if n.Str() != tt.want {
				t.Fatalf("%v = %q, want %q (%v)", tt.path, n.Str(), tt.want, r.Object.Interface())
			}
			if want := span(t, file, src, tt.after, tt.val); at(n.Range) != want {
				t.Errorf("%v at %s, want %s", tt.path, at(n.Range), want)
			}
		})
	}
	if f := rs["kubernetes_persistent_volume_claim_v1.data"].Facts[graph.FactWaitUntilBound]; f.Str() != "true" {
		t.Errorf("wait_until_bound fact = %v", f)
	}
	if got := at(rs["kubernetes_deployment_v1.web"].Range); got != "main.tf.json:43:7-77:8" {
		t.Errorf("deployment block at %s", got)
	}
}

func TestPlan(t *testing.T) {
	data, err := os.ReadFile("../../testdata/terraform/plan/plan.json")
	if err != nil {
		t.Fatal(err)
	}
	rs, diags, ok := ParsePlan("plan.json", data)
	if !ok || len(diags) > 0 {
		t.Fatalf("isPlan %v, diagnostics %v", ok, diags)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.Origin.Address+" "+r.String()+" "+at(r.Range)+" "+string(r.Origin.Format))
	}
	want := []string{
		"kubernetes_storage_class_v1.standard StorageClass/standard plan.json:12:9-43:10 terraform-plan",
		"kubernetes_persistent_volume_claim_v1.data PersistentVolumeClaim/shop/data plan.json:44:9-83:10 terraform-plan",
		"module.app.kubernetes_deployment_v1.web Deployment/shop/web plan.json:104:13-185:14 terraform-plan",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("resources (-want +got):\n%s", diff)
	}
	claim, deploy := rs[1], rs[2]
	checks := []struct {
		r    *graph.Resource
		path []string
		want string
		line int32
	}{
		{rs[0], []string{"volumeBindingMode"}, "Immediate", 37},
		{rs[0], []string{"provisioner"}, "ebs.csi.aws.com", 35},
		{claim, []string{"spec", "storageClassName"}, "standard", 75},
		{claim, []string{"spec", "volumeName"}, "<unknown>", 62},
		{claim, []string{"metadata", "uid"}, "<unknown>", 53},
		{deploy, []string{"spec", "replicas"}, "3", 125},
		{deploy, []string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, "data", 169},
	}
	for _, c := range checks {
		n := c.r.Get(c.path...)
		got := n.Str()
		if n.IsUnknown() {
			got = "<unknown>"
		}
		if got != c.want || n.Range.Start.Line != c.line {
			t.Errorf("%s %v = %q at line %d, want %q at %d", c.r.Origin.Address, c.path, got, n.Range.Start.Line, c.want, c.line)
		}
	}
	if f := claim.Facts[graph.FactWaitUntilBound]; f.Str() != "true" || f.Range.Start.Line != 80 {
		t.Errorf("wait_until_bound fact = %v", f)
	}
	if deploy.Get("spec", "strategy") != nil || deploy.Get("spec", "template", "spec", "nodeName") != nil {
		t.Errorf("empty blocks and empty strings of the plan must be absent: %v", deploy.Object.Interface())
	}
}

func TestPlanDetection(t *testing.T) {
	tests := []struct {
		name, src string
		isPlan    bool
		n, diags  int
	}{
		{"state", `{"format_version":"1.0","terraform_version":"1.9.5","values":{"root_module":{"resources":[
			{"address":"kubernetes_storage_class.s","mode":"managed","type":"kubernetes_storage_class","name":"s",
			 "values":{"metadata":[{"name":"s"}],"storage_provisioner":"x","volume_binding_mode":"Immediate"}}]}}}`, true, 1, 0},
		{"manifest", `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"format_version"}}`, false, 0, 0},
		{"empty plan", `{"format_version":"1.2","terraform_version":"1.9.5"}`, true, 0, 0},
		{"broken plan", `{"format_version":"1.2","terraform_version":"1.9.5", "planned_values": {`, true, 0, 1},
		{"not JSON", `format_version: x`, false, 0, 0},
		{"manifest in a plan", `{"format_version":"1.2","terraform_version":"1.9.5","planned_values":{"root_module":{"resources":[
			{"address":"kubernetes_manifest.m","mode":"managed","type":"kubernetes_manifest","name":"m",
			 "values":{"manifest":{"apiVersion":"v1","kind":"PersistentVolumeClaim","metadata":{"name":"m"}}}}]}}}`, true, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rs, diags, ok := ParsePlan("p.json", []byte(tt.src))
			if ok != tt.isPlan || len(rs) != tt.n || len(diags) != tt.diags {
				t.Errorf("isPlan %v with %d resources and %v, want %v, %d, %d diagnostics", ok, len(rs), diags, tt.isPlan, tt.n, tt.diags)
			}
		})
	}
}

// TestPlanNamesUnknownByAddress: a name the plan knows only after apply becomes the
// resource's address, for kubernetes_* resources and kubernetes_manifest objects, so
// two such claims stay two resources; known names and namespaces are unchanged.
func TestPlanNamesUnknownByAddress(t *testing.T) {
	claim := func(addr, name string) string {
		return `{"address": "` + addr + `", "mode": "managed", "type": "kubernetes_persistent_volume_claim_v1", "name": "x",
			"values": {"metadata": [{"namespace": "shop"` + name + `}], "spec": [{"access_modes": ["ReadWriteOnce"]}]}}`
	}
	src := `{"format_version": "1.2", "terraform_version": "1.9.5", "planned_values": {"root_module": {"resources": [` +
		claim("kubernetes_persistent_volume_claim_v1.a", "") + `,` +
		claim("kubernetes_persistent_volume_claim_v1.b", "") + `,` +
		claim("kubernetes_persistent_volume_claim_v1.known", `, "name": "known"`) + `,
		{"address": "kubernetes_manifest.cm", "mode": "managed", "type": "kubernetes_manifest", "name": "cm",
			"values": {"manifest": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"namespace": "shop"}}}}
	]}},
	"resource_changes": [
		{"address": "kubernetes_persistent_volume_claim_v1.a", "change": {"after_unknown": {"metadata": [{"name": true}]}}},
		{"address": "kubernetes_persistent_volume_claim_v1.b", "change": {"after_unknown": {"metadata": [{"name": true}]}}},
		{"address": "kubernetes_manifest.cm", "change": {"after_unknown": {"manifest": {"metadata": {"name": true}}}}}
	]}`
	rs, diags, ok := ParsePlan("plan.json", []byte(src))
	if !ok || len(diags) > 0 {
		t.Fatalf("isPlan %v, diagnostics %v", ok, diags)
	}
	var got []string
	for _, r := range rs {
		got = append(got, r.String())
	}
	want := []string{
		"PersistentVolumeClaim/shop/kubernetes_persistent_volume_claim_v1.a",
		"PersistentVolumeClaim/shop/kubernetes_persistent_volume_claim_v1.b",
		"PersistentVolumeClaim/shop/known",
		"ConfigMap/shop/kubernetes_manifest.cm",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
	g := graph.New(rs, graph.Options{})
	if a, b := g.Lookup("PersistentVolumeClaim", "shop", rs[0].Name), g.Lookup("PersistentVolumeClaim", "shop", rs[1].Name); a == b {
		t.Error("two claims whose names are known after apply are one resource of the graph")
	}
}
