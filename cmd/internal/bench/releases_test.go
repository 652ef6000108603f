package bench

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/load"
)

// releaseCharts is how many charts the release benchmarks render.
const releaseCharts = 100

// chartFiles are one small chart's files: a Deployment mounting a claim.
func chartFiles(name string) map[string]string {
	return map[string]string{
		"Chart.yaml":  "apiVersion: v2\nname: " + name + "\nversion: 1.0.0\n",
		"values.yaml": "replicaCount: 1\nsize: 1Gi\n",
		"templates/deployment.yaml": `apiVersion: apps/v1
kind: Deployment
metadata:
  name: {{ .Release.Name }}
spec:
  replicas: {{ .Values.replicaCount }}
  strategy: {type: Recreate}
  selector: {matchLabels: {app: {{ .Release.Name }}}}
  template:
    metadata: {labels: {app: {{ .Release.Name }}}}
    spec:
      containers: [{name: app, image: "app:1"}]
      volumes: [{name: data, persistentVolumeClaim: {claimName: {{ .Release.Name }}-data}}]
`,
		"templates/pvc.yaml": `apiVersion: v1
kind: PersistentVolumeClaim
metadata:
  name: {{ .Release.Name }}-data
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: {{ .Values.size }}}}
`,
	}
}

func writeFiles(tb testing.TB, dir string, files map[string]string) {
	tb.Helper()
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
}

// releasesRepo writes a repository of releaseCharts Flux HelmReleases of one chart of
// the chart cache (an archive as helm pull writes it), each with values of its own,
// and returns it with the cache.
func releasesRepo(tb testing.TB) (dir, cache string) {
	dir, cache = filepath.Join(root, "releases-cache"), filepath.Join(root, "releases-cache-charts")
	var b strings.Builder
	b.WriteString("apiVersion: source.toolkit.fluxcd.io/v1\nkind: HelmRepository\nmetadata: {name: charts, namespace: flux-system}\nspec: {url: https://charts.example.com}\n")
	for i := range releaseCharts {
		fmt.Fprintf(&b, "---\napiVersion: helm.toolkit.fluxcd.io/v2\nkind: HelmRelease\nmetadata: {name: app%d, namespace: apps}\nspec:\n  chart:\n    spec:\n      chart: kv\n      version: 1.0.0\n      sourceRef: {kind: HelmRepository, name: charts, namespace: flux-system}\n  values:\n    replicaCount: %d\n", i, i%3+1)
	}
	writeFiles(tb, dir, map[string]string{"releases.yaml": b.String()})
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	tw := tar.NewWriter(zw)
	for name, text := range chartFiles("kv") {
		if err := tw.WriteHeader(&tar.Header{Name: "kv/" + name, Mode: 0o644, Size: int64(len(text)), Typeflag: tar.TypeReg}); err != nil {
			tb.Fatal(err)
		}
		tw.Write([]byte(text))
	}
	tw.Close()
	zw.Close()
	writeFiles(tb, cache, map[string]string{"kv-1.0.0.tgz": buf.String()})
	return dir, cache
}

// chartsRepo writes a repository of releaseCharts charts (the same chart, each its
// own directory with its own values), which pvlint renders with their defaults.
func chartsRepo(tb testing.TB) string {
	dir := filepath.Join(root, "releases-repo")
	for i := range releaseCharts {
		files := chartFiles(fmt.Sprintf("app%d", i))
		files["values.yaml"] = fmt.Sprintf("replicaCount: %d\nsize: 1Gi\n", i%3+1)
		writeFiles(tb, filepath.Join(dir, "charts", fmt.Sprintf("app%d", i)), files)
	}
	return dir
}

// BenchmarkReleases compares rendering 100 GitOps releases of a chart of the cache
// (each HelmRelease read, its chart found in the cache, unpacked from the archive,
// rendered with its values, the positions moved to the release) with rendering 100
// charts of the repository (the walk's charts, each with its defaults): the cost of a
// release over a chart (docs/performance.md). In-process rendering, as BenchmarkLoad.
func BenchmarkReleases(b *testing.B) {
	cacheDir, cache := releasesRepo(b)
	repoDir := chartsRepo(b)
	for _, c := range []struct {
		name string
		opts load.Options
	}{
		{"cache-100", load.Options{Dir: cacheDir, Charts: []string{cache}}},
		{"repo-100", load.Options{Dir: repoDir}},
	} {
		b.Run(c.name, func(b *testing.B) {
			res := load.Load([]string{"."}, c.opts)
			if n := len(res.Variants); n != releaseCharts || len(res.Diagnostics) > 0 {
				b.Fatalf("%d variants, diagnostics %v; want %d rendered", n, res.Diagnostics, releaseCharts)
			}
			loop(b, func(func(func())) { load.Load([]string{"."}, c.opts) })
		})
	}
}
