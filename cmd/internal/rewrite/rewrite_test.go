package rewrite

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

// parse reads one YAML document into a resource, with the ranges the rules see.
func parse(t *testing.T, src string) *graph.Resource {
	t.Helper()
	rs, diags := manifest.Parse("in.yaml", []byte(src), manifest.Options{})
	if len(diags) > 0 || len(rs) == 0 {
		t.Fatalf("parse: %v", diags)
	}
	return rs[0]
}

// fixed resolves edits built from the resource and applies them.
func fixed(t *testing.T, src string, edits func(r *graph.Resource) []lint.Edit) (string, string) {
	t.Helper()
	r := parse(t, src)
	fix := &lint.Fix{Description: "test", Edits: edits(r)}
	res := NewResolver(func(string) ([]byte, bool) { return []byte(src), true }, false).Resolve(fix, r)
	if res.NotApplied != "" {
		return "", res.NotApplied
	}
	out := string(Apply([]byte(src), res.Changes))
	if err := Check("in.yaml", []byte(out)); err != nil {
		t.Fatalf("fixed text does not parse: %v\n%s", err, out)
	}
	return out, ""
}

func TestYAMLEdits(t *testing.T) {
	recreate := func(r *graph.Resource) []lint.Edit {
		s := r.Get("spec", "strategy")
		if s == nil {
			return lint.Put(r.Get("spec"), "strategy", lint.Map("type", lint.String("Recreate")))
		}
		return append(lint.Put(s, "type", lint.String("Recreate")), lint.Delete(s, "rollingUpdate"))
	}
	cases := []struct {
		name, src, want, reason string
		edits                   func(r *graph.Resource) []lint.Edit
	}{{
		name:  "set keeps single quotes and the comment",
		src:   "kind: Deployment\nspec:\n  strategy:\n    type: 'RollingUpdate' # why\n    rollingUpdate:\n      maxSurge: 1\n  replicas: 1\n",
		want:  "kind: Deployment\nspec:\n  strategy:\n    type: 'Recreate' # why\n  replicas: 1\n",
		edits: recreate,
	}, {
		name:  "insert a map at the siblings' indentation, four spaces deep",
		src:   "kind: Deployment\nspec:\n    replicas: 1\n    template:\n        spec: {}\n# trailing comment\n",
		want:  "kind: Deployment\nspec:\n    replicas: 1\n    template:\n        spec: {}\n    strategy:\n        type: Recreate\n# trailing comment\n",
		edits: recreate,
	}, {
		name: "insert at the end of a file without a final newline",
		src:  "kind: StorageClass\nprovisioner: x",
		want: "kind: StorageClass\nprovisioner: x\nvolumeBindingMode: WaitForFirstConsumer",
		edits: func(r *graph.Resource) []lint.Edit {
			return lint.Put(r.Object, "volumeBindingMode", lint.String("WaitForFirstConsumer"))
		},
	}, {
		name:  "flow map: set and delete with its comma",
		src:   "kind: Deployment\nspec: {strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 1}}, replicas: 1}\n",
		want:  "kind: Deployment\nspec: {strategy: {type: Recreate}, replicas: 1}\n",
		edits: recreate,
	}, {
		name:  "flow map: insert after the last entry",
		src:   "kind: Deployment\nspec: {replicas: 1}\n",
		want:  "kind: Deployment\nspec: {replicas: 1, strategy: {type: Recreate}}\n",
		edits: recreate,
	}, {
		name:  "flow map: delete the first entry",
		src:   "kind: Deployment\nspec:\n  strategy: {rollingUpdate: {maxSurge: 1}, type: RollingUpdate}\n",
		want:  "kind: Deployment\nspec:\n  strategy: {type: Recreate}\n",
		edits: recreate,
	}, {
		name: "a string that reads as a boolean is quoted",
		src:  "kind: StorageClass\nmetadata:\n  name: x\n  annotations:\n    storageclass.kubernetes.io/is-default-class: yes\n",
		want: "kind: StorageClass\nmetadata:\n  name: x\n  annotations:\n    storageclass.kubernetes.io/is-default-class: \"true\"\n",
		edits: func(r *graph.Resource) []lint.Edit {
			return lint.Put(r.Get("metadata", "annotations"), "storageclass.kubernetes.io/is-default-class", lint.String("true"))
		},
	}, {
		name: "an empty string is quoted",
		src:  "kind: PersistentVolumeClaim\nspec:\n  volumeName: pv\n",
		want: "kind: PersistentVolumeClaim\nspec:\n  volumeName: pv\n  storageClassName: \"\"\n",
		edits: func(r *graph.Resource) []lint.Edit {
			return lint.Put(r.Get("spec"), "storageClassName", lint.String(""))
		},
	}, {
		name:   "a block scalar is not replaced",
		src:    "kind: CronJob\nspec:\n  concurrencyPolicy: |\n    Allow\n",
		reason: "the value is not a one-line scalar",
		edits: func(r *graph.Resource) []lint.Edit {
			return lint.Put(r.Get("spec"), "concurrencyPolicy", lint.String("Forbid"))
		},
	}, {
		name:   "a key after a list dash is not deleted",
		src:    "kind: X\nitems:\n- a: 1\n  b: 2\n",
		reason: `the key "a" does not start its line`,
		edits:  func(r *graph.Resource) []lint.Edit { return []lint.Edit{lint.Delete(r.Get("items", "0"), "a")} },
	}}
	const head = "apiVersion: v1\nmetadata: {name: x}\n"
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := head
			if strings.Contains(tc.src, "metadata:") {
				h = "apiVersion: v1\n"
			}
			if tc.want != "" {
				tc.want = h + tc.want
			}
			got, reason := fixed(t, h+tc.src, tc.edits)
			if reason != tc.reason {
				t.Fatalf("reason %q, want %q", reason, tc.reason)
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("fixed text (-want +got):\n%s", d)
			}
		})
	}
}

// TestNotRewritten: rendered inputs get a reason naming where to change them.
func TestNotRewritten(t *testing.T) {
	for format, want := range map[graph.Format]string{
		graph.FormatHelm:      "rendered from the Helm template app/templates/d.yaml",
		graph.FormatKustomize: "built by Kustomize (overlays/prod)",
		graph.FormatPlan:      "read from a Terraform plan",
	} {
		r := parse(t, "apiVersion: batch/v1\nkind: CronJob\nmetadata: {name: x}\nspec:\n  concurrencyPolicy: Allow\n")
		r.Origin = graph.Origin{Format: format, Source: "app/templates/d.yaml", Variant: "overlays/prod"}
		fix := &lint.Fix{Edits: lint.Put(r.Get("spec"), "concurrencyPolicy", lint.String("Forbid"))}
		res := NewResolver(func(string) ([]byte, bool) { return nil, true }, false).Resolve(fix, r)
		if !strings.HasPrefix(res.NotApplied, want) || len(res.Changes) > 0 {
			t.Errorf("%s: NotApplied %q, want %q...", format, res.NotApplied, want)
		}
	}
	unsafe := &lint.Fix{Unsafe: true, Edits: []lint.Edit{lint.Delete(&graph.Node{Kind: graph.Map}, "x")}}
	res := NewResolver(func(string) ([]byte, bool) { return nil, true }, false).Resolve(unsafe, parse(t, "apiVersion: v1\nkind: X\nmetadata: {name: x}\n"))
	if !strings.Contains(res.NotApplied, "--unsafe-fixes") {
		t.Errorf("unsafe fix: NotApplied %q", res.NotApplied)
	}
}

func TestSelect(t *testing.T) {
	at := func(s, e int32, text string) lint.Change {
		return lint.Change{Range: graph.Range{File: "f", Start: graph.Pos{Byte: s}, End: graph.Pos{Byte: e}}, Text: text}
	}
	a := []lint.Change{at(10, 20, "a")}
	dup := []lint.Change{at(10, 20, "a")}
	clash := []lint.Change{at(15, 15, "b")}
	next := []lint.Change{at(20, 20, "c"), at(0, 2, "")}
	byFile, deferred := Select([][]lint.Change{a, dup, clash, next})
	want := []lint.Change{at(0, 2, ""), at(10, 20, "a"), at(20, 20, "c")}
	if d := cmp.Diff(want, byFile["f"]); d != "" {
		t.Errorf("picked (-want +got):\n%s", d)
	}
	if len(deferred) != 1 || deferred[0] != 2 {
		t.Errorf("deferred %v, want the clashing fix", deferred)
	}
}

func TestDiff(t *testing.T) {
	a := "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n11\n12\n"
	b := "1\n2\n3\nfour\n5\n6\n7\n8\n9\n10\n11\n12\n13"
	want := `--- a/x.yaml
+++ b/x.yaml
@@ -1,7 +1,7 @@
 1
 2
 3
-4
+four
 5
 6
 7
@@ -10,3 +10,4 @@
 10
 11
 12
+13
\ No newline at end of file
`
	if d := cmp.Diff(want, Diff("x.yaml", []byte(a), []byte(b))); d != "" {
		t.Errorf("diff (-want +got):\n%s", d)
	}
	if Diff("x", []byte(a), []byte(a)) != "" {
		t.Error("equal texts have a diff")
	}
}
