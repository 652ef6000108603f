package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// mermaidScript parses Mermaid files with the mermaid npm package (make tools).
var mermaidScript = filepath.Join(".ci", "mermaid-parse.mjs")

// Lines of pvlint's Mermaid that declare a node, an edge or a subgraph. Identifiers
// are generated and labels escaped, so counting lines counts what was drawn.
var (
	mermaidNode     = regexp.MustCompile(`(?m)^\s+[a-z0-9_]+(\[\(|\[|\(|\{\{)"`)
	mermaidEdge     = regexp.MustCompile(`(?m)^\s+[a-z0-9_]+ -->\|"`)
	mermaidSubgraph = regexp.MustCompile(`(?m)^\s+subgraph `)
)

// TestGraphMermaidParses parses `pvlint graph` of the demo and of every fixture
// directory (hostile names included), and a few --findings-only pictures, with Mermaid's own parser, and checks that it
// sees exactly the nodes, edges and subgraphs pvlint drew: a name that broke out of
// its label would add or lose some. A hand-written diagram with an unescaped name is
// the control that the check can fail.
func TestGraphMermaidParses(t *testing.T) {
	t.Chdir(repoRoot)
	if _, err := os.Stat(filepath.Join(".ci", "node_modules", "mermaid", "package.json")); err != nil {
		missingTool(t, "Mermaid's parser (npm mermaid)")
	}
	dir := t.TempDir()
	want := map[string]string{}
	var files []string
	add := func(name, diagram string) {
		p := filepath.Join(dir, name+".mmd")
		if err := os.WriteFile(p, []byte(diagram), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
		want[p] = strings.Join([]string{"ok",
			strconv.Itoa(len(mermaidNode.FindAllString(diagram, -1))),
			strconv.Itoa(len(mermaidEdge.FindAllString(diagram, -1))),
			strconv.Itoa(len(mermaidSubgraph.FindAllString(diagram, -1)))}, " ")
	}
	for _, d := range append([]string{"testdata/demo"}, fixtureDirs(t)...) {
		code, stdout, stderr := runCase(cliCase{args: []string{"graph", d}})
		if code != ExitOK {
			t.Fatalf("pvlint graph %s: exit %d: %s", d, code, stderr)
		}
		add(strings.ReplaceAll(d, "/", "-"), stdout)
	}
	// The job summary's picture: only the parts with findings (a subset of the above,
	// whose subgraphs and link styles are renumbered).
	for _, d := range []string{"testdata/demo", "testdata/helm/app", "testdata/fix"} {
		code, stdout, stderr := runCase(cliCase{args: []string{"graph", "--findings-only", d}})
		if code != ExitOK || stdout == "" {
			t.Fatalf("pvlint graph --findings-only %s: exit %d, %d bytes: %s", d, code, len(stdout), stderr)
		}
		add("findings-only-"+strings.ReplaceAll(d, "/", "-"), stdout)
	}
	// The control: the label's quote ends the string early and an arrow follows.
	add("control-unescaped", "flowchart LR\n  w1[\"web\"] --> evil[\"x\"]\n  w1 -->|\"volume\"| c2\n")

	out, err := exec.Command("node", append([]string{mermaidScript}, files...)...).CombinedOutput()
	if err != nil && len(out) == 0 {
		t.Fatalf("node %s: %v", mermaidScript, err)
	}
	got := map[string]string{}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		file, result, _ := strings.Cut(line, " ")
		got[file] = result
	}
	control := filepath.Join(dir, "control-unescaped.mmd")
	if got[control] == want[control] {
		t.Errorf("control diagram with an unescaped name parsed as drawn (%s): the check cannot fail", got[control])
	}
	delete(got, control)
	delete(want, control)
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("Mermaid parser disagrees with what pvlint drew (-drawn +parsed):\n%s", d)
	}
}
