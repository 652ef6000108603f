package load

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
)

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

const snapshotList = `apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: PersistentVolumeClaim
  metadata: {name: shared, namespace: default}
  spec: {accessModes: [ReadWriteOnce], storageClassName: fast}
- apiVersion: storage.k8s.io/v1
  kind: StorageClass
  metadata: {name: fast}
  provisioner: ebs.csi.aws.com
`

// contextNames are the context resources as kind/name@label.
func contextNames(res *Result) []string {
	var out []string
	for _, r := range res.Context {
		out = append(out, r.Kind+"/"+r.Name+"@"+r.Origin.Context)
	}
	return out
}

func TestContextJoinsEveryWorld(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "repo", "app.yaml"), "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: shared}\nspec: {accessModes: [ReadWriteMany]}\n")
	write(t, filepath.Join(dir, "snap", "list.yaml"), snapshotList)
	write(t, filepath.Join(dir, "snap", "hpa.json"), `{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler", "metadata": {"name": "web"}, "spec": {"maxReplicas": 4, "scaleTargetRef": {"kind": "Deployment", "name": "web"}}}`)
	write(t, filepath.Join(dir, "snap", "notes.txt"), "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: not-read}\n")
	write(t, filepath.Join(dir, "snap", ".vscode", "settings.json"), `{"editor.tabSize": 2}`)
	res := Load([]string{"repo"}, Options{Dir: dir, Context: []string{"snap"}, Profiles: []*graph.Platform{graph.FindPlatform("k3s")}})
	if len(res.Diagnostics) > 0 {
		t.Fatalf("diagnostics: %v", res.Diagnostics)
	}
	want := []string{
		"HorizontalPodAutoscaler/web@cluster snapshot snap/hpa.json",
		"PersistentVolumeClaim/shared@cluster snapshot snap/list.yaml",
		"StorageClass/fast@cluster snapshot snap/list.yaml",
		"StorageClass/local-path@k3s default classes",
	}
	if diff := cmp.Diff(want, contextNames(res)); diff != "" {
		t.Errorf("context (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"repo/app.yaml:shared"}, names(res)); diff != "" {
		t.Errorf("linted resources (-want +got):\n%s", diff)
	}
	ws := res.Worlds()
	if len(ws) != 1 || len(ws[0].Resources) != 5 || ws[0].Resources[0].IsContext() || !ws[0].Resources[4].IsContext() {
		t.Fatalf("worlds: %+v", ws)
	}
	// The linted claim of the same name wins; the snapshot's class still resolves it.
	g := graph.New(ws[0].Resources, graph.Options{})
	claim := g.Lookup("PersistentVolumeClaim", "default", "shared")
	if claim == nil || claim.IsContext() {
		t.Fatalf("claim shared = %v, want the linted one", claim)
	}
	for _, r := range g.Resources {
		if r.IsContext() && r.Kind == "PersistentVolumeClaim" {
			t.Errorf("the shadowed snapshot claim is still in the graph: %v", r)
		}
	}
	if sc := g.DefaultClasses(); len(sc) != 1 || sc[0].Name != "local-path" {
		t.Errorf("default classes %v, want the profile's local-path", sc)
	}
}

// A context path is read like an input and nothing outside it: a symlink that leaves
// it, a named pipe and a file past the size limit are diagnostics, never read.
func TestContextStaysInside(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "secret", "outside.yaml"), "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: outside}\n")
	write(t, filepath.Join(dir, "snap", "in.yaml"), "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: inside}\n")
	write(t, filepath.Join(dir, "snap", "sub", "target.yaml"), "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: linked}\n")
	write(t, filepath.Join(dir, "snap", "big.yaml"), "# "+strings.Repeat("x", 200)+"\n")
	if err := os.Symlink(filepath.Join(dir, "secret", "outside.yaml"), filepath.Join(dir, "snap", "escape.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join("sub", "target.yaml"), filepath.Join(dir, "snap", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "snap", "pipe.yaml"), 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	res := Load(nil, Options{Dir: filepath.Join(dir, "snap"), Context: []string{filepath.Join(dir, "snap")}, MaxFileSize: 150})
	var got []string
	for _, r := range res.Context {
		got = append(got, r.Name)
	}
	if diff := cmp.Diff([]string{"inside", "linked", "linked"}, got); diff != "" {
		t.Errorf("context read (-want +got):\n%s", diff)
	}
	var diags []string
	for _, d := range res.Diagnostics {
		diags = append(diags, d.Range.File+": "+d.Message)
	}
	want := []string{
		"big.yaml: file is 203 bytes, larger than the 150-byte limit; not read",
		"escape.yaml: symlink points outside the context path . (to \"" + filepath.Join(resolvedDir(t, dir), "secret", "outside.yaml") + "\"); not read",
		"pipe.yaml: not a regular file",
	}
	if diff := cmp.Diff(want, diags); diff != "" {
		t.Errorf("diagnostics (-want +got):\n%s", diff)
	}
}

func resolvedDir(t *testing.T, dir string) string {
	t.Helper()
	r, err := filepath.EvalSymlinks(dir)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A file named both as an input and as context is linted, not context.
func TestContextAlsoInput(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "app.yaml"), "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\n")
	res := Load([]string{"app.yaml"}, Options{Dir: dir, Context: []string{"app.yaml"}})
	if len(res.Context) != 0 || len(res.Base) != 1 {
		t.Errorf("context %v, base %v", contextNames(res), names(res))
	}
}

// A snapshot kept in the linted directory is context, not an input.
func TestContextInsideLintedDir(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "app.yaml"), "apiVersion: v1\nkind: PersistentVolumeClaim\nmetadata: {name: data}\n")
	write(t, filepath.Join(dir, "cluster", "snap.yaml"), snapshotList)
	res := Load([]string{"."}, Options{Dir: dir, Context: []string{"cluster"}})
	if diff := cmp.Diff([]string{"app.yaml:data"}, names(res)); diff != "" {
		t.Errorf("linted (-want +got):\n%s", diff)
	}
	if len(res.Context) != 2 {
		t.Errorf("context %v", contextNames(res))
	}
}
