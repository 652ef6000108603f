package cli

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	hostileMemory(t, root, []string{"--limit", "eval-memory=256MiB", "."}, "l00a/kustomization.yaml",
		"building the kustomization l00a exceeded the memory limit of 256 MiB (--limit eval-memory)")
}
