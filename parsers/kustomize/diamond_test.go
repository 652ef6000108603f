package kustomize

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// TestDiamondPlan is issue 27's diamond of kustomizations: 37 levels of two, each
// listing both of the next level, 74 files that the walk before a build followed
// once per path (2^37). Counting the references it checks (Env.Inside), the plan
// of every directory of the diamond now checks each kustomization's references a
// bounded number of times: 74 directories of at most 74 kustomizations of two
// references. On main the count passes a million, where Inside starts refusing so
// that the test ends.
func TestDiamondPlan(t *testing.T) {
	dir := t.TempDir()
	const levels = 37
	var dirs []string
	for i := range levels {
		for _, s := range []string{"a", "b"} {
			d := filepath.Join(dir, fmt.Sprintf("l%02d%s", i, s))
			dirs = append(dirs, d)
			var res string
			if i < levels-1 {
				res = fmt.Sprintf("- ../l%02da\n- ../l%02db\n", i+1, i+1)
			} else {
				res = "- cm.yaml\n"
				write(t, filepath.Join(d, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-"+s+"\n")
			}
			write(t, filepath.Join(d, "kustomization.yaml"), "resources:\n"+res)
		}
	}
	var checks atomic.Int64
	env := Env{Inside: func(p string) bool {
		return checks.Add(1) < 1_000_000 && strings.HasPrefix(p, dir)
	}}
	plan := NewPlan(dirs, func(string) Env { return env })
	if n := checks.Load(); n > 4*74*74 {
		t.Errorf("%d reference checks for 74 kustomizations: the walk follows paths, not kustomizations", n)
	}
	if len(plan.Builds) != 2 || !strings.HasSuffix(plan.Builds[0], "l00a") || !strings.HasSuffix(plan.Builds[1], "l00b") {
		t.Errorf("builds %v, want the two tops", plan.Builds)
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestCopyPatchGrowth is issue 27's JSON 6902 patch of repeated copy operations:
// each copies a ConfigMap's data into a key of itself, doubling it, and 16 of them
// turn a kilobyte of inputs into 64 MiB (the attack's 2.4 GiB took a few more). The
// build is not run, with a diagnostic at the copy that took the bound past the
// output limit; with two copies the same overlay builds.
func TestCopyPatchGrowth(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n  a: "+strings.Repeat("x", 600)+"\n")
	kust := "resources:\n- cm.yaml\npatches:\n- path: copy.yaml\n  target:\n    kind: ConfigMap\n"
	write(t, filepath.Join(dir, "kustomization.yaml"), kust)
	ops := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "- op: copy\n  from: /data\n  path: /metadata/annotations/c%d\n", i)
		}
		return "- op: add\n  path: /metadata/annotations\n  value: {}\n" + b.String()
	}
	env := Env{Inside: func(p string) bool { return strings.HasPrefix(p, dir) }, Display: func(p string) string {
		rel, _ := filepath.Rel(dir, p)
		return filepath.ToSlash(rel)
	}}
	write(t, filepath.Join(dir, "copy.yaml"), ops(16))
	res := Build(dir, env)
	if len(res.Resources) != 0 || len(res.Diagnostics) != 1 {
		t.Fatalf("16 copies: %d resources, diagnostics %v; want none and one", len(res.Resources), res.Diagnostics)
	}
	d := res.Diagnostics[0]
	// The add is lines 1-3, copy i is at line 4+3i; the inputs are about 800 bytes, so
	// the bound passes 32 MiB at the 16th copy (800 · 2^16 > 2^25).
	if got := fmt.Sprintf("%s:%d %s", d.Range.File, d.Range.Start.Line, d.Message); !strings.HasPrefix(got, "copy.yaml:49 JSON patches of this build copy 16 times") {
		t.Errorf("diagnostic %q, want it at the 16th copy (copy.yaml:49)", got)
	}
	write(t, filepath.Join(dir, "copy.yaml"), ops(2))
	res = Build(dir, env)
	if len(res.Resources) != 1 || len(res.Diagnostics) != 0 {
		t.Errorf("2 copies: %d resources, diagnostics %v; want the ConfigMap", len(res.Resources), res.Diagnostics)
	}
}

// TestChainPlan is issue 27's chain of overlays, each building on the next: the plan
// walked every directory's chain anew, reading and parsing each kustomization up to
// 64 times (the depth limit), 2,000 overlays in 8.7 s of CPU. Counting the files read
// (each read names its file once, Env.Display), the plan of a 300-overlay chain now
// reads each kustomization a bounded number of times.
func TestChainPlan(t *testing.T) {
	dir := t.TempDir()
	const n = 300
	var dirs []string
	for i := range n {
		d := filepath.Join(dir, fmt.Sprintf("o%04d", i))
		dirs = append(dirs, d)
		res := fmt.Sprintf("- ../o%04d\n", i+1)
		if i == n-1 {
			res = "- cm.yaml\n"
			write(t, filepath.Join(d, "cm.yaml"), "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\n")
		}
		write(t, filepath.Join(d, "kustomization.yaml"), "resources:\n"+res)
	}
	var reads atomic.Int64
	env := Env{Inside: func(p string) bool { return strings.HasPrefix(p, dir) }, Display: func(p string) string {
		reads.Add(1)
		return p
	}}
	plan := NewPlan(dirs, func(string) Env { return env })
	if got := reads.Load(); got > 2*n {
		t.Errorf("%d file names shown for %d kustomizations: each is read again for every overlay above it", got, n)
	}
	if len(plan.Builds) != 1 || !strings.HasSuffix(plan.Builds[0], "o0000") {
		t.Errorf("builds %v, want the top overlay alone", plan.Builds)
	}
}
