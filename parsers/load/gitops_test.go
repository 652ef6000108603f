package load

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
)

// releaseYAML is a Flux HelmRelease of chart kv 1.0.0 from a Helm repository.
const releaseYAML = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata:
  name: kv
  namespace: media
spec:
  chart:
    spec:
      chart: kv
      version: 1.0.0
      sourceRef: {kind: HelmRepository, name: example, namespace: flux-system}
  values:
    replicaCount: 2
`

const chartTemplate = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: {{ .Values.replicaCount }}
`

type tarEntry struct {
	name, link string
	typ        byte
	data       []byte
	size       int64 // for a streamed entry of zeros (data nil)
}

// writeArchive writes a gzip tar archive of entries.
func writeArchive(t *testing.T, path string, entries []tarEntry) {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	tw := tar.NewWriter(zw)
	for _, e := range entries {
		typ := e.typ
		if typ == 0 {
			typ = tar.TypeReg
		}
		size := int64(len(e.data))
		if e.data == nil {
			size = e.size
		}
		h := &tar.Header{Name: e.name, Linkname: e.link, Typeflag: typ, Mode: 0o644}
		if typ == tar.TypeReg {
			h.Size = size
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if typ != tar.TypeReg {
			continue
		}
		if e.data != nil {
			tw.Write(e.data)
			continue
		}
		zeros := make([]byte, 1<<20)
		for left := size; left > 0; left -= int64(len(zeros)) {
			tw.Write(zeros[:min(left, int64(len(zeros)))])
		}
	}
	tw.Close()
	zw.Close()
	if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func goodChart() []tarEntry {
	return []tarEntry{
		{name: "kv/Chart.yaml", data: []byte("apiVersion: v2\nname: kv\nversion: 1.0.0\n")},
		{name: "kv/templates/deployment.yaml", data: []byte(chartTemplate)},
	}
}

// gitopsRepo writes a repository holding the release and a cache holding entries
// as kv-1.0.0.tgz, and loads it.
func gitopsRepo(t *testing.T, entries []tarEntry, files map[string]string) *Result {
	t.Helper()
	dir, cache := t.TempDir(), t.TempDir()
	if entries != nil {
		writeArchive(t, filepath.Join(cache, "kv-1.0.0.tgz"), entries)
	}
	if files == nil {
		files = map[string]string{"release.yaml": releaseYAML}
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return Load([]string{"."}, Options{Dir: dir, Charts: []string{cache}})
}

// TestReleaseFromCache: a HelmRelease of a cached archive is a variant named after
// it, whose nodes from the cache's templates are at the release's values.
func TestReleaseFromCache(t *testing.T) {
	res := gitopsRepo(t, goodChart(), nil)
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	if res.Releases.Rendered != 1 || res.Releases.Unrendered != 0 {
		t.Errorf("releases = %+v, want 1 rendered", res.Releases)
	}
	if len(res.Variants) != 1 || res.Variants[0].Name != "HelmRelease media/kv" || len(res.Variants[0].Resources) != 1 {
		t.Fatalf("variants = %+v", res.Variants)
	}
	d := res.Variants[0].Resources[0]
	if d.Name != "kv" || d.Namespace != "media" {
		t.Errorf("rendered %s in namespace %q, want kv in media (release name and namespace of the release)", d.Name, d.Namespace)
	}
	if got := d.Get("spec", "replicas").Range; got.File != "release.yaml" || got.Start.Line != 13 {
		t.Errorf("replicas at %v, want release.yaml:13 (replicaCount: 2)", got)
	}
	if got := d.Get("apiVersion").Range; got.File != "release.yaml" || got.Start.Line != 12 {
		t.Errorf("apiVersion at %v, want release.yaml:12 (the values: key)", got)
	}
	if d.Origin.File != "release.yaml" {
		t.Errorf("origin file %q, want the release's", d.Origin.File)
	}
}

// TestReleaseNotInCache: no archive is a note on the release at its chart line and
// a pull, never a silent skip.
func TestReleaseNotInCache(t *testing.T) {
	res := gitopsRepo(t, nil, map[string]string{"release.yaml": releaseYAML,
		"repo.yaml": "apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: example, namespace: flux-system}\nspec: {url: https://charts.example.com}\n"})
	if res.Releases.Rendered != 0 || res.Releases.Unrendered != 1 || len(res.Releases.Pulls) != 1 {
		t.Fatalf("releases = %+v, want 1 unrendered and 1 pull", res.Releases)
	}
	var notes []*graph.Node
	for _, r := range res.Base {
		notes = append(notes, r.Facts[graph.FactUnrendered].Items()...)
	}
	if len(notes) != 1 || notes[0].Range.Start.Line != 9 || !strings.Contains(notes[0].Scalar, "not in the chart cache") {
		t.Errorf("notes = %v", notes)
	}
	if got, want := res.Releases.Pulls[0].Line(), "helm pull --repo https://charts.example.com kv --version 1.0.0"; got != want {
		t.Errorf("pull = %q, want %q", got, want)
	}
}

// TestHostileCacheArchives: archives with links, absolute or escaping paths, or
// that inflate past the chart limit are refused whole, one diagnostic at the
// release's chart line; nothing is rendered from them.
func TestHostileCacheArchives(t *testing.T) {
	for name, tc := range map[string]struct {
		entries []tarEntry
		want    string
	}{
		"symlink":  {append(goodChart(), tarEntry{name: "kv/templates/secret.yaml", link: "/etc/passwd", typ: tar.TypeSymlink}), "is a link"},
		"hardlink": {append(goodChart(), tarEntry{name: "kv/templates/h.yaml", link: "kv/Chart.yaml", typ: tar.TypeLink}), "is a link"},
		"absolute": {append(goodChart(), tarEntry{name: "/etc/x.yaml", data: []byte("a: 1\n")}), "outside the chart"},
		"escape":   {append(goodChart(), tarEntry{name: "kv/../../x.yaml", data: []byte("a: 1\n")}), "outside the chart"},
		"device":   {append(goodChart(), tarEntry{name: "kv/dev", typ: tar.TypeChar}), "not a regular file"},
		"bomb":     {append(goodChart(), tarEntry{name: "kv/templates/zeros.yaml", size: 200 << 20}), "inflates past"},
		"not gzip": {nil, "chart archive not read"},
	} {
		t.Run(name, func(t *testing.T) {
			var res *Result
			if tc.entries == nil {
				dir, cache := t.TempDir(), t.TempDir()
				os.WriteFile(filepath.Join(cache, "kv-1.0.0.tgz"), []byte("not an archive"), 0o644)
				os.WriteFile(filepath.Join(dir, "release.yaml"), []byte(releaseYAML), 0o644)
				res = Load([]string{"."}, Options{Dir: dir, Charts: []string{cache}})
			} else {
				res = gitopsRepo(t, tc.entries, nil)
			}
			if len(res.Variants) != 0 {
				t.Errorf("rendered %d variants from a hostile archive", len(res.Variants))
			}
			if res.Releases.Rendered != 0 || res.Releases.Unrendered != 1 {
				t.Errorf("releases = %+v, want the one refused counted not rendered", res.Releases)
			}
			if len(res.Diagnostics) != 1 || !strings.Contains(res.Diagnostics[0].Message, tc.want) ||
				res.Diagnostics[0].Range.File != "release.yaml" || res.Diagnostics[0].Range.Start.Line != 9 {
				t.Errorf("diagnostics = %v, want one at release.yaml:9 saying %q", res.Diagnostics, tc.want)
			}
		})
	}
}

// TestHostileGitOpsObjects: a huge valuesFrom entry, an escaping path and an
// ApplicationSet of 100,000 entries each cost one bounded refusal.
func TestHostileGitOpsObjects(t *testing.T) {
	huge := strings.Repeat("k: v\n", 300000) // 1.5 MB of values
	var cm strings.Builder
	cm.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: big, namespace: media}\ndata:\n  values.yaml: |\n")
	for line := range strings.SplitSeq(strings.TrimSuffix(huge, "\n"), "\n") {
		cm.WriteString("    " + line + "\n")
	}
	var set strings.Builder
	set.WriteString("apiVersion: argoproj.io/v1alpha1\nkind: ApplicationSet\nmetadata: {name: many, namespace: argocd}\nspec:\n  generators:\n    - list:\n        elements:\n")
	for i := range 100000 {
		fmt.Fprintf(&set, "          - {n: a%d}\n", i)
	}
	set.WriteString("  template:\n    metadata: {name: '{{n}}'}\n    spec:\n      source: {repoURL: https://github.com/o/r, path: '{{n}}'}\n")
	release := strings.Replace(releaseYAML, "  values:\n", "  valuesFrom:\n    - {kind: ConfigMap, name: big}\n  values:\n", 1)
	escape := "apiVersion: argoproj.io/v1alpha1\nkind: Application\nmetadata: {name: up, namespace: argocd}\nspec:\n  source: {repoURL: https://github.com/o/r, path: ../../..}\n"
	start := time.Now()
	dir := t.TempDir()
	files := map[string]string{"release.yaml": release, "big.yaml": cm.String(), "set.yaml": set.String(), "escape.yaml": escape,
		".git/config": "[remote \"origin\"]\n\turl = git@github.com:o/r.git\n"}
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(text), 0o644)
	}
	cache := t.TempDir()
	writeArchive(t, filepath.Join(cache, "kv-1.0.0.tgz"), goodChart())
	res := Load([]string{"."}, Options{Dir: dir, Charts: []string{cache}, SkipConfigData: true})
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("took %s", d)
	}
	var msgs []string
	for _, d := range res.Diagnostics {
		msgs = append(msgs, d.Error())
	}
	joined := strings.Join(msgs, "\n")
	for _, want := range []string{
		"release.yaml:13:31: HelmRelease media/kv: values from ConfigMap media/big are 1500000 bytes, more than the 1048576-byte limit",
		`escape.yaml:5:51: Application argocd/up: path "../../.." leads outside the repository; not read`,
	} {
		if !strings.Contains(joined, want) {
			t.Errorf("diagnostics lack %q:\n%s", want, joined)
		}
	}
	if want := "set.yaml:6:7: ApplicationSet argocd/many: its list generator is not expanded: 100000 elements, more than the 1000 Applications one generator may make"; !strings.Contains(joined, want) {
		t.Errorf("diagnostics lack %q:\n%s", want, joined)
	}
	notes := 0
	for _, r := range res.Base {
		notes += len(r.Facts[graph.FactUnrendered].Items())
	}
	if notes != 0 {
		t.Errorf("%d notes, want none (the ApplicationSet's one generator is refused)", notes)
	}
	if len(res.Variants) != 0 {
		t.Errorf("rendered %d variants", len(res.Variants))
	}
}

// TestApplicationOfRepositoryChart: an Argo CD Application of a chart of the
// checkout (its remote in .git/config) renders it with the Application's value files,
// values and parameters, in its destination namespace, and the chart is not linted a
// second time with its defaults; a chart with ci/ values files keeps its own variants.
func TestApplicationOfRepositoryChart(t *testing.T) {
	app := `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: web, namespace: argocd}
spec:
  source:
    repoURL: https://github.com/o/r.git
    path: charts/%s
    helm:
      valueFiles: [prod.yaml]
      values: |
        size: 5Gi
      parameters:
        - {name: tag, value: "2.0"}
  destination: {namespace: shop}
`
	tpl := "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: {{ .Release.Name }}\n  annotations: {size: {{ .Values.size | quote }}, tag: {{ .Values.tag | quote }}}\nspec:\n  replicas: {{ .Values.replicas }}\n"
	files := map[string]string{
		".git/config":                      "[remote \"origin\"]\n\turl = git@github.com:o/r\n",
		"app.yaml":                         fmt.Sprintf(app, "web") + "---\n" + strings.Replace(fmt.Sprintf(app, "ci"), "name: web,", "name: withci,", 1),
		"charts/web/Chart.yaml":            "apiVersion: v2\nname: web\nversion: 0.1.0\n",
		"charts/web/values.yaml":           "replicas: 1\nsize: 1Gi\ntag: \"1.0\"\n",
		"charts/web/prod.yaml":             "replicas: 3\n",
		"charts/web/templates/deploy.yaml": tpl,
		"charts/ci/Chart.yaml":             "apiVersion: v2\nname: ci\nversion: 0.1.0\n",
		"charts/ci/values.yaml":            "replicas: 1\nsize: 1Gi\ntag: \"1.0\"\n",
		"charts/ci/prod.yaml":              "replicas: 2\n",
		"charts/ci/ci/big-values.yaml":     "replicas: 4\n",
		"charts/ci/templates/deploy.yaml":  tpl,
	}
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	res := Load([]string{"."}, Options{Dir: dir})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	got := map[string]string{}
	for _, v := range res.Variants {
		for _, r := range v.Resources {
			replicas, _ := r.Get("spec", "replicas").Int()
			got[v.Name] = fmt.Sprintf("%s/%s replicas=%d size=%s tag=%s", r.Namespace, r.Name, replicas,
				r.Get("metadata", "annotations", "size").Str(), r.Get("metadata", "annotations", "tag").Str())
		}
	}
	want := map[string]string{
		"Application argocd/web":    "shop/web replicas=3 size=5Gi tag=2.0",
		"Application argocd/withci": "shop/withci replicas=2 size=5Gi tag=2.0",
		"ci":                        "/release-name replicas=1 size=1Gi tag=1.0",
		"ci (ci/big-values.yaml)":   "/release-name replicas=4 size=1Gi tag=1.0",
	}
	if len(got) != len(want) {
		t.Errorf("variants %v, want %v", got, want)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("variant %q = %q, want %q", k, got[k], w)
		}
	}
	if res.Releases.Rendered != 2 || res.Releases.Unrendered != 0 {
		t.Errorf("releases = %+v", res.Releases)
	}
}

// writeRepo writes files into a new directory.
func writeRepo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, text := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestApplicationSetGenerators: the git directory generator selects the checkout's
// directories (exclude wins, hidden ones never), the list generator its elements;
// each generated Application is read as an Application (a chart rendered with the
// template's values, a plain directory counted as the repository's files), in both
// template syntaxes; other generators are one note each.
func TestApplicationSetGenerators(t *testing.T) {
	chart := func(name string) map[string]string {
		return map[string]string{
			name + "/Chart.yaml":            "apiVersion: v2\nname: c\nversion: 0.1.0\n",
			name + "/values.yaml":           "replicas: 1\n",
			name + "/templates/deploy.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: {{ .Release.Name }}}\nspec:\n  replicas: {{ .Values.replicas }}\n",
		}
	}
	files := map[string]string{
		".git/config": "[remote \"origin\"]\n\turl = https://github.com/o/r\n",
		"sets.yaml": `apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: dirs, namespace: argocd}
spec:
  generators:
    - git:
        repoURL: git@github.com:o/r.git
        revision: HEAD
        directories:
          - path: apps/*
          - path: apps/skip
            exclude: true
    - clusters: {}
  template:
    metadata: {name: '{{path.basename}}-{{path[0]}}'}
    spec:
      source:
        repoURL: https://github.com/o/r
        path: '{{path}}'
        helm:
          valuesObject: {replicas: 2}
      destination: {namespace: '{{ path.basenameNormalized }}'}
---
apiVersion: argoproj.io/v1alpha1
kind: ApplicationSet
metadata: {name: gotpl, namespace: argocd}
spec:
  goTemplate: true
  goTemplateOptions: ["missingkey=error"]
  generators:
    - list:
        elements:
          - {dir: apps/Web_One, size: 3}
          - {dir: apps/db, size: 1}
          - {dir: ../../.., size: 1}
          - {dir: apps/none}
    - matrix: {generators: []}
  template:
    metadata: {name: '{{ .dir | replace "/" "-" | lower }}'}
    spec:
      source:
        repoURL: https://github.com/o/r
        path: '{{.dir}}'
        helm:
          parameters: [{name: replicas, value: '{{.size}}'}]
      destination: {namespace: '{{ .dir | trimPrefix "apps/" | lower }}'}
`,
		"apps/db/pvc.yaml":       "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: db}\n",
		"apps/skip/cm.yaml":      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: skip}\n",
		"apps/.hidden/cm.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: hidden}\n",
		"apps/db/nested/cm.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: nested}\n",
		"other/x/cm.yaml":        "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n",
	}
	maps.Copy(files, chart("apps/Web_One"))
	res := Load([]string{"."}, Options{Dir: writeRepo(t, files)})
	got := map[string]string{}
	for _, v := range res.Variants {
		for _, r := range v.Resources {
			replicas, _ := r.Get("spec", "replicas").Int()
			got[v.Name] = fmt.Sprintf("%s/%s replicas=%d", r.Namespace, r.Name, replicas)
		}
	}
	want := map[string]string{"Application argocd/Web_One-apps": "web-one/Web_One-apps replicas=2", "Application argocd/apps-web_one": "web_one/apps-web_one replicas=3"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("variants %v, want %v", got, want)
	}
	var notes []string
	for _, r := range res.Base {
		for _, n := range r.Facts[graph.FactUnrendered].Items() {
			notes = append(notes, n.Range.String()+": "+n.Scalar)
		}
	}
	joined := strings.Join(notes, "\n")
	for _, w := range []string{
		"sets.yaml:13:7: ApplicationSet argocd/dirs is not rendered: the Applications of its clusters generator are not generated: pvlint expands only the list and git directory generators",
		"sets.yaml:37:7: ApplicationSet argocd/gotpl is not rendered: the Applications of its matrix generator are not generated",
		`sets.yaml:45:48: ApplicationSet argocd/gotpl is not rendered: an Application of its list generator cannot be generated: template "{{.size}}": map has no entry for key "size"`,
	} {
		if !strings.Contains(joined, w) {
			t.Errorf("notes lack %q:\n%s", w, joined)
		}
	}
	if len(notes) != 3 {
		t.Errorf("%d notes, want 3:\n%s", len(notes), joined)
	}
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Error() != `sets.yaml:43:15: Application argocd/..-..-..: path "../../.." leads outside the repository; not read` {
		t.Errorf("diagnostics = %v", res.Diagnostics)
	}
	// dirs: Web_One (chart) and db (directory) rendered, skip excluded, .hidden never
	// listed, clusters noted; gotpl: Web_One and db rendered, ../../.. refused, the
	// element without size noted, matrix noted.
	if res.Releases.Rendered != 4 || res.Releases.Unrendered != 4 {
		t.Errorf("releases = %+v, want 4 rendered and 4 not", res.Releases)
	}
}

// TestFluxKustomizationBuilt: a Flux Kustomization that changes what it deploys is
// built as Flux builds it (a directory without kustomization.yaml is all of its
// manifests; targetNamespace, namePrefix, patches; postBuild variables from
// substitute and a ConfigMap of the repository, an unset one unknown, a Secret that is
// not in the repository a note), as a variant named after it that replaces the
// directory's plain manifests; one that changes nothing leaves the walk's linting.
func TestFluxKustomizationBuilt(t *testing.T) {
	files := map[string]string{
		"flux/ks.yaml": `apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: apps, namespace: flux-system}
spec:
  sourceRef: {kind: GitRepository, name: flux-system}
  path: ./apps/web
  targetNamespace: media
  namePrefix: app-
  patches:
    - patch: |
        - {op: replace, path: /spec/resources/requests/storage, value: 5Gi}
      target: {kind: PersistentVolumeClaim}
  postBuild:
    substitute: {REPLICAS: "2"}
    substituteFrom:
      - {kind: ConfigMap, name: cluster-settings}
      - {kind: Secret, name: cluster-secrets}
      - {kind: Secret, name: maybe, optional: true}
---
apiVersion: kustomize.toolkit.fluxcd.io/v1
kind: Kustomization
metadata: {name: plain, namespace: flux-system}
spec:
  sourceRef: {kind: GitRepository, name: flux-system}
  path: ./apps/plain
  targetNamespace: other
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cluster-settings, namespace: flux-system}
data: {STORAGE_CLASS: ebs, REPLICAS: "7"}
`,
		"apps/web/deploy.yaml": `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  replicas: ${REPLICAS}
  template:
    metadata: {annotations: {domain: "web.${SECRET_DOMAIN}", tag: "${TAG:=1.0}"}}
    spec:
      volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
`,
		"apps/web/db/pvc.yaml": "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\nspec:\n  storageClassName: ${STORAGE_CLASS}\n  resources: {requests: {storage: 1Gi}}\n",
		"apps/plain/cm.yaml":   "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: plain}\n",
	}
	res := Load([]string{"."}, Options{Dir: writeRepo(t, files)})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	if res.Releases.Rendered != 2 || res.Releases.Unrendered != 0 {
		t.Errorf("releases = %+v, want 2 rendered", res.Releases)
	}
	for _, r := range res.Base {
		if r.Kind == "Deployment" || r.Kind == "PersistentVolumeClaim" {
			t.Errorf("%s %s left in the base: linted through the Kustomization only", r.Kind, r.Name)
		}
	}
	if len(res.Variants) != 1 || res.Variants[0].Name != "Kustomization flux-system/apps" {
		t.Fatalf("variants %v", res.Variants)
	}
	got := map[string]*graph.Resource{}
	for _, r := range res.Variants[0].Resources {
		got[r.Kind+"/"+r.Namespace+"/"+r.Name] = r
	}
	d, pvc := got["Deployment/media/app-web"], got["PersistentVolumeClaim/media/app-data"]
	if d == nil || pvc == nil || len(got) != 2 {
		t.Fatalf("built %v", got)
	}
	if n, ok := d.Get("spec", "replicas").Int(); !ok || n != 2 {
		t.Errorf("replicas %d %v, want 2 (substitute wins over the ConfigMap)", n, ok)
	}
	ann := d.Get("spec", "template", "metadata", "annotations")
	if !ann.Get("domain").IsUnknown() || ann.Get("tag").Str() != "1.0" {
		t.Errorf("annotations domain %v (want unknown), tag %q (want 1.0)", ann.Get("domain"), ann.Get("tag").Str())
	}
	if pvc.Get("spec", "storageClassName").Str() != "ebs" || pvc.Get("spec", "resources", "requests", "storage").Str() != "5Gi" {
		t.Errorf("claim class %q storage %q", pvc.Get("spec", "storageClassName").Str(), pvc.Get("spec", "resources", "requests", "storage").Str())
	}
	if c := d.Get("spec", "template", "spec", "volumes").Items()[0].Get("persistentVolumeClaim", "claimName").Str(); c != "app-data" {
		t.Errorf("claimName %q", c)
	}
	var notes []string
	for _, r := range res.Base {
		for _, n := range r.Facts[graph.FactUnrendered].Items() {
			notes = append(notes, n.Range.String()+": "+n.Scalar)
		}
	}
	if want := "flux/ks.yaml:17:9: Kustomization flux-system/apps's variables from Secret flux-system/cluster-secrets (postBuild.substituteFrom) are not in the repository: the values that use them are unknown"; len(notes) != 1 || notes[0] != want {
		t.Errorf("notes %q, want %q", notes, want)
	}
}

// TestArgoKustomizeAndDirectory: an Application's kustomize settings are written into
// the directory's kustomization (namePrefix, namespace, images, patches, commonLabels);
// directory settings select the files of a plain directory (recurse, include,
// exclude; "*" crosses "/" as in Argo CD's globs); objects without a namespace go to destination.namespace; settings pvlint
// does not apply are named in a note.
func TestArgoKustomizeAndDirectory(t *testing.T) {
	pvc := "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: %s}\nspec: {resources: {requests: {storage: 1Gi}}}\n"
	files := map[string]string{
		".git/config": "[remote \"origin\"]\n\turl = https://github.com/o/r\n",
		"apps.yaml": `apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: kust, namespace: argocd}
spec:
  source:
    repoURL: https://github.com/o/r
    path: kust
    kustomize:
      namePrefix: p-
      namespace: shop
      images: ["web=registry.example/web:2.0"]
      commonLabels: {team: a}
      commonAnnotations: {x: y}
      patches:
        - target: {kind: Deployment}
          patch: |
            - {op: replace, path: /spec/replicas, value: 4}
  destination: {namespace: ignored}
---
apiVersion: argoproj.io/v1alpha1
kind: Application
metadata: {name: dir, namespace: argocd}
spec:
  source:
    repoURL: https://github.com/o/r
    path: dir
    directory:
      recurse: true
      include: '{*.yaml,sub/*}'
      exclude: 'skip*'
  destination: {namespace: dest}
`,
		"kust/kustomization.yaml": "resources: [deploy.yaml]\n",
		"kust/deploy.yaml":        "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers: [{name: web, image: web:1.0}]\n",
		"dir/a.yaml":              fmt.Sprintf(pvc, "a"),
		"dir/skip.yaml":           fmt.Sprintf(pvc, "skip"),
		"dir/sub/b.yml":           fmt.Sprintf(pvc, "b"),
		"dir/other/c.yaml":        fmt.Sprintf(pvc, "c"),
	}
	res := Load([]string{"."}, Options{Dir: writeRepo(t, files)})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	got := map[string][]string{}
	for _, v := range res.Variants {
		for _, r := range v.Resources {
			s := r.Kind + "/" + r.Namespace + "/" + r.Name
			if r.Kind == "Deployment" {
				n, _ := r.Get("spec", "replicas").Int()
				s += fmt.Sprintf(" replicas=%d image=%s team=%s", n, r.Get("spec", "template", "spec", "containers").Items()[0].Get("image").Str(), r.Get("metadata", "labels", "team").Str())
			}
			got[v.Name] = append(got[v.Name], s)
		}
	}
	want := map[string][]string{
		"Application argocd/kust": {"Deployment/shop/p-web replicas=4 image=registry.example/web:2.0 team=a"},
		"Application argocd/dir":  {"PersistentVolumeClaim/dest/a", "PersistentVolumeClaim/dest/c", "PersistentVolumeClaim/dest/b"},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("variants\n%v\nwant\n%v", got, want)
	}
	for _, r := range res.Base {
		if r.Kind == "PersistentVolumeClaim" && r.Name != "skip" {
			t.Errorf("claim %s left in the base", r.Name)
		}
	}
	var notes []string
	for _, r := range res.Base {
		for _, n := range r.Facts[graph.FactUnrendered].Items() {
			notes = append(notes, n.Range.String()+": "+n.Scalar)
		}
	}
	if w := "apps.yaml:7:11: Application argocd/kust's manifests (kust) are linted without its kustomize.commonAnnotations"; len(notes) != 1 || notes[0] != w {
		t.Errorf("notes %q, want %q", notes, w)
	}
	if res.Releases.Rendered != 2 || res.Releases.Unrendered != 0 {
		t.Errorf("releases %+v", res.Releases)
	}
}
