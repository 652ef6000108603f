package policy

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
)

// objects is a small world: two namespaced objects and a cluster-scoped one.
const objects = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  namespace: app
data:
  mode: fast
  replicas: "3"
---
apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: data
  namespace: app
spec:
  accessModes: [ReadWriteOnce]
  storageClassName: gp3
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata:
  name: gp3
provisioner: ebs.csi.aws.com
`

// graphOf parses YAML into a graph.
func graphOf(t testing.TB, src string) *graph.Graph {
	t.Helper()
	rs, diags := manifest.Parse("objects.yaml", []byte(src), manifest.Options{})
	if len(diags) > 0 {
		t.Fatalf("parse fixture: %v", diags)
	}
	return graph.New(rs, graph.Options{})
}

// compile compiles one user policy module.
func compile(t testing.TB, src string, opts Options) *lint.Rule {
	t.Helper()
	rs, err := Compile([]Module{{Name: "p.rego", Source: src}}, opts)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	if len(rs) != 1 {
		t.Fatalf("Compile returned %d rules, want 1", len(rs))
	}
	return rs[0]
}

// got is a finding reduced to what tests compare.
type got struct {
	At       string
	Path     string // lint.Finding.Path, dotted
	Severity string
	Message  string
	Related  []string
}

// check runs a rule over a graph and returns its findings and recorded failures.
func check(r *lint.Rule, g *graph.Graph) ([]got, []error) {
	var out []got
	p := lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) {
		x := got{At: f.Range.String(), Path: strings.Join(f.Path, "."), Severity: f.Severity.String(), Message: f.Message}
		for _, rel := range f.Related {
			x.Related = append(x.Related, rel.Range.String()+" "+rel.Message)
		}
		out = append(out, x)
	})
	r.Check(p)
	return out, p.Errors()
}

const header = `# METADATA
# title: Test policy
# description: A policy written for the adapter's tests.
# custom:
#   id: TST001
#   name: test-policy
#   remediation: Nothing to fix.
#   tags: [test]
`

func TestMetadataBecomesTheRule(t *testing.T) {
	r := compile(t, header+`#   kinds: [ConfigMap, PersistentVolumeClaim]
package test.meta

deny contains "x" if false
`, Options{Doc: func(id string) string { return "page of " + id }})
	want := lint.Rule{
		ID: "TST001", Name: "test-policy", Severity: lint.Error,
		Summary: "Test policy", Description: "A policy written for the adapter's tests.",
		Remediation: "Nothing to fix.", Doc: "page of TST001",
		Tags: []string{"test"}, Kinds: []string{"ConfigMap", "PersistentVolumeClaim"},
	}
	r.Check = nil
	if diff := cmp.Diff(want, *r); diff != "" {
		t.Errorf("rule (-want +got):\n%s", diff)
	}
}

func TestDocFallsBackToMetadata(t *testing.T) {
	r := compile(t, header+"package test.doc\n\nwarn contains \"x\" if false\n", Options{})
	for _, s := range []string{"# TST001 test-policy", "A policy written for the adapter's tests.", "Nothing to fix."} {
		if !strings.Contains(r.Doc, s) {
			t.Errorf("generated Doc lacks %q:\n%s", s, r.Doc)
		}
	}
	if r.Severity != lint.Warning {
		t.Errorf("a warn-only policy without custom.severity has severity %s, want warning", r.Severity)
	}
}

func TestResultsBecomeFindings(t *testing.T) {
	r := compile(t, header+`#   kinds: [ConfigMap]
package test.results

deny contains "plain message" if true

deny contains {"msg": "at a dotted path", "path": "data.mode"} if true

deny contains {"msg": "at an array path", "path": ["data", "replicas"]} if true

deny contains {"msg": "deepest existing node", "path": ["data", "missing", 0]} if true

warn contains {"message": "message alias, overridden level", "severity": "note", "path": ["metadata", "namespace"]} if true

warn contains {"msg": "with related", "path": ["data"], "related": [
	{"kind": "PersistentVolumeClaim", "name": "data", "path": ["spec", "accessModes"], "msg": "the claim"},
	{"kind": "StorageClass", "name": "gp3", "msg": "the class"},
	{"kind": "StorageClass", "name": "absent", "msg": "skipped: not in the graph"},
	{"path": ["data", "mode"], "msg": "same resource"},
]} if true
`, Options{})
	findings, errs := check(r, graphOf(t, objects))
	if len(errs) > 0 {
		t.Fatalf("Check failed: %v", errs)
	}
	// Sets are ordered by value: strings before objects, objects by their keys' values.
	want := []got{
		{At: "objects.yaml:4:3", Severity: "error", Message: "plain message"},
		{At: "objects.yaml:7:3", Path: "data.mode", Severity: "error", Message: "at a dotted path"},
		{At: "objects.yaml:8:3", Path: "data.replicas", Severity: "error", Message: "at an array path"},
		{At: "objects.yaml:6:1", Path: "data.missing.0", Severity: "error", Message: "deepest existing node"},
		{At: "objects.yaml:5:3", Path: "metadata.namespace", Severity: "note", Message: "message alias, overridden level"},
		{At: "objects.yaml:6:1", Path: "data", Severity: "warning", Message: "with related", Related: []string{
			"objects.yaml:16:3 the claim",
			"objects.yaml:19:1 the class",
			"objects.yaml:7:3 same resource",
		}},
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}

func TestMetadataSeverityWins(t *testing.T) {
	r := compile(t, strings.Replace(header, "#   tags", "#   severity: note\n#   tags", 1)+`#   kinds: [StorageClass]
package test.severity

deny contains "denied" if true

warn contains "warned" if true
`, Options{})
	findings, _ := check(r, graphOf(t, objects))
	for _, f := range findings {
		if f.Severity != "note" {
			t.Errorf("%q has severity %s, want note from custom.severity", f.Message, f.Severity)
		}
	}
	if len(findings) != 2 || r.Severity != lint.Note {
		t.Errorf("got %d findings and rule severity %s, want 2 and note", len(findings), r.Severity)
	}
}

func TestOnlyDeclaredKindsAreEvaluated(t *testing.T) {
	r := compile(t, header+`#   kinds: [PersistentVolumeClaim]
package test.kinds

violation contains input.kind if true
`, Options{})
	findings, _ := check(r, graphOf(t, objects))
	if len(findings) != 1 || findings[0].Message != "PersistentVolumeClaim" {
		t.Errorf("findings = %+v, want one on the PersistentVolumeClaim", findings)
	}
	all := compile(t, header+"package test.all\n\nviolation contains input.kind if true\n", Options{})
	if findings, _ := check(all, graphOf(t, objects)); len(findings) != 3 {
		t.Errorf("a policy without kinds made %d findings, want one per resource (3)", len(findings))
	}
}

func TestInventoryLayout(t *testing.T) {
	r := compile(t, header+`#   kinds: [PersistentVolumeClaim]
package test.inventory

deny contains msg if {
	cm := data.inventory.namespace[input.metadata.namespace].v1.ConfigMap.settings
	sc := data.inventory.cluster["storage.k8s.io/v1"].StorageClass[input.spec.storageClassName]
	msg := sprintf("mode %s, provisioner %s, %d namespaces", [cm.data.mode, sc.provisioner, count(data.inventory.namespace)])
}

deny contains sprintf("EBS is %s and %s", [p.backend, p.topology]) if {
	p := data.pvlint.provisioners["ebs.csi.aws.com"]
}
`, Options{})
	findings, errs := check(r, graphOf(t, objects))
	if len(errs) > 0 {
		t.Fatalf("Check failed: %v", errs)
	}
	var msgs []string
	for _, f := range findings {
		msgs = append(msgs, f.Message)
	}
	want := []string{"EBS is attachable and zonal", "mode fast, provisioner ebs.csi.aws.com, 1 namespaces"}
	if diff := cmp.Diff(want, msgs); diff != "" {
		t.Errorf("messages (-want +got):\n%s", diff)
	}
}

// TestDeniedBuiltinsDoNotCompile: a policy calling a builtin that reaches the network,
// the file system or the environment through its arguments does not compile, and the
// error names the builtin, why, and the call's position. Both the embedded-policy path
// and a user's policy (Custom) are checked: the file canary a json.match_schema $ref
// names would be opened at evaluation, which never comes.
func TestDeniedBuiltinsDoNotCompile(t *testing.T) {
	canary := filepath.Join(t.TempDir(), "canary.json")
	calls := map[string]string{
		"http.send":          `http.send({"method": "get", "url": "http://example.com"})`,
		"net.lookup_ip_addr": `net.lookup_ip_addr("example.com")`,
		"opa.runtime":        `opa.runtime()`,
		"json.verify_schema": `json.verify_schema({"$ref": "file://` + canary + `"})`,
		"json.match_schema":  `json.match_schema({}, {"$ref": "file://` + canary + `"})`,
	}
	if len(calls) != len(forbidden) {
		t.Fatalf("the test covers %d builtins, forbidden holds %d", len(calls), len(forbidden))
	}
	for name, call := range calls {
		for _, custom := range []bool{false, true} {
			src := header + "package test.net\n\ndeny contains sprintf(\"%v\", [x]) if { x := " + call + " }\n"
			_, err := Compile([]Module{{Name: "net.rego", Source: src}}, Options{Custom: custom})
			line := strings.Count(header, "\n") + 3
			want := fmt.Sprintf("net.rego:%d:44: rego_type_error: undefined function %s (pvlint denies builtin %s: %s;", line, name, name, forbidden[name])
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%s (custom %v): Compile error = %v, want %q", name, custom, err, want)
			}
		}
	}
	for name := range forbidden {
		src := "package p\n\ntest_x if " + calls[name] + "\n"
		if _, err := Test([]Module{{Name: "p_test.rego", Source: src}}, time.Second); err == nil || !strings.Contains(err.Error(), "pvlint denies builtin "+name) {
			t.Errorf("pvlint test with %s: error %v, want it denied", name, err)
		}
	}
}

// TestBuiltinNamespacesReviewed fails when an OPA upgrade brings a builtin in a
// namespace nobody has reviewed for file, network or environment access: review it,
// deny it in forbidden if it reaches any of them, then add the namespace here.
func TestBuiltinNamespacesReviewed(t *testing.T) {
	reviewed := map[string]bool{
		"(top)": true, "array": true, "base64": true, "base64url": true, "bits": true, "crypto": true,
		"crypto.hmac": true, "crypto.x509": true, "glob": true, "graph": true, "graphql": true, "hex": true,
		"http": true, "internal": true, "io.jwt": true, "json": true, "net": true, "numbers": true,
		"object": true, "opa": true, "providers.aws": true, "rand": true, "regex": true, "rego": true,
		"rego.metadata": true, "semver": true, "strings": true, "time": true, "units": true, "uri": true,
		"urlquery": true, "uuid": true, "yaml": true,
	}
	for _, b := range ast.CapabilitiesForThisVersion().Builtins {
		ns := "(top)"
		if i := strings.LastIndex(b.Name, "."); i >= 0 {
			ns = b.Name[:i]
		}
		if !reviewed[ns] {
			t.Errorf("builtin %s is in namespace %s, not reviewed for file, network or environment access", b.Name, ns)
		}
	}
	caps := capabilities()
	for _, b := range caps.Builtins {
		if _, denied := forbidden[b.Name]; denied {
			t.Errorf("capabilities keep denied builtin %s", b.Name)
		}
	}
	if caps.AllowNet == nil || len(caps.AllowNet) != 0 {
		t.Errorf("AllowNet = %#v, want empty (no host)", caps.AllowNet)
	}
}

func TestTimeBudget(t *testing.T) {
	r := compile(t, header+`#   kinds: [ConfigMap]
package test.slow

deny contains "never" if {
	count([x | some x in numbers.range(1, 100000000)]) < 0
}
`, Options{Budget: 20 * time.Millisecond})
	start := time.Now()
	findings, errs := check(r, graphOf(t, objects))
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("Check took %s, want it stopped near its 20ms budget", elapsed)
	}
	if len(findings) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Error(), "time budget") {
		t.Errorf("findings %v, errors %v; want one time-budget error", findings, errs)
	}
}

func TestBadResultsAreReportedNotPanicked(t *testing.T) {
	r := compile(t, header+`#   kinds: [StorageClass]
package test.bad

deny contains 42 if true

deny contains {"msg": "bad path", "path": [{"a": 1}]} if true

deny contains {"msg": "bad level", "severity": "fatal"} if true

deny contains "still reported" if true
`, Options{})
	findings, errs := check(r, graphOf(t, objects))
	if len(findings) != 1 || findings[0].Message != "still reported" {
		t.Errorf("findings = %+v, want only the valid one", findings)
	}
	if len(errs) != 3 {
		t.Errorf("errors = %v, want 3 (number, bad path, bad severity)", errs)
	}
}

func TestCompileErrors(t *testing.T) {
	valid := header + "package test.ok\n\ndeny contains \"x\" if false\n"
	for name, mods := range map[string][]Module{
		"no metadata":    {{Name: "a.rego", Source: "package a\n\ndeny contains \"x\" if true\n"}},
		"bad id":         {{Name: "a.rego", Source: strings.Replace(valid, "TST001", "tst-1", 1)}},
		"bad name":       {{Name: "a.rego", Source: strings.Replace(valid, "test-policy", "Test Policy", 1)}},
		"bad severity":   {{Name: "a.rego", Source: strings.Replace(valid, "#   tags", "#   severity: fatal\n#   tags", 1)}},
		"kinds not list": {{Name: "a.rego", Source: strings.Replace(valid, "#   tags: [test]", "#   kinds: ConfigMap", 1)}},
		"syntax":         {{Name: "a.rego", Source: header + "package a\n\ndeny contains if\n"}},
		"v0 syntax":      {{Name: "a.rego", Source: header + "package a\n\ndeny[msg] { msg := \"x\" }\n"}},
		"duplicate id":   {{Name: "a.rego", Source: valid}, {Name: "b.rego", Source: strings.Replace(valid, "test.ok", "test.other", 1)}},
	} {
		if _, err := Compile(mods, Options{}); err == nil {
			t.Errorf("%s: Compile succeeded, want an error", name)
		}
	}
}

func TestLoadReadsLibrariesAndSkipsTests(t *testing.T) {
	policies := fstest.MapFS{
		"storage/claims.rego": {Data: []byte(header + `#   kinds: [PersistentVolumeClaim]
package test.claims

import data.lib.names

warn contains names.describe(input) if true
`)},
		"storage/claims_test.rego": {Data: []byte("package test.claims_test\n\ntest_x if false\n")},
		"README.md":                {Data: []byte("not a policy")},
	}
	library := fstest.MapFS{"lib/names.rego": {Data: []byte(`package lib.names

describe(obj) := sprintf("%s %s", [obj.kind, obj.metadata.name])
`)}}
	rs, err := Load([]fs.FS{policies, library}, Options{})
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if len(rs) != 1 {
		t.Fatalf("Load returned %d rules, want 1 (the library and the test are not rules)", len(rs))
	}
	findings, errs := check(rs[0], graphOf(t, objects))
	if len(errs) > 0 || len(findings) != 1 || findings[0].Message != "PersistentVolumeClaim data" {
		t.Errorf("findings %+v, errors %v", findings, errs)
	}
}

func TestBuiltinPoliciesAreDocumented(t *testing.T) {
	rs := Builtin()
	if len(rs) == 0 {
		t.Fatal("no embedded policies")
	}
	for _, r := range rs {
		if len(r.Kinds) == 0 {
			t.Errorf("%s declares no kinds: it would be evaluated on every resource", r.ID)
		}
		if page := docs.Page(r.ID); page == "" || r.Doc != page {
			t.Errorf("%s: Doc is not the rules/docs page", r.ID)
		}
	}
}

// TestImmediateBindingLocations checks where PVL001 reports: at volumeBindingMode with
// the provisioner as a related location, or at provisioner when the mode is unset.
func TestImmediateBindingLocations(t *testing.T) {
	var rule *lint.Rule
	for _, r := range Builtin() {
		if r.ID == "PVL001" {
			rule = r
		}
	}
	if rule == nil {
		t.Fatal("PVL001 is not among the embedded policies")
	}
	g := graphOf(t, `apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: local}
provisioner: kubernetes.io/no-provisioner
volumeBindingMode: Immediate
---
apiVersion: storage.k8s.io/v1
kind: StorageClass
metadata: {name: efs}
provisioner: efs.csi.aws.com
`)
	findings, errs := check(rule, g)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	want := []got{
		{At: "objects.yaml:5:1", Path: "volumeBindingMode", Severity: "error",
			Message: "StorageClass local (provisioner kubernetes.io/no-provisioner, node-local) binds volumes immediately (volumeBindingMode Immediate): the volume's node is chosen before the pod is scheduled, so the pod can only run there or the claim never binds",
			Related: []string{"objects.yaml:4:1 provisioner kubernetes.io/no-provisioner (node-local)"}},
		{At: "objects.yaml:10:1", Path: "provisioner", Severity: "note",
			Message: "StorageClass efs (provisioner efs.csi.aws.com, reachable from every node) binds volumes immediately (volumeBindingMode unset, defaults to Immediate): placement does not matter for this backend, but WaitForFirstConsumer keeps provisioning in step with the pod"},
	}
	if diff := cmp.Diff(want, findings); diff != "" {
		t.Errorf("findings (-want +got):\n%s", diff)
	}
}
