package rewrite

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

// fixedJSON is fixed for a JSON manifest: it resolves edits built from the resource
// and applies them, checking that the result is still valid JSON.
func fixedJSON(t *testing.T, src string, edits func(r *graph.Resource) []lint.Edit) (string, string) {
	t.Helper()
	rs, diags := manifest.Parse("in.json", []byte(src), manifest.Options{})
	if len(diags) > 0 || len(rs) == 0 {
		t.Fatalf("parse: %v", diags)
	}
	r := rs[0]
	fix := &lint.Fix{Description: "test", Edits: edits(r)}
	res := NewResolver(func(string) ([]byte, bool) { return []byte(src), true }, false).Resolve(fix, r)
	if res.NotApplied != "" {
		return "", res.NotApplied
	}
	out := string(Apply([]byte(src), res.Changes))
	if err := Check("in.json", []byte(out)); err != nil {
		t.Fatalf("fixed text is not JSON: %v\n%s", err, out)
	}
	return out, ""
}

// TestJSONEdits: a JSON manifest is fixed like a YAML one, keeping its indentation
// (spaces or tabs), one-line objects on one line, and the other bytes untouched.
func TestJSONEdits(t *testing.T) {
	recreate := func(r *graph.Resource) []lint.Edit {
		s := r.Get("spec", "strategy")
		if s == nil {
			return lint.Put(r.Get("spec"), "strategy", lint.Map("type", lint.String("Recreate")))
		}
		edits := lint.Put(s, "type", lint.String("Recreate"))
		if s.Field("rollingUpdate") != nil {
			edits = append(edits, lint.Delete(s, "rollingUpdate"))
		}
		return edits
	}
	cases := []struct{ name, src, want string }{{
		name: "insert a nested object at four spaces",
		src:  "{\n    \"kind\": \"Deployment\",\n    \"spec\": {\n        \"replicas\": 1,\n        \"template\": {\n            \"spec\": {}\n        }\n    }\n}\n",
		want: "{\n    \"kind\": \"Deployment\",\n    \"spec\": {\n        \"replicas\": 1,\n        \"template\": {\n            \"spec\": {}\n        },\n        \"strategy\": {\n            \"type\": \"Recreate\"\n        }\n    }\n}\n",
	}, {
		name: "tabs",
		src:  "{\n\t\"kind\": \"Deployment\",\n\t\"spec\": {\n\t\t\"replicas\": 1\n\t}\n}\n",
		want: "{\n\t\"kind\": \"Deployment\",\n\t\"spec\": {\n\t\t\"replicas\": 1,\n\t\t\"strategy\": {\n\t\t\t\"type\": \"Recreate\"\n\t\t}\n\t}\n}\n",
	}, {
		name: "set the type and delete rollingUpdate after it",
		src:  "{\"kind\": \"Deployment\", \"spec\": {\"strategy\": {\"type\": \"RollingUpdate\", \"rollingUpdate\": {\"maxSurge\": 0}}}}",
		want: "{\"kind\": \"Deployment\", \"spec\": {\"strategy\": {\"type\": \"Recreate\"}}}",
	}, {
		name: "delete rollingUpdate before the type, insert into a one-line object",
		src:  "{\"kind\": \"Deployment\", \"spec\": {\"strategy\": {\"rollingUpdate\": {\"maxSurge\": 0}, \"x\": 1}}}",
		want: "{\"kind\": \"Deployment\", \"spec\": {\"strategy\": {\"x\": 1, \"type\": \"Recreate\"}}}",
	}, {
		name: "fill an empty object",
		src:  "{\"kind\": \"Deployment\", \"spec\": {\"strategy\": {}}}",
		want: "{\"kind\": \"Deployment\", \"spec\": {\"strategy\": {\"type\": \"Recreate\"}}}",
	}}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Every case is a Deployment with a name; the cases spell only its kind.
			named := func(s string) string {
				return strings.Replace(s, `"kind": "Deployment"`, `"apiVersion": "apps/v1", "kind": "Deployment", "metadata": {"name": "w"}`, 1)
			}
			c.src, c.want = named(c.src), named(c.want)
			got, reason := fixedJSON(t, c.src, recreate)
			if reason != "" {
				t.Fatalf("not applied: %s", reason)
			}
			if d := cmp.Diff(c.want, got); d != "" {
				t.Errorf("(-want +got):\n%s", d)
			}
		})
	}
}
