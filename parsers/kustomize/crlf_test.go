package kustomize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
)

// crlfKustomization is an overlay whose kustomization patches the replicas inline and
// builds a ConfigMap, over a base Deployment, written with "\n" line endings.
var crlfKustomization = map[string]string{
	"base/kustomization.yaml": "resources:\n  - app.yaml\n",
	"base/app.yaml": "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 1\n" +
		"  template:\n    spec:\n      volumes:\n        - name: d\n          persistentVolumeClaim:\n            claimName: data\n",
	"overlay/kustomization.yaml": "resources:\n  - ../base\npatches:\n  - patch: |\n      apiVersion: apps/v1\n      kind: Deployment\n" +
		"      metadata:\n        name: web\n      spec:\n        replicas: 3\n" +
		"configMapGenerator:\n  - name: settings\n    literals:\n      - mode=prod\n",
}

// TestCRLF builds the same kustomization with "\n" and with "\r\n" line endings: every
// range (resources, fields, related locations, diagnostics) is the same, so a finding
// on a CRLF kustomization is reported at the same line and columns, its range no wider
// than the text.
func TestCRLF(t *testing.T) {
	build := func(eol string) []string {
		root := t.TempDir()
		for name, text := range crlfKustomization {
			p := filepath.Join(root, filepath.FromSlash(name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, []byte(strings.ReplaceAll(text, "\n", eol)), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		env := Env{
			Display: func(p string) string { rel, _ := filepath.Rel(root, p); return filepath.ToSlash(rel) },
			Inside:  func(p string) bool { return p == root || strings.HasPrefix(p, root+string(filepath.Separator)) },
		}
		res := Build(filepath.Join(root, "overlay"), env)
		var out []string
		for _, d := range res.Diagnostics {
			out = append(out, "diagnostic "+d.Range.String()+" "+d.Message)
		}
		for _, r := range res.Resources {
			out = append(out, fmt.Sprintf("%s %s %s-%d:%d", r.Kind, r.Name, r.Range, r.Range.End.Line, r.Range.End.Column))
			for _, l := range r.Related {
				out = append(out, fmt.Sprintf("  related %s-%d:%d %s", l.Range, l.Range.End.Line, l.Range.End.Column, l.Message))
			}
			var walk func(path string, n *graph.Node)
			walk = func(path string, n *graph.Node) {
				if n == nil {
					return
				}
				out = append(out, fmt.Sprintf("  %s %s-%d:%d", path, n.Range, n.Range.End.Line, n.Range.End.Column))
				for _, f := range n.Fields() {
					walk(path+"."+f.Key, f.Value)
				}
				for i, it := range n.Items() {
					walk(fmt.Sprintf("%s[%d]", path, i), it)
				}
			}
			walk(r.Kind, r.Object)
		}
		return out
	}
	lf, crlf := build("\n"), build("\r\n")
	if len(lf) < 10 {
		t.Fatalf("the build has too little to compare: %v", lf)
	}
	if d := cmp.Diff(lf, crlf); d != "" {
		t.Errorf("ranges with \\n (-) and \\r\\n (+) line endings differ:\n%s", d)
	}
	// The replicas the overlay sets are reported at the patch's value in the
	// kustomization: line 10, columns 19-20 ("3").
	want := "  Deployment.spec.replicas overlay/kustomization.yaml:10:19-10:20"
	if !strings.Contains(strings.Join(crlf, "\n"), want) {
		t.Errorf("no %q in\n%s", want, strings.Join(crlf, "\n"))
	}
}
