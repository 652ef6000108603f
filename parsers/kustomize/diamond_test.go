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
