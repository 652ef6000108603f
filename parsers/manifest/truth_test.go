package manifest

import (
	"reflect"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

// The seven places where readers of one document used to see different values
// (issue 29, docs/yaml.md): each case reads a document and checks the one value that
// the Go accessors, the converted value Rego reads, and kubectl agree on.

const head = "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n"

// one parses src (which must give one resource) and returns it with the diagnostics.
func one(t *testing.T, src string) (*graph.Resource, []graph.Diagnostic) {
	t.Helper()
	rs, ds := Parse("t.yaml", []byte(src), Options{})
	if len(rs) != 1 {
		t.Fatalf("%d resources (diagnostics %v), want 1", len(rs), ds)
	}
	return rs[0], ds
}

// agree checks that the Go accessor and the converted value both read want at path.
func agree(t *testing.T, r *graph.Resource, want int, path ...string) {
	t.Helper()
	if v, ok := r.Get(path...).Int(); !ok || v != want {
		t.Errorf("%v: Int() = %d, %v; want %d", path, v, ok, want)
	}
	var v any = r.Object.Interface()
	for _, p := range path {
		m, _ := v.(map[string]any)
		v = m[p]
	}
	if v != int64(want) {
		t.Errorf("%v: Interface() = %#v; want %d", path, v, want)
	}
}

func TestMergeKeyThenOverride(t *testing.T) {
	for _, tc := range []struct {
		name, spec string
		want       int
	}{
		{"override after merge", "spec:\n  <<: *d\n  replicas: 3\n", 3},
		{"merge after own key (kubectl applies entries in order)", "spec:\n  replicas: 3\n  <<: *d\n", 1},
		{"earlier merged map wins", "spec:\n  <<: [*d, *e]\n", 1},
		{"later merged map fills in", "spec:\n  <<: [*e, *d]\n", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := head + "x: &d {replicas: 1}\ny: &e {replicas: 5}\n" + tc.spec
			r, ds := one(t, src)
			if len(ds) != 0 {
				t.Fatalf("diagnostics %v", ds)
			}
			agree(t, r, tc.want, "spec", "replicas")
			if n := len(r.Get("spec").Fields()); n != 1 {
				t.Errorf("spec has %d fields, want 1", n)
			}
		})
	}
}

func TestDuplicateKeys(t *testing.T) {
	for _, src := range []string{
		head + "spec:\n  replicas: 1\n  replicas: 3\n",           // fast path shape
		head + "spec: {replicas: 1, replicas: 3}\n",              // flow
		head + "x: &a 1\nspec:\n  replicas: *a\n  replicas: 3\n", // yaml.v3 path
	} {
		r, ds := one(t, src)
		agree(t, r, 3, "spec", "replicas")
		if len(ds) != 1 || !strings.Contains(ds[0].Message, `duplicate key "replicas"`) {
			t.Fatalf("%q: diagnostics %v, want one duplicate key", src, ds)
		}
		second := r.Get("spec").Field("replicas").KeyRange
		if ds[0].Range != second || int(second.Start.Line) != strings.Count(src, "\n") || int(second.Start.Byte) != strings.LastIndex(src, "replicas") {
			t.Errorf("%q: diagnostic at %v, the second key is at %v", src, ds[0].Range, second)
		}
	}
}

func TestConcatenatedJSON(t *testing.T) {
	src := `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a"}}{"apiVersion": "v1",
 "kind": "ConfigMap", "metadata": {"name": "b"}}
{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": "x\/y"}}`
	rs, ds := Parse("s.json", []byte(src), Options{})
	if len(ds) != 0 || len(rs) != 3 {
		t.Fatalf("%d resources, diagnostics %v; want 3", len(rs), ds)
	}
	for i, want := range []string{"a", "b", "c"} {
		if rs[i].Name != want {
			t.Errorf("resource %d is %q, want %q", i, rs[i].Name, want)
		}
	}
	// The second object starts within line 1: positions are the file's.
	at := strings.Index(src, "}{") + 1
	if got := rs[1].Range.Start; got.Line != 1 || int(got.Column) != at+1 || int(got.Byte) != at {
		t.Errorf("second object at %+v, want 1:%d", got, at+1)
	}
	if got := rs[1].Object.Locate("kind"); got.Start.Line != 2 || got.Start.Column != 2 {
		t.Errorf("kind of the second object at %v, want 2:2", got)
	}
	if got := rs[2].Get("data", "k").Str(); got != "x/y" {
		t.Errorf(`"x\/y" in JSON reads %q, want "x/y"`, got)
	}
}

func TestSlashEscape(t *testing.T) {
	// YAML: kubectl (yaml.v2 rules) rejects "\/", and so do both of pvlint's paths,
	// whatever else is in the document.
	for _, src := range []string{
		head + "data:\n  k: \"a\\/b\"\n",
		head + "x: &a 1\ndata:\n  k: \"a\\/b\"\n",
	} {
		rs, ds := Parse("t.yaml", []byte(src), Options{})
		if len(rs) != 0 || len(ds) != 1 || !strings.Contains(ds[0].Message, "unknown escape") {
			t.Errorf("%q: %d resources, diagnostics %v; want the escape's PVL000", src, len(rs), ds)
		}
	}
	// JSON (a stream that starts with "{"): kubectl reads it with encoding/json.
	r, ds := one(t, `{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "a\/b"}, "data": {"k\/1": "\\\/"}}`)
	if len(ds) != 0 || r.Name != "a/b" || r.Object.Get("data", "k/1").Str() != `\/` {
		t.Errorf("JSON: name %q, data %v, diagnostics %v", r.Name, r.Object.Get("data").Interface(), ds)
	}
}

func TestAliasAsKey(t *testing.T) {
	r, ds := one(t, head+"x: &k replicas\nspec:\n  *k : 4\n")
	if len(ds) != 0 {
		t.Fatalf("diagnostics %v", ds)
	}
	agree(t, r, 4, "spec", "replicas")
	rs, ds := Parse("t.yaml", []byte(head+"x: &k {a: 1}\nspec:\n  *k : 4\n"), Options{})
	if len(rs) != 0 || len(ds) != 1 || ds[0].Range.Start.Line != 6 {
		t.Errorf("a mapping as a key: %d resources, diagnostics %v; want a PVL000 at line 6", len(rs), ds)
	}
}

func TestDirectives(t *testing.T) {
	for _, src := range []string{
		"%TAG !e! tag:example.com,2000:\n--- \n" + head,
		"# c\n%YAML 1.1\n---\n" + head,
	} {
		rs, ds := Parse("t.yaml", []byte(src), Options{})
		line := 1 + strings.Index(src, "%")/4
		if len(rs) != 1 || len(ds) != 1 || !strings.Contains(ds[0].Message, "directive") || int(ds[0].Range.Start.Line) != line {
			t.Errorf("%q: %d resources, diagnostics %v; want the document and a directive PVL000 at line %d", src, len(rs), ds, line)
		}
	}
	// A tag handle the directive defined is undefined in the document kubectl reads.
	_, ds := Parse("t.yaml", []byte("%TAG !e! tag:example.com,2000:\n---\n"+head+"spec: !e!x {}\n"), Options{})
	if len(ds) != 2 || !strings.Contains(ds[1].Message, "undefined tag handle") {
		t.Errorf("diagnostics %v, want the directive's and the undefined handle's", ds)
	}
	docs, ds := Documents("t.yaml", []byte("%YAML 1.1\n---\na: 1\n"), Options{})
	if len(docs) != 1 || len(ds) != 1 {
		t.Errorf("Documents: %d documents, diagnostics %v", len(docs), ds)
	}
}

func TestIntegerForms(t *testing.T) {
	r, _ := one(t, head+"spec:\n  a: 0x1F\n  b: 1_000\n  c: 0o10\n  d: 010\n  e: 0b1_1\n  f: -0x1F\n  g: +12\n")
	for k, want := range map[string]int{"a": 31, "b": 1000, "c": 8, "d": 8, "e": 3, "f": -31, "g": 12} {
		agree(t, r, want, "spec", k)
	}
	// Forms that are not integers stay what they are for every reader.
	r, _ = one(t, head+"spec:\n  a: \"0x1F\"\n  b: 08\n  c: 1_0.5\n  d: yes\n  e: \"yes\"\n  f: off\n")
	if v, ok := r.Get("spec", "a").Int(); ok {
		t.Errorf(`quoted "0x1F" reads as the integer %d`, v)
	}
	want := map[string]any{"a": "0x1F", "b": 8.0, "c": 10.5, "d": true, "e": "yes", "f": false}
	if got := r.Get("spec").Interface(); !reflect.DeepEqual(got, want) {
		t.Errorf("Interface() = %#v, want %#v", got, want)
	}
	if v, ok := r.Get("spec", "d").Bool(); !ok || !v {
		t.Errorf("yes: Bool() = %v, %v", v, ok)
	}
	if _, ok := r.Get("spec", "e").Bool(); ok {
		t.Errorf(`"yes" (quoted) reads as a boolean`)
	}
}

func TestDuplicateKeyInAliasedMappingReportedOnce(t *testing.T) {
	src := head + "x: &m {a: 1, a: 2}\nspec:\n  template: {metadata: {labels: *m}}\n  selector: {matchLabels: *m}\n"
	r, ds := one(t, src)
	if len(ds) != 1 {
		t.Errorf("diagnostics %v, want one", ds)
	}
	if got := r.Get("spec", "selector", "matchLabels", "a").Str(); got != "2" {
		t.Errorf("aliased duplicate reads %q, want 2", got)
	}
}

// A line of many JSON objects is read in time and memory linear in its length.
func TestJSONStreamOnOneLine(t *testing.T) {
	const obj = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"},"data":{"k":"a\/b"}}`
	var b strings.Builder
	for range 5000 {
		b.WriteString(obj)
	}
	rs, ds := Parse("s.json", []byte(b.String()), Options{})
	if len(rs) != 5000 || len(ds) != 0 {
		t.Fatalf("%d resources, %d diagnostics", len(rs), len(ds))
	}
	last := rs[len(rs)-1]
	if want := int32(b.Len() - len(obj) + 1); last.Range.Start.Column != want || last.Object.Get("data", "k").Str() != "a/b" {
		t.Errorf("last object at column %d (want %d), data %q", last.Range.Start.Column, want, last.Object.Get("data", "k").Str())
	}
}
