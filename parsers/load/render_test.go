package load

import (
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
)

// worldsOf lists every world as "variant: Kind/name@file" entries.
func worldsOf(res *Result) map[string][]string {
	out := map[string][]string{}
	for _, w := range res.Worlds() {
		for _, r := range w.Resources {
			out[w.Name] = append(out[w.Name], r.Kind+"/"+r.Name+"@"+r.Origin.File)
		}
		sort.Strings(out[w.Name])
	}
	return out
}

// TestRepositoryRoot lints a root holding a chart, a kustomize base and overlay, and
// plain manifests: one run, each chart variant and top-level build its own world
// joined with the plain manifests, and nothing read twice.
func TestRepositoryRoot(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/helm/repo")
	res := Load([]string{"."}, Options{Dir: dir})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	base := []string{
		"PersistentVolumeClaim/shared-data@manifests/storage.yaml",
		"StorageClass/gp3@manifests/storage.yaml",
	}
	with := func(extra ...string) []string {
		out := append(append([]string{}, base...), extra...)
		sort.Strings(out)
		return out
	}
	want := map[string][]string{
		"web":                               with("Deployment/release-name-web@charts/web/templates/deployment.yaml"),
		"web (ci/two-replicas-values.yaml)": with("Deployment/release-name-web@charts/web/templates/deployment.yaml"),
		"deploy/overlays/prod":              with("Deployment/worker@deploy/base/worker.yaml"),
	}
	if diff := cmp.Diff(want, worldsOf(res)); diff != "" {
		t.Errorf("worlds (-want +got):\n%s", diff)
	}
	for _, name := range []string{"manifests/storage.yaml", "charts/web/templates/deployment.yaml", "deploy/base/worker.yaml",
		"deploy/overlays/prod/scale.yaml", "charts/web#rendered(ci/two-replicas-values.yaml)", "deploy/overlays/prod#built"} {
		if _, ok := res.Sources[name]; !ok {
			t.Errorf("sources missing %s: have %v", name, keys(res.Sources))
		}
	}
	var worker *graph.Resource
	for _, v := range res.Variants {
		for _, r := range v.Resources {
			if r.Name == "worker" {
				worker = r
			}
		}
	}
	if at := worker.Locate("spec", "replicas").String(); at != "deploy/overlays/prod/scale.yaml:6:3" {
		t.Errorf("worker replicas at %s", at)
	}
}

// TestBaseNamedAlone builds a base on its own when nothing in the run builds on it,
// and reads a Chart.yaml or kustomization.yaml named directly as its directory.
func TestBaseNamedAlone(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/helm/repo")
	res := Load([]string{"deploy/base", "charts/web/Chart.yaml", "deploy/overlays/prod/kustomization.yaml"}, Options{Dir: dir})
	var names []string
	for _, v := range res.Variants {
		names = append(names, v.Name)
	}
	want := []string{"deploy/overlays/prod", "web", "web (ci/two-replicas-values.yaml)"}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	res = Load([]string{"deploy/base"}, Options{Dir: dir})
	if len(res.Variants) != 1 || res.Variants[0].Name != "deploy/base" || len(res.Base) != 0 {
		t.Errorf("base alone: variants %+v, base %d", res.Variants, len(res.Base))
	}
}

// TestHelmTemplateOnStdin reads `helm template` output from standard input: findings
// stay at stdin lines, and each resource knows its template.
func TestHelmTemplateOnStdin(t *testing.T) {
	data, err := os.ReadFile("../../testdata/helm/rendered/app-template.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res := Load([]string{"-"}, Options{Dir: t.TempDir(), Stdin: strings.NewReader(string(data))})
	var got []string
	for _, r := range res.Base {
		got = append(got, r.Kind+" "+r.Origin.File+" "+r.Origin.Source)
	}
	want := []string{
		"PersistentVolumeClaim <stdin> app/templates/pvc.yaml",
		"Deployment <stdin> app/templates/deployment.yaml",
		"ConfigMap <stdin> ",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

// TestHelmOptions passes chart options through the loader.
func TestHelmOptions(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/helm/repo")
	opts := Options{Dir: dir}
	opts.Helm.Set = []string{"replicas=5"}
	opts.Helm.ReleaseName = "shop"
	res := Load([]string{"charts/web"}, opts)
	if len(res.Variants) != 1 || res.Variants[0].Name != "web (--set)" {
		t.Fatalf("variants = %+v", res.Variants)
	}
	d := res.Variants[0].Resources[0]
	if n, _ := d.Get("spec", "replicas").Int(); n != 5 || d.Name != "shop-web" {
		t.Errorf("%s replicas %d", d.Name, n)
	}
}

// TestHelmFor gives one chart its own options (the configuration file's per-chart
// settings): the loader asks with the chart's absolute directory.
func TestHelmFor(t *testing.T) {
	dir, _ := filepath.Abs("../../testdata/helm/repo")
	var asked []string
	opts := Options{Dir: dir, HelmFor: func(chart string) helm.Options {
		asked = append(asked, chart)
		return helm.Options{Set: []string{"replicas=4"}, ReleaseName: "cfg"}
	}}
	opts.Helm.ReleaseName = "ignored"
	res := Load([]string{"charts/web"}, opts)
	if d := cmp.Diff([]string{filepath.Join(dir, "charts", "web")}, asked); d != "" {
		t.Errorf("asked (-want +got):\n%s", d)
	}
	if len(res.Variants) != 1 {
		t.Fatalf("variants = %+v", res.Variants)
	}
	d := res.Variants[0].Resources[0]
	if n, _ := d.Get("spec", "replicas").Int(); n != 4 || d.Name != "cfg-web" {
		t.Errorf("%s replicas %d", d.Name, n)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// TestOutsideWorkingDirectory builds a kustomization and renders a chart named by a
// path outside the working directory: their reads stay within the named path.
func TestOutsideWorkingDirectory(t *testing.T) {
	repo, _ := filepath.Abs("../../testdata/helm/repo")
	res := Load([]string{filepath.Join(repo, "deploy"), filepath.Join(repo, "charts", "web")}, Options{Dir: t.TempDir()})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	var names []string
	for _, v := range res.Variants {
		names = append(names, v.Name+" "+v.Resources[0].Origin.File)
	}
	want := []string{
		filepath.ToSlash(filepath.Join(repo, "deploy/overlays/prod")) + " " + filepath.ToSlash(filepath.Join(repo, "deploy/base/worker.yaml")),
		"web " + filepath.ToSlash(filepath.Join(repo, "charts/web/templates/deployment.yaml")),
		"web (ci/two-replicas-values.yaml) " + filepath.ToSlash(filepath.Join(repo, "charts/web/templates/deployment.yaml")),
	}
	if diff := cmp.Diff(want, names); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
}
