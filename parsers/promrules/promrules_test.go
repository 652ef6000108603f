package promrules

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

func span(r graph.Range) [4]int {
	return [4]int{int(r.Start.Line), int(r.Start.Column), int(r.End.Line), int(r.End.Column)}
}

func TestParseRanges(t *testing.T) {
	data, err := os.ReadFile("testdata/rules.yaml")
	if err != nil {
		t.Fatal(err)
	}
	if !Detect(data) {
		t.Fatal("Detect = false for a rules file")
	}
	rs, ds := Parse("rules.yaml", data, manifest.Options{})
	if len(ds) != 0 || len(rs) != 1 {
		t.Fatalf("got %d resources, diagnostics %v; want 1 resource", len(rs), ds)
	}
	r := rs[0]
	if r.APIVersion != APIVersion || r.Kind != Kind || r.Name != "rules.yaml" || r.Origin.File != "rules.yaml" || r.Origin.Format != graph.FormatYAML {
		t.Fatalf("identity = %s %s %s %+v", r.APIVersion, r.Kind, r.Name, r.Origin)
	}
	if r.Get("kind").Str() != Kind || r.Get("apiVersion").Str() != APIVersion || r.Get("metadata", "name").Str() != "rules.yaml" {
		t.Errorf("object identity fields = %q %q %q", r.Get("apiVersion").Str(), r.Get("kind").Str(), r.Get("metadata", "name").Str())
	}
	tests := []struct {
		name string
		got  graph.Range
		want [4]int
	}{
		{"resource", r.Range, [4]int{2, 1, 15, 12}},
		{"first expr", r.Get("spec", "groups", "0", "rules", "0", "expr").Range, [4]int{7, 15, 7, 57}},
		{"block expr", r.Get("spec", "groups", "0", "rules", "1", "expr").Range, [4]int{12, 15, 15, 12}},
		{"groups key", r.Locate("spec", "groups"), [4]int{2, 1, 2, 7}},
		{"for key", r.Locate("spec", "groups", "0", "rules", "0", "for"), [4]int{8, 9, 8, 12}},
		{"missing field falls back to rule", r.Locate("spec", "groups", "0", "rules", "0", "annotations"), [4]int{6, 9, 10, 28}},
	}
	for _, tc := range tests {
		if d := cmp.Diff(tc.want, span(tc.got)); d != "" {
			t.Errorf("%s range (-want +got):\n%s", tc.name, d)
		}
		if tc.got.File != "rules.yaml" {
			t.Errorf("%s file = %q", tc.name, tc.got.File)
		}
	}
	want := "count by (namespace) (\n  kube_persistentvolumeclaim_status_phase{phase=\"Pending\"} == 1\n)\n"
	if got := r.Get("spec", "groups", "0", "rules", "1", "expr").Str(); got != want {
		t.Errorf("block expr = %q, want %q", got, want)
	}
}

func TestParseSelectsRulesDocuments(t *testing.T) {
	src := strings.Join([]string{
		"apiVersion: v1", // 1: a Kubernetes object: not a rules file
		"kind: ConfigMap",
		"metadata: {name: x}",
		"---",
		"groups:", // 5: groups without any expr (e.g. a values file): skipped
		"  - name: a",
		"---",
		"groups: [{name: b, rules: [{alert: A, expr: up == 0}]}]", // 8
		"---",
		"groups: [oops", // 10: broken YAML: a diagnostic, the rest still read
		"---",
		"groups:", // 12
		"  - name: c",
		"    rules:",
		"      - record: r",
		"        expr: vector(1)",
	}, "\n") + "\n"
	rs, ds := Parse("multi.yaml", []byte(src), manifest.Options{})
	var got []string
	for _, r := range rs {
		got = append(got, fmt.Sprintf("%s doc %d line %d", r.Kind, r.Origin.Doc, r.Range.Start.Line))
	}
	want := []string{"PrometheusRulesFile doc 2 line 8", "PrometheusRulesFile doc 4 line 12"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("resources (-want +got):\n%s", d)
	}
	if len(ds) != 1 || ds[0].Range.Start.Line < 9 || ds[0].Range.Start.Line > 10 || ds[0].Range.File != "multi.yaml" {
		t.Errorf("diagnostics = %v, want one on the broken document (line 9 or 10)", ds)
	}
}

func TestDetect(t *testing.T) {
	for src, want := range map[string]bool{
		"groups:\n- name: a\n":                    true,
		"# c\ngroups :\n":                         true,
		"a: 1\ngroups\t:\n":                       true,
		"x: groups\ngroups: []":                   true,
		"spec:\n  groups:\n  - name: a\n":         false, // a PrometheusRule: manifest.Parse reads it
		"kind: Deployment\nmetadata: {name: g}\n": false,
		"groupsx:\n":                              false,
		"groups":                                  false,
		"groups \n:":                              false,
		"a: 1\r\ngroups:\r\n":                     true,
		"a:\rgroups:":                             false, // a lone CR ends no line for (?m)^
		"":                                        false,
	} {
		if got := Detect([]byte(src)); got != want {
			t.Errorf("Detect(%q) = %v, want %v", src, got, want)
		}
	}
}

// FuzzDetect checks Detect against the regular expression it replaces.
func FuzzDetect(f *testing.F) {
	oracle := regexp.MustCompile(`(?m)^groups[ \t]*:`)
	for _, s := range []string{"groups:", "a\ngroups \t:", "groupsgroups:\ngroups", "\ngroups\n:"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if got, want := Detect(data), oracle.Match(data); got != want {
			t.Errorf("Detect(%q) = %v, the regular expression says %v", data, got, want)
		}
	})
}

// FuzzParse checks that no input panics and every resource has a valid range.
func FuzzParse(f *testing.F) {
	if data, err := os.ReadFile("testdata/rules.yaml"); err == nil {
		f.Add(data)
	}
	f.Add([]byte("groups: [{rules: [{expr: 1}]}]\n---\ngroups:\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, _ := Parse("f.yaml", data, manifest.Options{Limits: manifest.Limits{MaxNodes: 10000, MaxDepth: 100, MaxDocs: 100}})
		for _, r := range rs {
			if !r.Range.IsValid() || !r.Get("spec", "groups").Is(graph.List) {
				t.Fatalf("resource without a range or groups: %+v", r)
			}
		}
	})
}
