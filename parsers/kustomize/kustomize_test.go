package kustomize

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
)

// testEnv shows paths relative to the repository root and confines reads to
// testdata/kustomize, as a run of `pvlint testdata/kustomize` from the root would.
func testEnv(t *testing.T) Env {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(root, "testdata", "kustomize")
	return Env{
		Display: func(p string) string {
			rel, _ := filepath.Rel(root, p)
			return filepath.ToSlash(rel)
		},
		Inside: func(p string) bool { return p == inside || strings.HasPrefix(p, inside+string(filepath.Separator)) },
	}
}

func build(t *testing.T, overlay string) *Result {
	t.Helper()
	return Build("../../testdata/kustomize/overlays/"+overlay, testEnv(t))
}

func get(t *testing.T, res *Result, kind string) *graph.Resource {
	t.Helper()
	for _, r := range res.Resources {
		if r.Kind == kind {
			return r
		}
	}
	t.Fatalf("no %s in %s", kind, res.Variant)
	return nil
}

func related(r *graph.Resource) []string {
	var out []string
	for _, l := range r.Related {
		out = append(out, l.Range.String()+" "+l.Message)
	}
	return out
}

// TestOverlayPatch is the case: an overlay raises the replicas of a base
// Deployment; the field is reported at the overlay's patch, the base file is related.
func TestOverlayPatch(t *testing.T) {
	res := build(t, "prod")
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	if res.Variant != "testdata/kustomize/overlays/prod" {
		t.Errorf("variant %q", res.Variant)
	}
	d := get(t, res, "Deployment")
	if d.Name != "prod-web" || d.Namespace != "prod" {
		t.Errorf("deployment %s", d)
	}
	checks := []struct {
		path  []string
		value bool
		want  string
	}{
		{[]string{"spec", "replicas"}, false, "testdata/kustomize/overlays/prod/replicas-patch.yaml:6:3"},
		{[]string{"spec", "replicas"}, true, "testdata/kustomize/overlays/prod/replicas-patch.yaml:6:13"},
		{[]string{"spec", "strategy", "type"}, false, "testdata/kustomize/base/deployment.yaml:8:5"},
		{[]string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, false, "testdata/kustomize/base/deployment.yaml:26:13"},
		// Added by the build (namespace transformer): at the nearest key the file has.
		{[]string{"metadata", "namespace"}, false, "testdata/kustomize/base/deployment.yaml:3:1"},
	}
	for _, c := range checks {
		got := d.Locate(c.path...)
		if c.value {
			got = d.Get(c.path...).Range
		}
		if got.String() != c.want {
			t.Errorf("%v at %s, want %s", c.path, got, c.want)
		}
	}
	want := []string{
		"testdata/kustomize/base/deployment.yaml:1:1 resource defined here",
		"testdata/kustomize/overlays/prod/replicas-patch.yaml:1:1 patch applied here",
		"testdata/kustomize/overlays/prod#built:28:1 build output",
	}
	if diff := cmp.Diff(want, related(d)); diff != "" {
		t.Errorf("related (-want +got):\n%s", diff)
	}
	wantOrigin := graph.Origin{Format: graph.FormatKustomize, File: "testdata/kustomize/base/deployment.yaml", Variant: "testdata/kustomize/overlays/prod"}
	if diff := cmp.Diff(wantOrigin, d.Origin); diff != "" {
		t.Errorf("origin (-want +got):\n%s", diff)
	}
	// namePrefix renames the claim and the reference to it together.
	pvc := get(t, res, "PersistentVolumeClaim")
	if claim := d.Get("spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName").Str(); claim != pvc.Name || claim != "prod-web-data" {
		t.Errorf("claim %q mounted, PVC named %q", claim, pvc.Name)
	}
	if cls := pvc.Get("spec", "storageClassName").Str(); cls != get(t, res, "StorageClass").Name {
		t.Errorf("class %q not renamed with the StorageClass", cls)
	}
	// An untouched resource has no patch locations.
	if got := related(pvc); len(got) != 1 || !strings.HasSuffix(got[0], "#built:13:1 build output") {
		t.Errorf("PVC related %v", got)
	}
	if _, ok := res.Sources["testdata/kustomize/overlays/prod/replicas-patch.yaml"]; !ok {
		t.Errorf("patch missing from sources: %v", sortedKeys(res.Sources))
	}
}

// TestReplicasAndInlinePatch covers the replicas field, an inline JSON 6902 patch
// written as a literal block, nameSuffix and a component.
func TestReplicasAndInlinePatch(t *testing.T) {
	res := build(t, "staging")
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	d := get(t, res, "Deployment")
	const k = "testdata/kustomize/overlays/staging/kustomization.yaml"
	checks := map[string]string{
		"spec.replicas":      k + ":11:12",
		"spec.strategy.type": k + ":18:15",
		"spec.strategy":      "testdata/kustomize/base/deployment.yaml:7:3",
	}
	for path, want := range checks {
		if got := d.Locate(strings.Split(path, ".")...).String(); got != want {
			t.Errorf("%s at %s, want %s", path, got, want)
		}
	}
	if v := d.Get("spec", "strategy", "type"); v.Str() != "RollingUpdate" || v.Range.String() != k+":19:16" {
		t.Errorf("strategy type %q at %s", v.Str(), v.Range)
	}
	cj := get(t, res, "CronJob")
	if cj.Name != "web-backup-staging" || cj.Origin.File != "testdata/kustomize/components/backup/cronjob.yaml" {
		t.Errorf("component CronJob %s from %s", cj, cj.Origin.File)
	}
	if claim := cj.Get("spec", "jobTemplate", "spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName").Str(); claim != "web-data-staging" {
		t.Errorf("component claim %q not renamed", claim)
	}
}

// TestRemoteEntrySkipped: a remote resources entry is left out of the build, one
// diagnostic at its line, and the rest of the overlay is built.
func TestRemoteEntrySkipped(t *testing.T) {
	res := build(t, "remote")
	var at []string
	for _, d := range res.Diagnostics {
		at = append(at, strings.TrimPrefix(d.Range.String(), "testdata/kustomize/")+": "+d.Message)
	}
	want := []string{
		`overlays/remote/kustomization.yaml:5:5: remote resources entry "https://raw.githubusercontent.com/example/manifests/main/extra.yaml" is not fetched (pvlint never downloads); this kustomization is built without it`,
		`overlays/remote/kustomization.yaml:6:5: remote resources entry "github.com/example/platform//storage?ref=v1.2.0" is not fetched (pvlint never downloads); this kustomization is built without it`,
	}
	if diff := cmp.Diff(want, at); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
	base := build(t, "../base")
	if len(res.Resources) == 0 || len(res.Resources) != len(base.Resources) {
		t.Errorf("%d resources built, want the base's %d", len(res.Resources), len(base.Resources))
	}
}

// TestRefused checks that nothing missing, outside or executable is built,
// with a diagnostic at the entry that asked for it.
func TestRefused(t *testing.T) {
	tests := []struct {
		overlay string
		at      []string
		msg     string
	}{
		{"missing", []string{"overlays/missing/kustomization.yaml:3:5"}, "does not exist"},
		{"outside", []string{"overlays/outside/kustomization.yaml:3:5"}, "outside the linted directory"},
		{"helm-charts", []string{"overlays/helm-charts/kustomization.yaml:3:1"}, "needs the helm binary"},
		{"broken-resource", []string{"overlays/broken-resource/extra.yaml:5:1"}, "invalid YAML"},
		{"plugin", []string{"overlays/plugin/kustomization.yaml:1:1"}, "external plugins disabled"},
		{"bad-patch", []string{"overlays/bad-patch/kustomization.yaml:1:1"}, "no resource matches strategic merge patch"},
		// Kustomize's own message names the files by the paths the report uses.
		{"climb/app", []string{"overlays/climb/app/kustomization.yaml:1:1"}, "file 'testdata/kustomize/overlays/climb/shared.yaml' is not in or below 'testdata/kustomize/overlays/climb/app'"},
	}
	root, _ := filepath.Abs("../..")
	for _, tt := range tests {
		t.Run(tt.overlay, func(t *testing.T) {
			res := build(t, tt.overlay)
			var at []string
			for _, d := range res.Diagnostics {
				at = append(at, strings.TrimPrefix(d.Range.String(), "testdata/kustomize/"))
				if !strings.Contains(d.Message, tt.msg) {
					t.Errorf("message %q, want %q", d.Message, tt.msg)
				}
				if strings.Contains(d.Message, root) {
					t.Errorf("message %q names an absolute path", d.Message)
				}
			}
			if diff := cmp.Diff(tt.at, at); diff != "" {
				t.Errorf("diagnostics (-want +got):\n%s", diff)
			}
			if len(res.Resources) > 0 {
				t.Errorf("%d resources built", len(res.Resources))
			}
		})
	}
	if _, err := os.Stat("../../testdata/kustomize/overlays/plugin/PLUGIN_RAN"); err == nil {
		t.Error("kustomize ran the exec plugin")
	}
}

func TestPlan(t *testing.T) {
	root := "../../testdata/kustomize"
	var dirs []string
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err == nil && d.IsDir() && File(p) != "" {
			dirs = append(dirs, p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	env := testEnv(t)
	p := NewPlan(dirs, func(string) Env { return env })
	var builds []string
	for _, b := range p.Builds {
		builds = append(builds, strings.TrimPrefix(b, root+"/"))
	}
	want := []string{"overlays/bad-patch", "overlays/broken-resource", "overlays/climb/app", "overlays/helm-charts", "overlays/missing",
		"overlays/outside", "overlays/plugin", "overlays/prod", "overlays/remote", "overlays/staging"}
	if diff := cmp.Diff(want, builds); diff != "" {
		t.Errorf("builds (-want +got):\n%s", diff)
	}
	abs, _ := filepath.Abs(root)
	var consumed []string
	for f := range p.Consumed {
		rel, err := filepath.Rel(abs, f)
		if err == nil && (strings.HasPrefix(rel, "base/") || strings.HasPrefix(rel, "overlays/prod/")) {
			consumed = append(consumed, filepath.ToSlash(rel))
		}
	}
	sort.Strings(consumed)
	wantConsumed := []string{"base/deployment.yaml", "base/kustomization.yaml", "base/pvc.yaml", "base/storageclass.yaml",
		"overlays/prod/kustomization.yaml", "overlays/prod/replicas-patch.yaml"}
	if diff := cmp.Diff(wantConsumed, consumed); diff != "" {
		t.Errorf("consumed (-want +got):\n%s", diff)
	}
}

// TestServed checks what kustomize reads instead of a kustomization: paths anchored,
// inline configurations as JSON objects, originAnnotations on the top one only.
func TestServed(t *testing.T) {
	dir := t.TempDir()
	env := Env{Inside: func(string) bool { return true }}
	tests := []struct{ in, top, base string }{
		{"resources: [a.yaml, ../b, " + dir + "/c]\n",
			`{"resources":["./a.yaml","../b","../c"],"buildMetadata":["originAnnotations"]}`,
			`{"resources":["./a.yaml","../b","../c"]}`},
		{"buildMetadata: [transformerAnnotations]\n",
			`{"buildMetadata":["transformerAnnotations","originAnnotations"]}`,
			`{"buildMetadata":["transformerAnnotations"]}`},
		{"buildMetadata: [originAnnotations]\nreplicas: [{name: a, count: 3}]\n",
			`{"buildMetadata":["originAnnotations"],"replicas":[{"name":"a","count":3}]}`,
			`{"buildMetadata":["originAnnotations"],"replicas":[{"name":"a","count":3}]}`},
		{"configMapGenerator: [{name: c, files: [k=conf.txt, other.txt], envs: [a=b.env]}]\n",
			`{"configMapGenerator":[{"name":"c","files":["k=./conf.txt","./other.txt"],"envs":["./a=b.env"]}],"buildMetadata":["originAnnotations"]}`,
			`{"configMapGenerator":[{"name":"c","files":["k=./conf.txt","./other.txt"],"envs":["./a=b.env"]}]}`},
		{"transformers:\n- |\n  apiVersion: builtin\n  kind: PrefixTransformer\n  prefix: p-\n",
			`{"transformers":["{\"apiVersion\":\"builtin\",\"kind\":\"PrefixTransformer\",\"prefix\":\"p-\"}"],"buildMetadata":["originAnnotations"]}`,
			`{"transformers":["{\"apiVersion\":\"builtin\",\"kind\":\"PrefixTransformer\",\"prefix\":\"p-\"}"]}`},
	}
	for _, tt := range tests {
		path := filepath.Join(dir, "app", "kustomization.yaml")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(tt.in), 0o644); err != nil {
			t.Fatal(err)
		}
		k, diags := readKFile(path, env)
		if len(diags) > 0 || len(k.problems) > 0 {
			t.Fatalf("%q: %v %v", tt.in, diags, k.problems)
		}
		for top, want := range map[bool]string{true: tt.top, false: tt.base} {
			got, err := k.served(top)
			if err != nil || string(got) != want {
				t.Errorf("served(%q, top %v) = %s, %v; want %s", tt.in, top, got, err, want)
			}
		}
	}
}

// TestKeys checks that keys kustomize would read differently from pvlint are refused
// at the key.
func TestKeys(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "b")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	env := Env{Inside: func(p string) bool { return strings.HasPrefix(p, dir) }}
	for in, want := range map[string]string{
		"RESOURCES: [git@github.com:evil/repo]\n":          `1:13: remote resources entry "git@github.com:evil/repo" is not fetched`,
		"reſources: [../../../x]\n":                        `1:13: resources entry "../../../x" is outside the linted directory`,
		"resources: [a]\nResources: [b]\n":                 `2:1: key "resources" appears twice`,
		"patches:\n- PATH: /etc/passwd\n":                  `2:9: patches entry "/etc/passwd" is outside the linted directory`,
		"secretGenerator:\n- name: s\n  Files: [/etc/x]\n": `3:11: secretGenerator entry "/etc/x" is outside the linted directory`,
		"resource: [a]\n":                                  `1:1: "resource" is not a kustomization field kustomize knows`,
		"generators:\n- |\n  a: 1\n  ---\n  b: 2\n":        "2:3: an inline plugin configuration must be one YAML mapping",
	} {
		path := filepath.Join(dir, "kustomization.yaml")
		if err := os.WriteFile(path, []byte(in), 0o644); err != nil {
			t.Fatal(err)
		}
		k, diags := readKFile(path, env)
		if len(diags) > 0 {
			t.Fatalf("%q: %v", in, diags)
		}
		var got []string
		for _, d := range append(k.check(env), k.skipped...) {
			got = append(got, fmt.Sprintf("%d:%d: %s", d.Range.Start.Line, d.Range.Start.Column, d.Message))
		}
		if len(got) == 0 || !strings.HasPrefix(got[0], want) {
			t.Errorf("%q: diagnostics %q, want the first starting %q", in, got, want)
		}
	}
}

func TestIsRemote(t *testing.T) {
	for v, want := range map[string]bool{
		"../base": false, "deployment.yaml": false, "./github.com-notes/x.yaml": false,
		"../deploy@127.0.0.1:org/repo": false, "base/v1:2": false,
		"https://example.com/x.yaml": true, "github.com/org/repo//path?ref=v1": true,
		"git@github.com:org/repo.git": true, "ssh://git@host/repo": true, "git::https://host/repo": true,
		"deploy@127.0.0.1:org/repo": true, "deploy@example.com/org/repo": true, "GitHub.com:org/repo": true,
		"file:///srv/repo": true, "host:org/repo": true, "https://dev.azure.com/o/p/_git/r": true,
	} {
		if got := isRemote(v); got != want {
			t.Errorf("isRemote(%q) = %v", v, got)
		}
	}
}

// TestSpecialFiles checks that a named pipe is refused before it is opened (an open
// for reading would wait for a writer forever), by every reader of the package.
func TestSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	pipe := filepath.Join(dir, "pipe.yaml")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	env := Env{Inside: func(string) bool { return true }}
	if _, d := env.read(pipe); d == nil || d.Message != "file is a named pipe, not a regular file; not read" {
		t.Errorf("read: %v", d)
	}
	fs := newFS(env, nil)
	if _, err := fs.ReadFile(pipe); err == nil || !strings.Contains(err.Error(), "is a named pipe, not a regular file") {
		t.Errorf("ReadFile: %v", err)
	}
	if _, err := fs.Open(pipe); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("Open: %v", err)
	}
	unserved := filepath.Join(dir, "kustomization.yaml")
	if err := os.WriteFile(unserved, []byte("resources: [git@github.com:o/r]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := fs.ReadFile(unserved); err == nil || !strings.Contains(err.Error(), "pvlint did not read this kustomization") {
		t.Errorf("ReadFile of a kustomization pvlint did not serve: %v", err)
	}
}
