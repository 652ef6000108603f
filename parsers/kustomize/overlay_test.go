package kustomize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// fluxObject is the spec of a Flux Kustomization: its nodes are where what it sets is
// reported.
const fluxObject = `targetNamespace: media
namePrefix: app-
patches:
  - patch: |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        replicas: 3
  - patch: |
      - op: replace
        path: /spec/resources/requests/storage
        value: 5Gi
    target: {kind: PersistentVolumeClaim, name: data}
components: [../extra]
`

const overlayFiles = `apps/web/deploy.yaml=apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: 1
  template:
    spec:
      volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
|apps/web/sub/pvc.yaml=apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data}
spec:
  resources: {requests: {storage: 1Gi}}
|apps/web/values.yaml=replicas: 9
|apps/web/based/kustomization.yaml=resources: [cm.yaml]
|apps/web/based/cm.yaml=apiVersion: v1
kind: ConfigMap
metadata: {name: based}
|apps/extra/kustomization.yaml=apiVersion: kustomize.config.k8s.io/v1alpha1
kind: Component
resources: [cm.yaml]
|apps/extra/cm.yaml=apiVersion: v1
kind: ConfigMap
metadata: {name: extra}
`

func overlayRepo(t *testing.T, extra map[string]string) (string, Env) {
	t.Helper()
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for f := range strings.SplitSeq(overlayFiles, "|") {
		name, text, _ := strings.Cut(f, "=")
		write(name, text)
	}
	for name, text := range extra {
		write(name, text)
	}
	return root, Env{
		Display: func(p string) string { rel, _ := filepath.Rel(root, p); return filepath.ToSlash(rel) },
		Inside:  func(p string) bool { return p == root || strings.HasPrefix(p, root+string(filepath.Separator)) },
	}
}

func fluxOverlay(t *testing.T) *Overlay {
	t.Helper()
	docs, diags := manifest.Documents("flux.yaml", []byte(fluxObject), manifest.Options{})
	if len(diags) > 0 {
		t.Fatal(diags)
	}
	spec := docs[0].Node
	return &Overlay{Variant: "Kustomization flux-system/web", Anchor: graph.Range{File: "flux.yaml", Start: graph.Pos{Line: 1, Column: 1}}, Source: []byte(fluxObject),
		Namespace: spec.Get("targetNamespace"), NamePrefix: spec.Get("namePrefix"), Patches: spec.Get("patches").Items(), Components: spec.Get("components").Items()}
}

// TestOverlayGenerated: a directory without a kustomization is all of its manifests
// (subdirectories too, a kustomization below taken whole, a values file left out),
// built with the Flux Kustomization's settings, what they set at its lines.
func TestOverlayGenerated(t *testing.T) {
	root, env := overlayRepo(t, nil)
	res := BuildOverlay(filepath.Join(root, "apps", "web"), fluxOverlay(t), env)
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	got := map[string]*graph.Resource{}
	for _, r := range res.Resources {
		got[r.Kind+"/"+r.Namespace+"/"+r.Name] = r
	}
	for _, want := range []string{"Deployment/media/app-web", "PersistentVolumeClaim/media/app-data", "ConfigMap/media/app-based", "ConfigMap/media/app-extra"} {
		if got[want] == nil {
			t.Errorf("no %s in %v", want, res.Resources)
		}
	}
	if len(got) != 4 {
		t.Errorf("%d resources, want 4", len(got))
	}
	d := got["Deployment/media/app-web"]
	if n, _ := d.Get("spec", "replicas").Int(); n != 3 || d.Get("spec", "replicas").Range.File != "flux.yaml" || d.Get("spec", "replicas").Range.Start.Line != 9 {
		t.Errorf("replicas %d at %v, want 3 at flux.yaml:9 (the patch)", n, d.Get("spec", "replicas").Range)
	}
	if claim := d.Get("spec", "template", "spec", "volumes").Items()[0].Get("persistentVolumeClaim", "claimName").Str(); claim != "app-data" {
		t.Errorf("claim %q, want app-data (renamed with the claim)", claim)
	}
	if s := got["PersistentVolumeClaim/media/app-data"].Get("spec", "resources", "requests", "storage"); s.Str() != "5Gi" {
		t.Errorf("storage %q, want 5Gi (the JSON patch with its target)", s.Str())
	}
	if res.Variant != "Kustomization flux-system/web" {
		t.Errorf("variant %q", res.Variant)
	}
}

// TestOverlayKustomization: a directory's own kustomization gets the settings
// written into it (namespace replaced, patches appended after its own).
func TestOverlayKustomization(t *testing.T) {
	root, env := overlayRepo(t, map[string]string{"apps/web/kustomization.yaml": "namespace: other\nresources: [deploy.yaml, sub/pvc.yaml]\npatches:\n  - patch: |\n      apiVersion: apps/v1\n      kind: Deployment\n      metadata: {name: web}\n      spec: {replicas: 2}\n"})
	res := BuildOverlay(filepath.Join(root, "apps", "web"), fluxOverlay(t), env)
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	var names []string
	for _, r := range res.Resources {
		names = append(names, r.Kind+"/"+r.Namespace+"/"+r.Name)
		if r.Kind == "Deployment" {
			if n, _ := r.Get("spec", "replicas").Int(); n != 3 {
				t.Errorf("replicas %d, want 3 (the Flux patch after the kustomization's)", n)
			}
		}
	}
	if strings.Join(names, " ") != "Deployment/media/app-web PersistentVolumeClaim/media/app-data ConfigMap/media/app-extra" {
		t.Errorf("resources %v", names)
	}
}

// TestOverlayBounds: a component outside the checkout is refused, not read.
func TestOverlayBounds(t *testing.T) {
	root, env := overlayRepo(t, nil)
	ov := fluxOverlay(t)
	ov.Components = []*graph.Node{{Kind: graph.String, Scalar: "../../../../../../etc", Range: ov.Anchor}}
	res := BuildOverlay(filepath.Join(root, "apps", "web"), ov, env)
	if len(res.Resources) > 0 || len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, "outside the linted directory") {
		t.Errorf("resources %d, diagnostics %v", len(res.Resources), res.Diagnostics)
	}
}
