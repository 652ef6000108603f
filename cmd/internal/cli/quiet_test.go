package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
)

// TestKustomizeQuietBinary is issue 28's item 9 on the real binary: kustomize prints
// its deprecation warnings to the process's standard error and its log lines through
// the log package, none naming a file. A run over an overlay using commonLabels,
// bases, patchesStrategicMerge and vars (with a var never used, which kustomize
// logs) writes nothing to standard error; each deprecated field is a note at its
// line.
func TestKustomizeQuietBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds pvlint (skipped under -short)")
	}
	bin := buildPvlint(t, true)
	cmd := exec.Command(bin, "--format", "json", "kustomize-deprecated")
	cmd.Dir = filepath.Join(repoRoot, "testdata", "cli", "inputs")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v\n%s", err, stderr.String())
	}
	if stderr.Len() > 0 {
		t.Errorf("standard error:\n%s", stderr.String())
	}
	var rep struct {
		Findings []struct {
			RuleID, Severity string
			Location         struct {
				File      string
				StartLine int
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, fmt.Sprintf("%s %s %s:%d", f.RuleID, f.Severity, f.Location.File, f.Location.StartLine))
	}
	want := []string{
		"PVL000 note kustomize-deprecated/overlay/kustomization.yaml:3",
		"PVL000 note kustomize-deprecated/overlay/kustomization.yaml:5",
		"PVL000 note kustomize-deprecated/overlay/kustomization.yaml:7",
		"PVL000 note kustomize-deprecated/overlay/kustomization.yaml:9",
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("findings %q, want %q", got, want)
	}
}
