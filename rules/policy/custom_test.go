package policy

import (
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
)

// deployment is the single Deployment Conftest's examples lint.
const deployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels:
    app: web
spec:
  replicas: 2
  template:
    spec:
      containers:
        - name: web
          image: nginx
`

// compileCustom compiles a user's modules (name → source) and fails the test on error.
func compileCustom(t *testing.T, opts Options, files ...string) []*lint.Rule {
	t.Helper()
	opts.Custom = true
	if opts.Isolate == nil {
		opts.Isolate = testIsolate
	}
	var mods []Module
	for i := 0; i+1 < len(files); i += 2 {
		mods = append(mods, Module{Name: files[i], Source: files[i+1]})
	}
	rs, err := Compile(mods, opts)
	if err != nil {
		t.Fatalf("Compile: %v", err)
	}
	return rs
}

// TestConftestPoliciesWorkUnchanged: Conftest's own example policy in Rego v0 and
// the same policy in v1, without METADATA, over one Deployment.
func TestConftestPoliciesWorkUnchanged(t *testing.T) {
	v0 := `package main

deny[msg] {
  input.kind == "Deployment"
  not input.spec.template.spec.securityContext.runAsNonRoot
  msg := "Containers must not run as root"
}

warn_labels[msg] {
  not input.metadata.labels.owner
  msg := sprintf("%s has no owner label", [input.metadata.name])
}

violation[{"msg": msg}] {
  input.spec.replicas < 3
  msg := "fewer than 3 replicas"
}
`
	v1 := `package main

import rego.v1

deny contains msg if {
	input.kind == "Deployment"
	not input.spec.template.spec.securityContext.runAsNonRoot
	msg := "Containers must not run as root"
}
`
	for name, src := range map[string]string{"v0": v0, "v1": v1} {
		t.Run(name, func(t *testing.T) {
			rs := compileCustom(t, Options{}, "policy/deny.rego", src)
			if len(rs) != 1 {
				t.Fatalf("%d rules, want 1", len(rs))
			}
			r := rs[0]
			if r.ID != "user.main" || r.Name != "main" || r.Policy != "policy/deny.rego" || r.Severity != lint.Error || r.Summary != "custom policy main" {
				t.Errorf("rule = %s %s policy %q severity %s summary %q", r.ID, r.Name, r.Policy, r.Severity, r.Summary)
			}
			findings, errs := check(r, graphOf(t, deployment))
			if len(errs) > 0 {
				t.Fatal(errs)
			}
			want := []got{{At: "objects.yaml:4:3", Severity: "error", Message: "Containers must not run as root"}}
			if name == "v0" {
				want = []got{
					want[0],
					{At: "objects.yaml:4:3", Severity: "error", Message: "fewer than 3 replicas"},
					{At: "objects.yaml:4:3", Severity: "warning", Message: "web has no owner label"},
				}
			}
			if d := cmp.Diff(want, findings); d != "" {
				t.Errorf("findings (-want +got):\n%s", d)
			}
		})
	}
}

func TestCustomMetadata(t *testing.T) {
	rs := compileCustom(t, Options{},
		"a.rego", `# METADATA
# title: Deployments name an owner
# description: Every Deployment carries an owner label.
# related_resources:
#   - ref: https://example.com/labels
# custom:
#   severity: note
#   kinds: [Deployment]
package acme.labels

deny contains "no owner" if not input.metadata.labels.owner
`,
		"b.rego", `# METADATA
# title: Claims are backed up
# custom:
#   id: ACME-002
#   name: backup-label
package acme.backup_label

warn contains "x" if false
`,
		"lib.rego", "package acme.lib\n\nowner(o) := o.metadata.labels.owner\n")
	type row struct{ ID, Name, Severity, Summary, Policy string }
	var got []row
	for _, r := range rs {
		got = append(got, row{r.ID, r.Name, r.Severity.String(), r.Summary, r.Policy})
	}
	want := []row{
		{"ACME-002", "backup-label", "warning", "Claims are backed up", "b.rego"},
		{"user.acme.labels", "acme-labels", "note", "Deployments name an owner", "a.rego"},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("rules (-want +got):\n%s", d)
	}
	if doc := rs[1].Doc; !strings.Contains(doc, "Every Deployment carries an owner label.") || !strings.Contains(doc, "- https://example.com/labels") {
		t.Errorf("generated page:\n%s", doc)
	}
	if k := rs[1].Kinds; len(k) != 1 || k[0] != "Deployment" {
		t.Errorf("kinds = %v", k)
	}
}

// TestCustomCompileErrors: each problem names the file and line of its cause.
func TestCustomCompileErrors(t *testing.T) {
	meta := func(custom string) string {
		return "# METADATA\n# title: t\n# custom:\n" + custom + "package p\n\ndeny contains \"x\" if false\n"
	}
	tests := []struct {
		name, src, want string
	}{
		{"syntax v1", "package p\n\ndeny contains msg if {\n\tmsg := \n}\n", "p.rego:5:1: rego_parse_error: unexpected } token"},
		{"syntax v0 reported as v0", "package p\n\ndeny[msg] {\n  input.kind == \"Deployment\"\n  msg := \n}\n", "p.rego:6:1: rego_parse_error: unexpected } token"},
		{"unsafe var", "package p\n\ndeny contains msg if input.x\n", "p.rego:3:15: rego_unsafe_var_error: var msg is unsafe"},
		{"http.send", "package p\n\ndeny contains sprintf(\"%v\", [r]) if r := http.send({\"method\": \"get\", \"url\": \"http://example.com\"})\n", "p.rego:3:42: rego_type_error: undefined function http.send"},
		{"object rule", "package p\n\ndeny[msg] if msg := \"x\"\n", "p.rego:3:1: rule deny[msg] defines an object in Rego v1; write `deny contains msg if { ... }` for a set of results"},
		{"reserved id", meta("#   id: PVL001\n"), "p.rego:1:1: METADATA: custom.id \"PVL001\" is reserved: IDs starting with PVL and a digit are pvlint's own rules"},
		{"reserved id lower case", meta("#   id: pvl123x\n"), "reserved"},
		{"bad id", meta("#   id: has space\n"), "custom.id \"has space\" must be letters and digits"},
		{"bad name", meta("#   name: Not Kebab\n"), "custom.name \"Not Kebab\" must be kebab-case"},
		{"bad severity", meta("#   severity: fatal\n"), "p.rego:1:1: METADATA: custom.severity: unknown severity \"fatal\""},
		{"reserved package", "package pvlint.mine\n\ndeny contains \"x\" if false\n", "p.rego:1:1: rego_compile_error: package pvlint.mine is reserved for pvlint's data.pvlint document"},
		{"reserved inventory", "package inventory\n\nx := 1\n", "package inventory is reserved"},
		{"underivable", "package p[\"a b\"]\n\ndeny contains \"x\" if false\n", "p.rego: cannot make a rule ID from package p[\"a b\"]; set custom.id"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Compile([]Module{{Name: "p.rego", Source: tt.src}}, Options{Custom: true})
			var ce *CompileError
			if !errors.As(err, &ce) {
				t.Fatalf("Compile error = %v (%T), want a *CompileError", err, err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error:\n%v\nwant it to contain:\n%s", err, tt.want)
			}
		})
	}
	// Two files of different packages that both take one ID.
	dup := meta("#   id: ACME001\n")
	_, err := Compile([]Module{{Name: "a.rego", Source: dup}, {Name: "b.rego", Source: strings.Replace(dup, "package p", "package q", 1)}}, Options{Custom: true})
	if err == nil || !strings.Contains(err.Error(), "b.rego:1:1: a.rego and b.rego both declare id ACME001") {
		t.Errorf("duplicate id: %v", err)
	}
}

// TestResourceDocument: data.pvlint.resource describes where the input came from.
func TestResourceDocument(t *testing.T) {
	rs := compileCustom(t, Options{}, "p.rego", `package origin

deny contains json.marshal(data.pvlint.resource) if input.kind == "PersistentVolumeClaim"
`)
	findings, errs := check(rs[0], graphOf(t, objects))
	if len(errs) > 0 || len(findings) != 1 {
		t.Fatalf("findings %v, errors %v", findings, errs)
	}
	want := `{"address":"","document":1,"file":"objects.yaml","format":"yaml","namespace":"app","source":"","unknown":[],"variant":""}`
	if findings[0].Message != want {
		t.Errorf("data.pvlint.resource = %s\nwant %s", findings[0].Message, want)
	}
}

// TestUnknownPaths: values only known after apply are null in input and listed in
// data.pvlint.resource.unknown.
func TestUnknownPaths(t *testing.T) {
	unknown := &graph.Node{Kind: graph.Unknown}
	obj := &graph.Node{Kind: graph.Map, Contents: &graph.Contents{Fields: []graph.Field{
		{Key: "metadata", Value: &graph.Node{Kind: graph.Map, Contents: &graph.Contents{Fields: []graph.Field{{Key: "name", Value: &graph.Node{Kind: graph.String, Scalar: "web"}}}}}},
		{Key: "spec", Value: &graph.Node{Kind: graph.Map, Contents: &graph.Contents{Fields: []graph.Field{
			{Key: "replicas", Value: unknown},
			{Key: "volumes", Value: &graph.Node{Kind: graph.List, Contents: &graph.Contents{Items: []*graph.Node{{Kind: graph.Map}, unknown}}}},
		}}}},
	}}}
	g := graph.New([]*graph.Resource{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", Object: obj,
		Origin: graph.Origin{Format: graph.FormatTerraform, File: "main.tf", Address: "kubernetes_deployment_v1.web"}}}, graph.Options{})
	rs := compileCustom(t, Options{}, "p.rego", `package unknown

deny contains sprintf("%v %v %s", [input.spec.replicas, data.pvlint.resource.unknown, data.pvlint.resource.address]) if true
`)
	findings, errs := check(rs[0], g)
	if len(errs) > 0 || len(findings) != 1 {
		t.Fatalf("findings %v, errors %v", findings, errs)
	}
	if want := `null [["spec", "replicas"], ["spec", "volumes", 1]] kubernetes_deployment_v1.web`; findings[0].Message != want {
		t.Errorf("message %q, want %q", findings[0].Message, want)
	}
}

// TestWithKeywordAndInventory: a policy may replace any document with `with` while it
// reads data.inventory (OPA's resolvers could not be read under `with`).
func TestWithKeywordAndInventory(t *testing.T) {
	rs := compileCustom(t, Options{}, "p.rego", `package referential

import rego.v1

claims contains name if some name, _ in data.inventory.namespace[input.metadata.namespace].v1.PersistentVolumeClaim

too_many := sprintf("%d claims, threshold %d", [count(claims), data.settings.threshold]) if {
	count(claims) >= data.settings.threshold
}

deny contains msg if {
	input.kind == "ConfigMap"
	msg := too_many with data.settings as {"threshold": 1}
}

deny contains "mocked inventory" if {
	input.kind == "ConfigMap"
	count(claims) == 0 with data.inventory as {"namespace": {}}
}
`)
	findings, errs := check(rs[0], graphOf(t, objects))
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var msgs []string
	for _, f := range findings {
		msgs = append(msgs, f.Message)
	}
	if d := cmp.Diff([]string{"1 claims, threshold 1", "mocked inventory"}, msgs); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
}

// TestEvalErrors: a timeout and a run-time conflict are *EvalErrors naming the policy,
// its file and the resource.
func TestEvalErrors(t *testing.T) {
	loop := compileCustom(t, Options{Budget: 50 * time.Millisecond}, "loop.rego", `package loop

deny contains "never" if {
	some i in numbers.range(1, 100000)
	some j in numbers.range(1, 100000)
	i == j + 100000
}
`)[0]
	start := time.Now()
	_, errs := check(loop, graphOf(t, objects))
	if elapsed := time.Since(start); elapsed > 5*time.Second {
		t.Errorf("stopped after %s, want near 50ms", elapsed)
	}
	var ee *EvalError
	if len(errs) != 1 || !errors.As(errs[0], &ee) || ee.Budget != 50*time.Millisecond || ee.Rule != loop {
		t.Fatalf("errors = %v, want one *EvalError with the budget", errs)
	}
	if want := "policy user.loop (loop.rego) exceeded its time budget of 50ms on ConfigMap/app/settings"; ee.Error() != want {
		t.Errorf("error %q, want %q", ee.Error(), want)
	}

	conflict := compileCustom(t, Options{}, "conflict.rego", "package conflict\n\nname := input.metadata.name\nname := input.kind\n\ndeny contains name if true\n")[0]
	_, errs = check(conflict, graphOf(t, objects))
	if len(errs) != 1 || !errors.As(errs[0], &ee) || ee.Budget != 0 || !strings.Contains(ee.Error(), "policy user.conflict (conflict.rego) failed on ConfigMap/app/settings: ") ||
		!strings.Contains(ee.Error(), "conflict") {
		t.Errorf("errors = %v, want one *EvalError for the conflict", errs)
	}
}

// TestPolicyPagesCompile: every complete policy shown on the custom-policy pages (a
// Rego block that starts with METADATA or a package) compiles as a user's policy.
func TestPolicyPagesCompile(t *testing.T) {
	blocks := 0
	for _, topic := range docs.PolicyTopics() {
		page := docs.PolicyPage(topic)
		for _, part := range strings.Split(page, "```rego\n")[1:] {
			src, _, _ := strings.Cut(part, "```")
			if !strings.HasPrefix(src, "# METADATA") && !strings.HasPrefix(src, "package ") {
				continue
			}
			blocks++
			if _, err := Compile([]Module{{Name: topic + ".md", Source: src}}, Options{Custom: true}); err != nil {
				t.Errorf("%s.md: example does not compile:\n%v\n%s", topic, err, src)
			}
		}
	}
	if blocks < 6 {
		t.Errorf("found %d policy examples, want at least one per page", blocks)
	}
}

// TestCustomFindingsHaveDistinctFingerprints: bare messages of one custom rule on one
// resource are told apart by their text (digits masked), so SARIF uploads and
// baselines keep them apart; pvlint's own policies keep path-only fingerprints.
func TestCustomFindingsHaveDistinctFingerprints(t *testing.T) {
	src := "package main\n\ndeny contains \"runs as root\" if true\n\ndeny contains sprintf(\"%d replicas\", [input.spec.replicas]) if true\n"
	r := compileCustom(t, Options{}, "p.rego", src)[0]
	var fs []lint.Finding
	pass := lint.NewPass(r, graphOf(t, deployment), lint.NewestKnown, func(f lint.Finding) { fs = append(fs, f) })
	r.Check(pass)
	if len(fs) != 2 || fs[0].Key == "" || lint.Fingerprint(fs[0]) == lint.Fingerprint(fs[1]) {
		t.Fatalf("findings %+v share a fingerprint", fs)
	}
	if fs[0].Key != "# replicas" && fs[1].Key != "# replicas" {
		t.Errorf("keys %q, %q: digits not masked", fs[0].Key, fs[1].Key)
	}
	var builtin []lint.Finding
	for _, b := range Builtin() {
		b.Check(lint.NewPass(b, graphOf(t, objects), lint.NewestKnown, func(f lint.Finding) { builtin = append(builtin, f) }))
	}
	for _, f := range builtin {
		if f.Key != "" {
			t.Errorf("%s finding has key %q", f.Rule.ID, f.Key)
		}
	}
	if len(builtin) == 0 {
		t.Error("no built-in finding to compare")
	}
}

// TestContextInInventoryNotInput: cluster context (a snapshot's claim) is in
// data.inventory, where a policy looks things up, but is never an input, since a
// finding on it would not be reported.
func TestContextInInventoryNotInput(t *testing.T) {
	rs := compileCustom(t, Options{}, "p.rego", `package ctx

import rego.v1

deny contains sprintf("%s sees claim %s", [input.metadata.name, name]) if {
	some name, _ in data.inventory.namespace.app.v1.PersistentVolumeClaim
}
`)
	g := graphOf(t, objects)
	snap, diags := manifest.Parse("snap.yaml", []byte("apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: cluster-claim, namespace: app}\n"), manifest.Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	snap[0].Origin.Context = "cluster snapshot snap.yaml"
	g = graph.New(append(append([]*graph.Resource{}, g.Resources...), snap...), graph.Options{})
	findings, errs := check(rs[0], g)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	var msgs []string
	for _, f := range findings {
		msgs = append(msgs, f.Message)
	}
	sort.Strings(msgs)
	want := []string{
		"data sees claim cluster-claim", "data sees claim data",
		"gp3 sees claim cluster-claim", "gp3 sees claim data",
		"settings sees claim cluster-claim", "settings sees claim data",
	}
	if d := cmp.Diff(want, msgs); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
}
