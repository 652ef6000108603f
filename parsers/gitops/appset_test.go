package gitops

import (
	"strings"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
)

// TestExpanderTemplates: Argo CD's two template syntaxes, and what a template from an
// untrusted repository may not do (run without bound, pad a value to a gigabyte).
func TestExpanderTemplates(t *testing.T) {
	p := params{
		flat: map[string]string{"path": "apps/web", "path.basename": "web", "path[0]": "apps"},
		tree: map[string]any{"path": map[string]any{"path": "apps/web", "basename": "web", "segments": []any{"apps", "web"}}},
	}
	flat := &expander{budget: maxGeneratedBytes}
	for in, want := range map[string]string{
		"{{path}}":                        "apps/web",
		"{{ path.basename }}-{{path[0]}}": "web-apps",
		"{{unknown}}/{{path":              "{{unknown}}/{{path",
		"{{}}":                            "{{}}",
	} {
		if got, err := flat.text(in, p); err != nil || got != want {
			t.Errorf("text(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	gotpl := &expander{goTpl: true, budget: maxGeneratedBytes}
	for in, want := range map[string]string{
		"{{.path.path}}":                           "apps/web",
		"{{index .path.segments 0}}":               "apps",
		`{{ .path.basename | upper | quote }}`:     `"WEB"`,
		`{{ if eq .path.basename "web" }}y{{end}}`: "y",
		`{{ .path.path | replace "/" "-" }}`:       "apps-web",
	} {
		if got, err := gotpl.text(in, p); err != nil || got != want {
			t.Errorf("goTemplate %q = %q, %v; want %q", in, got, err, want)
		}
	}
	start := time.Now()
	for in, want := range map[string]string{
		`{{printf "%0999999999d" 1}}`:                                      "it calls printf",
		`{{range .path.segments}}{{range $.path.segments}}x{{end}}{{end}}`: "it ranges",
		`{{define "a"}}{{template "a"}}{{end}}{{template "a"}}`:            "defines templates",
		`{{template "a"}}`: "calls a template",
		`{{ .path.path | replace "a" "` + strings.Repeat("b", 40000) + `" | replace "b" "cc" }}`: "longer than",
		`{{ .path.path | replace "" "x" }}`: "longer than",
	} {
		_, err := gotpl.text(in, p)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("goTemplate %.40q: err %v, want %q", in, err, want)
		}
	}
	big := params{flat: map[string]string{"x": strings.Repeat("y", 1000)}}
	if _, err := flat.text(strings.Repeat("{{x}}", 100), big); err == nil || !strings.Contains(err.Error(), "longer than") {
		t.Errorf("100 KB of substitution: err %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{"Web_One": "web-one", "-a.b-": "a.b", "x y": "x-y"} {
		if got := sanitizeName(in); got != want {
			t.Errorf("sanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzExpander: any template string of an ApplicationSet, in either syntax, renders
// or fails within the bounds, and never panics.
func FuzzExpander(f *testing.F) {
	for _, s := range []string{"{{path}}", "{{ .path.basename | upper }}", `{{ if eq .path.path "a" }}x{{ else }}{{ index .path.segments 0 }}{{ end }}`,
		`{{ .path.path | replace "a" "bb" | replace "b" "cc" }}`, "{{", "}}{{", `{{ default "x" .nope }}`, `{{ template "a" }}`} {
		f.Add(s, true)
		f.Add(s, false)
	}
	p := params{
		flat: map[string]string{"path": "apps/web", "path.basename": "web"},
		tree: map[string]any{"path": map[string]any{"path": "apps/web", "basename": "web", "segments": []any{"apps", "web"}}},
	}
	f.Fuzz(func(t *testing.T, s string, goTpl bool) {
		ex := &expander{goTpl: goTpl, budget: maxGeneratedBytes}
		out, err := ex.text(s, p)
		if err == nil && len(out) > maxScalar {
			t.Errorf("%d bytes from %q", len(out), s)
		}
	})
}

// TestDirParams: a directory's parameters in both syntaxes, under pathParamPrefix, and
// the generator's values rendered with them.
func TestDirParams(t *testing.T) {
	gen := &graph.Node{Kind: graph.Map}
	gen.AddFields(graph.Field{Key: "pathParamPrefix", Value: &graph.Node{Kind: graph.String, Scalar: "app"}},
		graph.Field{Key: "values", Value: graph.NewMap(graph.Range{}, []graph.Field{{Key: "ns", Value: &graph.Node{Kind: graph.String, Scalar: "ns-{{app.path.basenameNormalized}}"}}})})
	p, err := dirParams("apps/My_App", gen, &expander{budget: maxGeneratedBytes})
	if err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]string{"app.path": "apps/My_App", "app.path.basename": "My_App", "app.path[1]": "My_App", "app.path[0]": "apps", "values.ns": "ns-my-app"} {
		if p.flat[k] != want {
			t.Errorf("%s = %q, want %q", k, p.flat[k], want)
		}
	}
	ex := &expander{goTpl: true, budget: maxGeneratedBytes}
	if got, err := ex.text("{{.app.path.basenameNormalized}} {{index .app.path.segments 0}}", p); err != nil || got != "my-app apps" {
		t.Errorf("goTemplate = %q, %v", got, err)
	}
}
