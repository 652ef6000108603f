package cli

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

func TestParsePatch(t *testing.T) {
	patch := `diff --git a/k8s/app.yaml b/k8s/app.yaml
index 1111111..2222222 100644
--- a/k8s/app.yaml
+++ b/k8s/app.yaml
@@ -2,3 +2,4 @@ metadata:
 a
-b
+c
+++ not a header: an added line starting with ++
 d
@@ -20 +21,2 @@
-x
+y
+z
\ No newline at end of file
--- a/gone.yaml
+++ /dev/null
@@ -1,2 +0,0 @@
-a
-b
--- "a/sp ace.yaml"	2026-01-01
+++ "b/sp ace.yaml"	2026-01-01
@@ -0,0 +1 @@
+new
`
	got, err := parsePatch("p.diff", []byte(patch))
	if err != nil {
		t.Fatal(err)
	}
	want := addedLines{
		"k8s/app.yaml": {3: true, 4: true, 21: true, 22: true},
		"sp ace.yaml":  {1: true},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("added lines (-want +got):\n%s", d)
	}
	at := func(file string, start, end int32) graph.Range {
		return graph.Range{File: file, Start: graph.Pos{Line: start, Column: 1}, End: graph.Pos{Line: end, Column: 1}}
	}
	for _, tt := range []struct {
		r    graph.Range
		want bool
	}{
		{at("k8s/app.yaml", 3, 3), true},
		{at("k8s/app.yaml", 5, 5), false},
		{at("k8s/app.yaml", 1, 3), true}, // a range that reaches an added line
		{at("app.yaml", 3, 3), false},    // another file with the same name's end
		{at("/repo/k8s/app.yaml", 4, 0), true},
		{at("xk8s/app.yaml", 3, 3), false},        // a suffix that is not a path component
		{at("sub/../k8s/app.yaml", 21, 21), true}, // the same file, once cleaned
	} {
		if got := got.touches("/repo", tt.r); got != tt.want {
			t.Errorf("touches(%v) = %v, want %v", tt.r, got, tt.want)
		}
	}
	for _, bad := range []string{
		"+++ b/a.yaml\n@@ -1 +1 @@\n", // hunk cut short
		"+++ b/a.yaml\n@@ -1,x +1 @@\n+a\n",
		"+++ b/a.yaml\n@@ -1 +1 @@\n?\n",
		"+++ b/a.yaml\n@@ junk @@\n",
	} {
		if _, err := parsePatch("p.diff", []byte(bad)); err == nil || !strings.HasPrefix(err.Error(), "p.diff") {
			t.Errorf("parsePatch(%q) = %v, want an error naming the file", bad, err)
		}
	}
}

// FuzzParsePatch: any input parses or fails with an error, never a panic or a hang.
func FuzzParsePatch(f *testing.F) {
	f.Add([]byte("+++ b/a\n@@ -1,2 +1,3 @@\n a\n+b\n-c\n d\n"))
	f.Add([]byte("@@ -0,0 +99999999999999999999 @@\n"))
	f.Add([]byte("+++ \"b/\\x\"\n@@ -1 +1 @@\n+\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		added, err := parsePatch("f", data)
		if err == nil {
			added.touches("/", graph.Range{File: "a", Start: graph.Pos{Line: 1, Column: 1}, End: graph.Pos{Line: 3}})
		}
	})
}
