package kustomize

import (
	"bytes"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// deprecatedOverlay writes a base and an overlay using every field kustomize warns
// about, and returns the overlay's directory.
func deprecatedOverlay(t *testing.T, dir string) string {
	t.Helper()
	write(t, filepath.Join(dir, "base", "kustomization.yaml"), "resources:\n- app.yaml\n")
	write(t, filepath.Join(dir, "base", "app.yaml"), `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: c
        image: nginx
`)
	write(t, filepath.Join(dir, "overlay", "patch.yaml"), "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 2\n")
	write(t, filepath.Join(dir, "overlay", "json.yaml"), "- op: add\n  path: /metadata/annotations\n  value: {a: b}\n")
	write(t, filepath.Join(dir, "overlay", "kustomization.yaml"), `bases:
- ../base
commonLabels:
  team: a
imageTags:
- name: nginx
  newTag: "1.27"
patchesStrategicMerge:
- patch.yaml
patchesJson6902:
- target: {group: apps, version: v1, kind: Deployment, name: web}
  path: json.yaml
vars:
- name: UNUSED
  objref: {kind: Deployment, name: web, apiVersion: apps/v1}
`)
	return filepath.Join(dir, "overlay")
}

// TestDeprecationNotes: each deprecated field of a kustomization is one note at its
// key, once per file however many builds read it, and the build still runs.
func TestDeprecationNotes(t *testing.T) {
	dir := t.TempDir()
	overlay := deprecatedOverlay(t, dir)
	// A second overlay on the same base: the base has no deprecated field, the
	// overlay's notes are not repeated for it.
	write(t, filepath.Join(dir, "other", "kustomization.yaml"), "resources:\n- ../overlay\n")
	env := Env{Display: func(p string) string { r, _ := filepath.Rel(dir, p); return filepath.ToSlash(r) }}
	plan := NewPlan([]string{overlay, filepath.Join(dir, "other")}, func(string) Env { return env })
	var got []string
	for _, d := range plan.Notes {
		if !d.Note {
			t.Errorf("%v is not a note", d)
		}
		field, _, _ := strings.Cut(strings.TrimPrefix(d.Message, "'"), "'")
		got = append(got, fmt.Sprintf("%s:%d:%d %s", d.Range.File, d.Range.Start.Line, d.Range.Start.Column, field))
	}
	want := []string{
		"overlay/kustomization.yaml:1:1 bases",
		"overlay/kustomization.yaml:3:1 commonLabels",
		"overlay/kustomization.yaml:5:1 imageTags",
		"overlay/kustomization.yaml:10:1 patchesJson6902",
		"overlay/kustomization.yaml:8:1 patchesStrategicMerge",
		"overlay/kustomization.yaml:13:1 vars",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("notes:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	res := Build(overlay, env)
	if len(res.Diagnostics) > 0 || len(res.Resources) != 1 {
		t.Fatalf("build: %d resources, diagnostics %v", len(res.Resources), res.Diagnostics)
	}
	d := res.Resources[0]
	if d.Get("spec", "replicas").Str() != "2" || d.Get("metadata", "labels", "team").Str() != "a" {
		t.Errorf("the deprecated fields were not applied: replicas %q, label team %q", d.Get("spec", "replicas").Str(), d.Get("metadata", "labels", "team").Str())
	}
}

// TestBuildsQuiet: kustomize's deprecation warnings (written to os.Stderr) and log
// lines (the log package) are not printed, by builds running concurrently, and both
// destinations are given back afterwards. Run with -race: the swaps of the global
// os.Stderr must not race with the builds reading it.
func TestBuildsQuiet(t *testing.T) {
	dir := t.TempDir()
	overlay := deprecatedOverlay(t, dir)
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	var captured bytes.Buffer
	copied := make(chan struct{})
	go func() { _, _ = io.Copy(&captured, r); close(copied) }()
	var logged bytes.Buffer
	savedStderr, savedLog := os.Stderr, log.Writer()
	os.Stderr = w
	log.SetOutput(&logged)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if res := Build(overlay, Env{}); len(res.Resources) != 1 {
				t.Errorf("build: %d resources, %v", len(res.Resources), res.Diagnostics)
			}
		})
	}
	wg.Wait()
	stillStderr, stillLog := os.Stderr == w, log.Writer() == io.Writer(&logged)
	// The destinations given back work: these two lines are expected.
	fmt.Fprintln(os.Stderr, "after")
	log.SetFlags(0)
	log.Print("after")
	os.Stderr = savedStderr
	log.SetOutput(savedLog)
	log.SetFlags(log.LstdFlags)
	_ = w.Close()
	<-copied
	if !stillStderr || !stillLog {
		t.Errorf("after the builds os.Stderr given back %v, log output given back %v", stillStderr, stillLog)
	}
	if captured.String() != "after\n" {
		t.Errorf("standard error during the builds:\n%s", captured.String())
	}
	if logged.String() != "after\n" {
		t.Errorf("log output during the builds:\n%s", logged.String())
	}
}
