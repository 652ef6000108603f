package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestHostileKustomizeMemory lints a kustomization whose build multiplies one
// ConfigMap of 2,000 keys 8,192 times inside kustomize (a binary tree of 27
// kustomizations, each listing the two of the next level under a name suffix of its
// own, so that every copy is a distinct object), with the built binary under a 4 GiB
// address-space limit. No check before the build sees it: the walk reads each
// kustomization once and there is no JSON 6902 copy. In pvlint's own process the
// build ran the whole run out of memory (fatal error after about 40 s); in a worker
// it is one PVL000 at the kustomization, at the memory budget, and the sibling's
// findings are reported.
func TestHostileKustomizeMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a kustomize build to its memory budget")
	}
	hostileMemory(t, kustomizeBomb(t), []string{"--limit", "eval-memory=256MiB", "."}, "l00a/kustomization.yaml",
		"building the kustomization l00a exceeded the memory limit of 256 MiB (--limit eval-memory)")
}

// TestHostileKustomizeRunTime lints the same kustomization with a run budget of 3 s:
// the build's worker call is cut when the run's time is spent, the build is one
// PVL000 saying so, and the run exits 3 at once. In pvlint's own process nothing could
// cut the build: the run went on until it ran out of memory.
func TestHostileKustomizeRunTime(t *testing.T) {
	if testing.Short() {
		t.Skip("runs a kustomize build to the run's time budget")
	}
	bin := buildPvlint(t, false)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--format", "json", "--limit", "run-time=3s", ".")
	cmd.Dir = kustomizeBomb(t)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != ExitIncomplete {
		t.Fatalf("exit: %v, want exit code %d; stderr:\n%s", err, ExitIncomplete, stderr.String())
	}
	var rep struct {
		Findings []evalFinding `json:"findings"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("JSON report: %v\n%s", err, stdout.String())
	}
	for _, f := range rep.Findings {
		if f.RuleID == "PVL000" && f.Location.File == "l00a/kustomization.yaml" &&
			f.Message == "the kustomization l00a not linted: the run's time budget was spent (--limit run-time)" {
			return
		}
	}
	t.Errorf("no PVL000 at l00a/kustomization.yaml saying the run's time was spent: %v", rep.Findings)
}

// kustomizeBomb writes the kustomization of TestHostileKustomizeMemory and the
// sibling manifest of the evaluation bombs into a temporary directory.
func kustomizeBomb(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	sibling, err := os.ReadFile(filepath.Join(repoRoot, evalHostileDir, "sibling.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{"sibling.yaml": string(sibling)}
	var cm strings.Builder
	cm.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm\ndata:\n")
	for i := range 2000 {
		fmt.Fprintf(&cm, "  k%d: v%d\n", i, i)
	}
	const levels = 14
	for i := range levels {
		for _, s := range []string{"a", "b"} {
			if i == 0 && s == "b" {
				continue // one build
			}
			dir := fmt.Sprintf("l%02d%s", i, s)
			res := fmt.Sprintf("- ../l%02da\n- ../l%02db\n", i+1, i+1)
			if i == levels-1 {
				res = "- cm.yaml\n"
				files[dir+"/cm.yaml"] = cm.String()
			}
			files[dir+"/kustomization.yaml"] = "nameSuffix: -" + s + "\nresources:\n" + res
		}
	}
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}
