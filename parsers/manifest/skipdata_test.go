package manifest

import (
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

func TestSkipConfigData(t *testing.T) {
	src := strings.Join([]string{
		"apiVersion: v1",             // 1
		"kind: ConfigMap",            // 2
		"metadata:",                  // 3
		"  name: app-config",         // 4
		"  annotations:",             // 5
		"    note: |",                // 6
		"      kept",                 // 7
		"data:",                      // 8
		"  level: info",              // 9
		"  app.conf: |",              // 10
		"    listen 8080",            // 11
		"    workers 4",              // 12
		"  other.conf: >-",           // 13
		"    folded",                 // 14
		"---",                        // 15
		"apiVersion: v1",             // 16
		"kind: \"Secret\"  # quoted", // 17
		"metadata: {name: creds}",    // 18
		"stringData:",                // 19
		"  key: |",                   // 20
		"    secret text",            // 21
		"---",                        // 22
		"apiVersion: v1",             // 23
		"kind: ConfigMap",            // 24
		"metadata:",                  // 25
		"  name: local-path-config",  // 26
		"data:",                      // 27
		"  config.json: |",           // 28
		"    {\"nodePathMap\": []}",  // 29
		"---",                        // 30
		"apiVersion: apps/v1",        // 31
		"kind: Deployment",           // 32
		"metadata: {name: web}",      // 33
		"data:",                      // 34
		"  script: |",                // 35
		"    echo kept",              // 36
	}, "\n") + "\n"
	full, ds := Parse("f.yaml", []byte(src), Options{})
	if len(ds) != 0 || len(full) != 4 {
		t.Fatalf("full parse: %d resources, diagnostics %v", len(full), ds)
	}
	rs, ds := Parse("f.yaml", []byte(src), Options{SkipConfigData: true})
	if len(ds) != 0 || len(rs) != 4 {
		t.Fatalf("skipping parse: %d resources, diagnostics %v", len(rs), ds)
	}
	tests := []struct {
		doc     int
		path    []string
		skipped bool
	}{
		{0, []string{"data", "app.conf"}, true},
		{0, []string{"data", "other.conf"}, true},
		{0, []string{"data", "level"}, false},                   // plain scalars share the file's bytes
		{0, []string{"metadata", "annotations", "note"}, false}, // only data keys are skipped
		{1, []string{"stringData", "key"}, true},
		{2, []string{"data", "config.json"}, false}, // rules read local-path-provisioner's config
		{3, []string{"data", "script"}, false},      // not a ConfigMap or Secret
	}
	for _, tt := range tests {
		want, got := full[tt.doc].Get(tt.path...), rs[tt.doc].Get(tt.path...)
		if want == nil || got == nil {
			t.Fatalf("doc %d %v: missing node", tt.doc, tt.path)
		}
		if got.Range != want.Range {
			t.Errorf("doc %d %v: range %v, want %v as when read", tt.doc, tt.path, got.Range, want.Range)
		}
		switch {
		case tt.skipped && (got.Kind != graph.Unknown || got.Scalar != ""):
			t.Errorf("doc %d %v: kind %v %q, want an unread (Unknown) value", tt.doc, tt.path, got.Kind, got.Scalar)
		case !tt.skipped && (got.Kind != want.Kind || got.Scalar != want.Scalar):
			t.Errorf("doc %d %v: %v %q, want %v %q", tt.doc, tt.path, got.Kind, got.Scalar, want.Kind, want.Scalar)
		}
	}
	if s := full[0].Get("data", "app.conf").Scalar; s != "listen 8080\nworkers 4\n" {
		t.Errorf("read value = %q", s)
	}
}

func TestTopLevelKind(t *testing.T) {
	tests := map[string]string{
		"kind: ConfigMap\n":                    "ConfigMap",
		"apiVersion: v1\nkind: Secret # c\n":   "Secret",
		"kind: 'ConfigMap'\n":                  "ConfigMap",
		"metadata:\n  kind: ConfigMap\n":       "",
		"spec:\n  x: 1\nkind:   Service  \n":   "Service",
		"akind: ConfigMap\nkind: Deployment\n": "Deployment",
		"no kind here\n":                       "",
		"kind:":                                "",
	}
	for in, want := range tests {
		if got := topLevelKind([]byte(in)); got != want {
			t.Errorf("topLevelKind(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzSkipConfigData checks that leaving ConfigMap and Secret data unread changes
// nothing but that: the same resources, diagnostics and ranges, and every difference a
// string that became an Unknown node with no text.
func FuzzSkipConfigData(f *testing.F) {
	f.Add([]byte("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  x: |\n    text\n"))
	f.Add([]byte("kind: Secret\nstringData:\n  k: >-\n    a\n    b\n---\nkind: Deployment\ndata:\n  s: |\n    kept\n"))
	f.Add([]byte("kind: ConfigMap\nmetadata:\n  name: local-path-config\ndata:\n  config.json: |\n    {}\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		full, fds := Parse("f.yaml", data, Options{})
		skip, sds := Parse("f.yaml", data, Options{SkipConfigData: true})
		if len(fds) != len(sds) || len(full) != len(skip) {
			t.Fatalf("%d resources and %d diagnostics read, %d and %d skipping", len(full), len(fds), len(skip), len(sds))
		}
		for i := range fds {
			if fds[i] != sds[i] {
				t.Fatalf("diagnostic %v, skipping %v", fds[i], sds[i])
			}
		}
		for i := range full {
			sameButSkipped(t, full[i].Object, skip[i].Object)
		}
	})
}

func sameButSkipped(t *testing.T, a, b *graph.Node) {
	t.Helper()
	if (a == nil) != (b == nil) {
		t.Fatalf("node %v vs %v", a, b)
	}
	if a == nil {
		return
	}
	if a.Range != b.Range {
		t.Fatalf("range %v, skipping %v", a.Range, b.Range)
	}
	if a.Kind != b.Kind || a.Scalar != b.Scalar {
		if a.Kind != graph.String || b.Kind != graph.Unknown || b.Scalar != "" {
			t.Fatalf("%v %q became %v %q", a.Kind, a.Scalar, b.Kind, b.Scalar)
		}
	}
	if len(a.Fields()) != len(b.Fields()) || len(a.Items()) != len(b.Items()) {
		t.Fatalf("%d fields and %d items, skipping %d and %d", len(a.Fields()), len(a.Items()), len(b.Fields()), len(b.Items()))
	}
	for i := range a.Fields() {
		if a.Fields()[i].Key != b.Fields()[i].Key || a.Fields()[i].KeyRange != b.Fields()[i].KeyRange {
			t.Fatalf("key %q %v, skipping %q %v", a.Fields()[i].Key, a.Fields()[i].KeyRange, b.Fields()[i].Key, b.Fields()[i].KeyRange)
		}
		sameButSkipped(t, a.Fields()[i].Value, b.Fields()[i].Value)
	}
	for i := range a.Items() {
		sameButSkipped(t, a.Items()[i], b.Items()[i])
	}
}
