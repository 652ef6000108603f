package suppress_test

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/suppress"
)

func TestMatchPath(t *testing.T) {
	tests := []struct {
		pattern, name string
		want          bool
	}{
		{"app.yaml", "app.yaml", true},
		{"app.yaml", "sub/app.yaml", false},
		{"**/app.yaml", "app.yaml", true},
		{"**/app.yaml", "a/b/app.yaml", true},
		{"legacy", "legacy/app.yaml", true},
		{"legacy/", "legacy/deep/app.yaml", true},
		{"legacy/**", "legacy/app.yaml", true},
		{"./legacy/*.yaml", "legacy/app.yaml", true},
		{"legacy/*.yaml", "legacy/deep/app.yaml", false},
		{"legacy", "legacy-new/app.yaml", false},
		{"charts/*/templates/**", "charts/web/templates/deploy.yaml", true},
		{"charts/*/templates/**", "charts/web/values.yaml", false},
		{"**/templates/*.yaml", "charts/web/templates/deploy.yaml", true},
		{"a/**/b/**/c.tf", "a/x/b/y/z/c.tf", true},
		{"a/**/b/**/c.tf", "a/x/y/z/c.tf", false},
		{"*.tf", "main.tf", true},
		{"*.tf", "mod/main.tf", false},
		{"[", "[", false},
		{"", "app.yaml", false},
	}
	for _, tc := range tests {
		if got := suppress.MatchPath(tc.pattern, tc.name); got != tc.want {
			t.Errorf("MatchPath(%q, %q) = %v, want %v", tc.pattern, tc.name, got, tc.want)
		}
	}
}

func TestCheckPath(t *testing.T) {
	for _, p := range []string{"a/**/b", "*.yaml", "legacy/"} {
		if err := suppress.CheckPath(p); err != nil {
			t.Errorf("CheckPath(%q): %v", p, err)
		}
	}
	for _, p := range []string{"", "./", "/abs/path", "a/[b"} {
		if err := suppress.CheckPath(p); err == nil {
			t.Errorf("CheckPath(%q) accepted a bad pattern", p)
		}
	}
}

func TestMatchResource(t *testing.T) {
	web := &graph.Resource{Kind: "Deployment", Namespace: "prod", Name: "web"}
	sc := &graph.Resource{Kind: "StorageClass", Name: "gp2"}
	tests := []struct {
		pattern string
		r       *graph.Resource
		want    bool
	}{
		{"Deployment/prod/web", web, true},
		{"Deployment/web", web, true},
		{"Deployment/*/w*", web, true},
		{"Deployment/dev/web", web, false},
		{"StatefulSet/prod/web", web, false},
		{"deployment/prod/web", web, false},
		{"StorageClass/gp2", sc, true},
		{"StorageClass/*/gp2", sc, true}, // "*" matches a cluster-scoped kind's empty namespace
		{"StorageClass/default/gp2", sc, false},
		{"Deployment", web, false},
		{"Deployment/prod/web", nil, false},
	}
	for _, tc := range tests {
		if got := suppress.MatchResource(tc.pattern, tc.r); got != tc.want {
			t.Errorf("MatchResource(%q, %v) = %v, want %v", tc.pattern, tc.r, got, tc.want)
		}
	}
	for _, p := range []string{"Deployment", "a/b/c/d", "Deployment//web", "Deployment/[x"} {
		if err := suppress.CheckResource(p); err == nil {
			t.Errorf("CheckResource(%q) accepted a bad pattern", p)
		}
	}
	if err := suppress.CheckResource("Deployment/*/web"); err != nil {
		t.Error(err)
	}
}
