package helm

import (
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

const realCharts = "../../testdata/realrepo/charts/"

// confinedEnv is an Env whose reads stay in dir (relative to this package) and that
// shows paths relative to the repository's top.
func confinedEnv(t *testing.T, dir string) Env {
	t.Helper()
	top, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	if top, err = filepath.EvalSymlinks(top); err != nil {
		t.Fatal(err)
	}
	if root, err = filepath.EvalSymlinks(root); err != nil {
		t.Fatal(err)
	}
	return Env{
		Display: func(p string) string {
			if abs, err := filepath.Abs(p); err == nil {
				if rel, err := filepath.Rel(top, abs); err == nil {
					return filepath.ToSlash(rel)
				}
			}
			return filepath.ToSlash(p)
		},
		Inside: func(p string) bool {
			rel, err := filepath.Rel(root, p)
			return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
		},
	}
}

// TestLocalDependency: a dependency with a file:// repository is read from there, as
// `helm dependency build` would copy it, when it lies in the linted root; outside, it
// is one note at its repository line and is not read.
func TestLocalDependency(t *testing.T) {
	res := Render(realCharts+"uses-toolkit", Options{}, confinedEnv(t, realCharts))
	if len(res.Diagnostics) != 0 {
		t.Errorf("diagnostics: %v", res.Diagnostics)
	}
	dep := find(t, res, "uses-toolkit", "Deployment")
	if n, _ := dep.Get("spec", "replicas").Int(); n != 1 {
		t.Errorf("replicas %d, want the chart's 1", n)
	}
	if _, ok := res.Sources["testdata/realrepo/charts/toolkit/templates/_deployment.tpl"]; !ok {
		t.Errorf("library template not among the sources: %v", sortedKeys(res.Sources))
	}

	// Without the library the chart does not render: then not a mere note.
	for _, tc := range []struct {
		chart, root, at string
		note            bool
	}{
		{"uses-toolkit", realCharts + "uses-toolkit", "testdata/realrepo/charts/uses-toolkit/Chart.yaml:8:17", false},
		{"escape", realCharts, "testdata/realrepo/charts/escape/Chart.yaml:7:17", true},
	} {
		res := Render(realCharts+tc.chart, Options{}, confinedEnv(t, tc.root))
		if len(res.Diagnostics) != 1 {
			t.Fatalf("%s: diagnostics %v, want one", tc.chart, res.Diagnostics)
		}
		d := res.Diagnostics[0]
		if d.Range.String() != tc.at || d.Note != tc.note || !strings.Contains(d.Message, "leads outside the linted root: pvlint does not read it") {
			t.Errorf("%s: %s %q (note %v), want at %s (note %v)", tc.chart, d.Range, d.Message, d.Note, tc.at, tc.note)
		}
		for src := range res.Sources {
			if strings.Contains(src, "charts/toolkit/") {
				t.Errorf("%s: read %s outside the root", tc.chart, src)
			}
		}
	}
}

// TestMissingDependencyDisabled: a chart whose templates need a missing dependency
// renders with the dependency's condition false; the missing dependency is one note;
// the chart's own required and fail are told as such, for the variant.
func TestMissingDependencyDisabled(t *testing.T) {
	res := Render(realCharts+"needs-db", Options{}, confinedEnv(t, realCharts))
	dep := find(t, res, "needs-db", "Deployment")
	if host := dep.Get("spec", "template", "spec", "containers", "0", "env", "0", "value").Str(); host != "db.example.com" {
		t.Errorf("DB_HOST %q, want the external database's", host)
	}
	want := []struct{ at, msg, variant string }{
		{"testdata/realrepo/charts/needs-db/Chart.yaml:7:11", "it is rendered with postgresql.enabled=false", ""},
		{"testdata/realrepo/charts/needs-db/templates/secret.yaml:7:15", "chart needs-db (values ci/auth-values.yaml): required value not set: `auth.password is required when auth.enabled is true`", "needs-db (ci/auth-values.yaml)"},
		{"testdata/realrepo/charts/needs-db/templates/secret.yaml:10:4", "chart needs-db (values ci/cluster-values.yaml): the chart refuses these values: `mode cluster is not supported with a single database`", "needs-db (ci/cluster-values.yaml)"},
	}
	if len(res.Diagnostics) != len(want) {
		t.Fatalf("diagnostics %v, want %d", res.Diagnostics, len(want))
	}
	for i, w := range want {
		d := res.Diagnostics[i]
		if d.Range.String() != w.at || !strings.Contains(d.Message, w.msg) || d.Variant != w.variant {
			t.Errorf("diagnostic %d: %s %q (variant %q), want at %s containing %q (variant %q)", i, d.Range, d.Message, d.Variant, w.at, w.msg, w.variant)
		}
	}
	if !res.Diagnostics[0].Note {
		t.Errorf("the missing dependency of a chart that renders is not a note")
	}

	res = Render(realCharts+"no-cond", Options{}, confinedEnv(t, realCharts))
	if len(res.Diagnostics) != 1 || res.Diagnostics[0].Note || !strings.Contains(res.Diagnostics[0].Message, "without it the chart does not render") {
		t.Errorf("no-cond: %v, want one error saying the chart does not render without redis", res.Diagnostics)
	}
}

// TestLibraryPositions: fields a library chart's define writes are at the values
// line they come from, in the variant's values file first; the template line that
// wrote each is related to what is reported there.
func TestLibraryPositions(t *testing.T) {
	res := Render(realCharts+"uses-toolkit", Options{}, confinedEnv(t, realCharts))
	const chart = "testdata/realrepo/charts/uses-toolkit/"
	const tpl = "testdata/realrepo/charts/toolkit/templates/_deployment.tpl"
	for _, tc := range []struct {
		variant, kind string
		path          []string
		at            string
		tplLine       int
	}{
		// .Values on the template line, in the variant's file or values.yaml.
		{"uses-toolkit", "Deployment", []string{"spec", "replicas"}, chart + "values.yaml:7:13", 9},
		{"uses-toolkit (ci/ha-values.yaml)", "Deployment", []string{"spec", "replicas"}, chart + "ci/ha-values.yaml:3:13", 9},
		{"uses-toolkit", "PersistentVolumeClaim", []string{"spec", "accessModes", "0"}, chart + "values.yaml:9:15", 33},
		// Through a variable bound to values.
		{"uses-toolkit", "Deployment", []string{"spec", "template", "spec", "terminationGracePeriodSeconds"}, chart + "values.yaml:4:34", 17},
		// Read with index: the one key of that name (in any spelling) holding that value.
		{"uses-toolkit", "Deployment", []string{"spec", "revisionHistoryLimit"}, chart + "values.yaml:5:27", 10},
		// Nothing in the values says it: the variant's values file, at its first key,
		// with the object's kind line.
		{"uses-toolkit", "Deployment", []string{"spec", "strategy"}, chart + "values.yaml:1:1", 5},
		{"uses-toolkit (ci/backup-values.yaml)", "CronJob", []string{"spec", "concurrencyPolicy"}, chart + "ci/backup-values.yaml:2:1", 39},
	} {
		r := find(t, res, tc.variant, tc.kind)
		got := r.Locate(tc.path...)
		if pos(got) != tc.at {
			t.Errorf("%s %s %v at %s, want %s", tc.variant, tc.kind, tc.path, pos(got), tc.at)
		}
		var rel []string
		for _, l := range r.Related {
			if l.For == got {
				rel = append(rel, pos(l.Range)+" "+l.Message)
			}
		}
		want := []string{tpl + ":" + strconv.Itoa(tc.tplLine) + ":" + " template " + tpl + " of the library chart toolkit, which writes it"}
		if len(rel) != 1 || !strings.HasPrefix(rel[0], tpl+":"+strconv.Itoa(tc.tplLine)+":") || !strings.HasSuffix(rel[0], "of the library chart toolkit, which writes it") {
			t.Errorf("%s %s %v: related %q, want %q", tc.variant, tc.kind, tc.path, rel, want)
		}
	}
}

// pos is a range's file, line and column.
func pos(rg graph.Range) string {
	return rg.File + ":" + strconv.Itoa(int(rg.Start.Line)) + ":" + strconv.Itoa(int(rg.Start.Column))
}

// TestLocalDependencySymlink: a file:// directory inside the root that is a symlink
// to a chart outside it is not read.
func TestLocalDependencySymlink(t *testing.T) {
	base := t.TempDir()
	root := filepath.Join(base, "root")
	write := func(p, s string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(base, "outside", "lib", "Chart.yaml"), "apiVersion: v2\nname: lib\nversion: 0.1.0\n")
	write(filepath.Join(base, "outside", "lib", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: outside}\n")
	write(filepath.Join(root, "app", "Chart.yaml"), "apiVersion: v2\nname: app\nversion: 0.1.0\ndependencies:\n  - name: lib\n    repository: file://../lib\n    version: 0.1.0\n")
	write(filepath.Join(root, "app", "templates", "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: app}\n")
	if err := os.Symlink(filepath.Join(base, "outside", "lib"), filepath.Join(root, "lib")); err != nil {
		t.Fatal(err)
	}
	res := Render(filepath.Join(root, "app"), Options{}, tempEnv(root))
	if len(res.Diagnostics) != 1 || !res.Diagnostics[0].Note || !strings.Contains(res.Diagnostics[0].Message, "leads outside the linted root through a symlink") {
		t.Errorf("diagnostics %v, want one note about the symlink", res.Diagnostics)
	}
	for _, v := range res.Variants {
		for _, r := range v.Resources {
			if r.Name == "outside" {
				t.Errorf("rendered %s/%s from outside the root", r.Kind, r.Name)
			}
		}
	}
}

// TestForeignTemplates: only templates of charts under charts/ are moved to the
// values, with the values scope of nested dependencies; the chart's own templates
// stay where they are, even in a directory named charts.
func TestForeignTemplates(t *testing.T) {
	rd := &Rendered{Sources: map[string][]byte{"values.yaml": []byte("a: 1\n")}}
	v := RenderedVariant{Values: []string{"values.yaml"}, Templates: []Template{
		{Name: "app/templates/charts/x.yaml", Display: "own"},
		{Name: "app/charts/db/templates/sts.yaml", Display: "db"},
		{Name: "app/charts/db/charts/common/templates/_names.tpl", Display: "common"},
	}}
	rl := rd.newRelocator(v, newRelocCache())
	if rl == nil {
		t.Fatal("no relocator")
	}
	got := map[string]string{}
	for d, ft := range rl.foreign {
		got[d] = strings.Join(ft.scope, ".") + " " + strconv.FormatBool(ft.library)
	}
	want := map[string]string{"db": "db false", "common": "db.common true"}
	if len(got) != len(want) || got["db"] != want["db"] || got["common"] != want["common"] {
		t.Errorf("foreign templates %v, want %v", got, want)
	}
}

// TestCheckThroughInclude: a required reached through an include is reported at the
// required itself, found by its message, not at the include Helm names.
func TestCheckThroughInclude(t *testing.T) {
	res := Render(realCharts+"needs-db", Options{Set: []string{"secrets.enabled=true"}}, confinedEnv(t, realCharts))
	var got []string
	for _, d := range res.Diagnostics {
		got = append(got, pos(d.Range)+" "+d.Message)
	}
	const want = "testdata/realrepo/charts/needs-db/templates/_secrets.tpl:3:11 chart needs-db (values --set): required value not set: `secrets.key is required`"
	if !slices.Contains(got, want) {
		t.Errorf("diagnostics %q, want %q", got, want)
	}
}
