package helm

import (
	"sort"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
)

// testEnv shows paths relative to the repository root, as the CLI run from there would.
var testEnv = Env{Display: func(p string) string { return strings.TrimPrefix(p, "../../") }}

func render(t *testing.T, chart string, o Options) *Result {
	t.Helper()
	return Render("../../testdata/helm/"+chart, o, testEnv)
}

// find returns the resource of kind in the named variant.
func find(t *testing.T, res *Result, variant, kind string) *graph.Resource {
	t.Helper()
	for _, v := range res.Variants {
		if v.Name != variant {
			continue
		}
		for _, r := range v.Resources {
			if r.Kind == kind {
				return r
			}
		}
	}
	t.Fatalf("no %s in variant %q", kind, variant)
	return nil
}

func TestVariants(t *testing.T) {
	res := render(t, "app", Options{})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	got := map[string][]string{}
	for _, v := range res.Variants {
		for _, r := range v.Resources {
			got[v.Name] = append(got[v.Name], r.Kind)
			if r.Origin.Variant != v.Name || r.Origin.Format != graph.FormatHelm {
				t.Errorf("%s in %q has origin %+v", r, v.Name, r.Origin)
			}
		}
	}
	want := map[string][]string{
		"app":                              {"Deployment"},
		"app (ci/backup-values.yaml)":      {"CronJob", "Deployment"},
		"app (ci/hpa-values.yaml)":         {"Deployment", "HorizontalPodAutoscaler", "PersistentVolumeClaim"},
		"app (ci/persistence-values.yaml)": {"Deployment", "PersistentVolumeClaim"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("variants (-want +got):\n%s", diff)
	}
	if _, ok := res.Sources["testdata/helm/app#rendered(ci/hpa-values.yaml)"]; !ok {
		t.Errorf("rendered output missing from sources: %v", sortedKeys(res.Sources))
	}
	if _, ok := res.Sources["testdata/helm/app/templates/_helpers.tpl"]; !ok {
		t.Errorf("templates missing from sources: %v", sortedKeys(res.Sources))
	}
}

// TestPositions checks that rendered nodes land on the template lines that wrote them:
// the key's own line when the template has it, the nearest written ancestor inside a
// toYaml block, the define body in _helpers.tpl for included text.
func TestPositions(t *testing.T) {
	res := render(t, "app", Options{})
	dash := render(t, "app", Options{Set: []string{"persistence.enabled=true,persistence.storageClass=-"}})
	const (
		dep  = "testdata/helm/app/templates/deployment.yaml"
		help = "testdata/helm/app/templates/_helpers.tpl"
		pvc  = "testdata/helm/app/templates/pvc.yaml"
	)
	tests := []struct {
		res     *Result
		variant string
		kind    string
		path    []string
		value   bool // the value's range rather than the key's
		want    string
	}{
		{res, "app (ci/persistence-values.yaml)", "Deployment", []string{"spec", "replicas"}, false, dep + ":9:3"},
		{res, "app (ci/persistence-values.yaml)", "Deployment", []string{"spec", "replicas"}, true, dep + ":9:13"},
		{res, "app (ci/persistence-values.yaml)", "Deployment", []string{"spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, false, dep + ":43:13"},
		{res, "app (ci/persistence-values.yaml)", "Deployment", []string{"spec", "template", "spec", "volumes", "0"}, true, dep + ":40:11"},
		{res, "app", "Deployment", []string{"spec", "template", "spec", "volumes", "0", "emptyDir"}, false, dep + ":45:11"},
		{res, "app (ci/persistence-values.yaml)", "Deployment", []string{"metadata", "labels", "app.kubernetes.io/name"}, false, help + ":32:1"},
		{res, "app (ci/persistence-values.yaml)", "Deployment", []string{"metadata", "labels", "helm.sh/chart"}, false, help + ":23:1"},
		{res, "app (ci/backup-values.yaml)", "Deployment", []string{"spec", "strategy", "type"}, false, dep + ":12:3"},
		{res, "app (ci/backup-values.yaml)", "Deployment", []string{"spec", "template", "spec", "containers", "0", "resources", "limits", "memory"}, false, dep + ":37:11"},
		{res, "app (ci/backup-values.yaml)", "Deployment", []string{"spec", "template", "metadata", "annotations", "backup.example.com/enabled"}, false, dep + ":21:7"},
		{res, "app (ci/backup-values.yaml)", "CronJob", []string{"spec", "jobTemplate", "spec", "template", "spec", "volumes", "0", "persistentVolumeClaim", "claimName"}, false, help + ":54:5"},
		{res, "app (ci/backup-values.yaml)", "CronJob", []string{"spec", "concurrencyPolicy"}, false, "testdata/helm/app/templates/backup-cronjob.yaml:10:3"},
		{res, "app (ci/persistence-values.yaml)", "PersistentVolumeClaim", []string{"spec", "storageClassName"}, false, pvc + ":21:3"},
		{res, "app (ci/persistence-values.yaml)", "PersistentVolumeClaim", []string{"spec", "accessModes", "0"}, true, pvc + ":15:7"},
		{dash, "app (--set)", "PersistentVolumeClaim", []string{"spec", "storageClassName"}, false, pvc + ":19:3"},
		{res, "app (ci/hpa-values.yaml)", "HorizontalPodAutoscaler", []string{"spec", "maxReplicas"}, false, "testdata/helm/app/templates/hpa.yaml:14:3"},
	}
	for _, tt := range tests {
		r := find(t, tt.res, tt.variant, tt.kind)
		got := r.Locate(tt.path...)
		if tt.value {
			got = r.Get(tt.path...).Range
		}
		if got.String() != tt.want {
			t.Errorf("%s %s %v: at %s, want %s", tt.variant, tt.kind, tt.path, got, tt.want)
		}
		if got.File != "" && got.Start.Byte == 0 && got.Start.Line > 1 {
			t.Errorf("%s %v: range %+v has no byte offset", tt.kind, tt.path, got)
		}
	}
}

func TestResourceStartAndRelated(t *testing.T) {
	res := render(t, "app", Options{})
	pvc := find(t, res, "app (ci/persistence-values.yaml)", "PersistentVolumeClaim")
	// pvc.yaml's first line is the {{- if }}; the object starts on line 2.
	if pvc.Range.String() != "testdata/helm/app/templates/pvc.yaml:2:1" {
		t.Errorf("PVC range %s", pvc.Range)
	}
	want := graph.Origin{Format: graph.FormatHelm, File: "testdata/helm/app/templates/pvc.yaml",
		Variant: "app (ci/persistence-values.yaml)", Source: "app/templates/pvc.yaml"}
	if diff := cmp.Diff(want, pvc.Origin); diff != "" {
		t.Errorf("origin (-want +got):\n%s", diff)
	}
	if len(pvc.Related) != 1 || pvc.Related[0].Range.File != "testdata/helm/app#rendered(ci/persistence-values.yaml)" {
		t.Fatalf("related = %+v", pvc.Related)
	}
	// The related location is the object's first line in the rendered output.
	src := res.Sources[pvc.Related[0].Range.File]
	line := strings.Split(string(src), "\n")[pvc.Related[0].Range.Start.Line-1]
	if line != "apiVersion: v1" {
		t.Errorf("related line %q", line)
	}
}

func TestUserValues(t *testing.T) {
	res := render(t, "app", Options{
		ValueFiles:  []string{"../../testdata/helm/values/prod-values.yaml"},
		Set:         []string{"replicaCount=4"},
		ReleaseName: "shop",
	})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	if len(res.Variants) != 1 || res.Variants[0].Name != "app (testdata/helm/values/prod-values.yaml, --set)" {
		t.Fatalf("variants = %+v", res.Variants)
	}
	d := find(t, res, res.Variants[0].Name, "Deployment")
	if n, _ := d.Get("spec", "replicas").Int(); n != 4 || d.Name != "shop-app" {
		t.Errorf("Deployment %s replicas %d, want shop-app with --set replicas 4", d.Name, n)
	}
	p := find(t, res, res.Variants[0].Name, "PersistentVolumeClaim")
	if c := p.Get("spec", "storageClassName"); c == nil || c.Str() != "" {
		t.Errorf(`storageClass "-" rendered as %+v, want ""`, c)
	}
}

func TestTestHooks(t *testing.T) {
	for _, include := range []bool{false, true} {
		res := render(t, "app", Options{IncludeTests: include})
		var pods []string
		for _, r := range res.Variants[0].Resources {
			if r.Kind == "Pod" {
				pods = append(pods, r.Name)
			}
		}
		if got := len(pods) == 1; got != include {
			t.Errorf("IncludeTests=%v: test pods %v", include, pods)
		}
	}
}

// TestSandbox checks that templates see no cluster, no DNS and no file outside the
// chart, and that release options and capabilities reach them.
func TestSandbox(t *testing.T) {
	res := render(t, "sandbox", Options{Namespace: "shop", KubeVersion: "1.29"})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	cm := find(t, res, "sandbox", "ConfigMap")
	got := map[string]string{}
	for _, f := range cm.Get("data").Fields() {
		got[f.Key] = f.Value.Str()
	}
	want := map[string]string{"found": "0", "host": "", "settings": "mode=standalone", "escape": "",
		"namespace": "shop", "release": "release-name", "kube": "v1.29"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("data (-want +got):\n%s", diff)
	}
}

func TestSubchart(t *testing.T) {
	res := render(t, "umbrella", Options{})
	sts := find(t, res, "umbrella", "StatefulSet")
	if n, _ := sts.Get("spec", "replicas").Int(); n != 2 {
		t.Errorf("parent values did not reach the subchart: replicas %d", n)
	}
	// Written by the dependency's template from the parent's cache.replicas: reported
	// where the user sets it, the template related.
	if at := sts.Locate("spec", "replicas").String(); at != "testdata/helm/umbrella/values.yaml:3:13" {
		t.Errorf("replicas at %s", at)
	}
	const tpl = "testdata/helm/umbrella/charts/cache/templates/statefulset.yaml"
	if !hasRelated(sts, sts.Locate("spec", "replicas"), tpl+":6:", "template "+tpl+" of the dependency cache") {
		t.Errorf("template not related: %v", sts.Related)
	}
	if sts.Origin.Source != "umbrella/charts/cache/templates/statefulset.yaml" {
		t.Errorf("source %q", sts.Origin.Source)
	}
}

// hasRelated reports whether r has a related location shown with a finding at `for`,
// at a position starting with at, whose message starts with msg.
func hasRelated(r *graph.Resource, forRange graph.Range, at, msg string) bool {
	for _, l := range r.Related {
		if l.For == forRange && strings.HasPrefix(pos(l.Range), at) && strings.HasPrefix(l.Message, msg) {
			return true
		}
	}
	return false
}

// TestRenderErrors checks that a chart that cannot be loaded or rendered becomes a
// diagnostic at the file and line the error names, and that what did render is kept.
func TestRenderErrors(t *testing.T) {
	tests := []struct {
		chart   string
		opts    Options
		at      string
		msg     string
		variant string
		kinds   []string // resources still rendered
	}{
		{"broken-required", Options{}, "testdata/helm/broken-required/templates/pvc.yaml:9:18", "persistence.size is required", "broken-required", nil},
		{"broken-yaml", Options{}, "testdata/helm/broken-yaml/templates/deployment.yaml:8:1", "is not valid YAML", "broken-yaml", []string{"PersistentVolumeClaim"}},
		{"bad-chart", Options{}, "testdata/helm/bad-chart/Chart.yaml:4:1", "invalid Chart.yaml: did not find expected ',' or ']'", "", nil},
		{"bad-type", Options{}, "testdata/helm/bad-type/Chart.yaml:4:1", "chart.metadata.type must be application or library", "", nil},
		{"old-kube", Options{}, "testdata/helm/old-kube/Chart.yaml:4:1", "incompatible with Kubernetes v1.37.0", "old-kube", nil},
		{"umbrella", Options{}, "testdata/helm/umbrella/Chart.yaml:9:11", `dependency "postgresql" is not in charts/`, "", []string{"StatefulSet", "ConfigMap"}},
		{"umbrella-missing", Options{}, "testdata/helm/umbrella-missing/Chart.yaml:6:1", `dependencies "postgresql", "redis" are not in charts/ (pvlint never downloads charts; run ` + "`helm dependency build`" + `); their templates are not linted; without them the chart does not render: `, "", nil},
		{"app", Options{ValueFiles: []string{"../../testdata/helm/values/invalid-values.yaml"}}, "testdata/helm/values/invalid-values.yaml:3:1", "invalid values file", "", nil},
		{"app", Options{ValueFiles: []string{"../../testdata/helm/values/missing.yaml"}}, "testdata/helm/values/missing.yaml:1:1", "does not exist", "", nil},
		{"app", Options{Set: []string{"a[=1"}}, "testdata/helm/app/Chart.yaml:1:1", "invalid --set", "", nil},
		{"app", Options{MaxOutput: 100}, "testdata/helm/app/Chart.yaml:1:1", "more than the 100-byte limit", "app", nil},
	}
	for _, tt := range tests {
		t.Run(tt.chart+" "+tt.msg, func(t *testing.T) {
			res := render(t, tt.chart, tt.opts)
			if len(res.Diagnostics) == 0 {
				t.Fatal("no diagnostic")
			}
			d := res.Diagnostics[0]
			if d.Range.String() != tt.at || !strings.Contains(d.Message, tt.msg) || d.Variant != tt.variant {
				t.Errorf("diagnostic %s %q (variant %q), want at %s containing %q (variant %q)", d.Range, d.Message, d.Variant, tt.at, tt.msg, tt.variant)
			}
			var kinds []string
			for _, v := range res.Variants {
				for _, r := range v.Resources {
					kinds = append(kinds, r.Kind)
				}
			}
			if diff := cmp.Diff(tt.kinds, kinds); diff != "" {
				t.Errorf("rendered kinds (-want +got):\n%s", diff)
			}
		})
	}
}

func TestMultiDocumentTemplate(t *testing.T) {
	res := render(t, "multi", Options{})
	var got []string
	for _, r := range res.Variants[0].Resources {
		got = append(got, r.Kind+"/"+r.Name+" doc "+string(rune('0'+r.Origin.Doc))+" "+r.Locate("spec", "replicas").String())
	}
	sort.Strings(got)
	const f = "testdata/helm/multi/templates/workers.yaml"
	want := []string{
		"Deployment/worker-alpha doc 1 " + f + ":18:3",
		"Deployment/worker-beta doc 1 " + f + ":18:3",
		"PersistentVolumeClaim/shared doc 0 " + f + ":5:1",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("resources (-want +got):\n%s", diff)
	}
}

func TestCheck(t *testing.T) {
	if err := (Options{Set: []string{"a=1,b.c=2"}, KubeVersion: "1.30"}).Check(); err != nil {
		t.Errorf("valid options: %v", err)
	}
	for _, o := range []Options{{Set: []string{"a[=1"}}, {SetString: []string{"x[1=2"}}, {KubeVersion: "latest"}} {
		if err := o.Check(); err == nil {
			t.Errorf("%+v: no error", o)
		}
	}
}

// TestMissingDependenciesOneFinding: N missing dependencies and the render failure
// they cause are one finding, not N + 1.
func TestMissingDependenciesOneFinding(t *testing.T) {
	res := render(t, "umbrella-missing", Options{})
	if len(res.Diagnostics) != 1 {
		t.Errorf("diagnostics = %v, want one", res.Diagnostics)
	}
}
