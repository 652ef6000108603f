package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestScaffold runs the scaffolder on copies of the catalogue and docs/rules.md: it
// writes the four files, adds the catalogue entry and the docs row and section, and
// refuses an ID or name that is taken.
func TestScaffold(t *testing.T) {
	root := t.TempDir()
	for _, f := range []string{"rules/catalogue.go", "docs/rules.md"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(root, filepath.Dir(f)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(root, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	written, err := scaffold(root, "PVL099", "noisy-neighbour", "a neighbour is noisy")
	if err != nil {
		t.Fatal(err)
	}
	if len(written) != 6 {
		t.Errorf("wrote %v, want 6 files", written)
	}
	src, err := os.ReadFile(filepath.Join(root, "rules/storage/noisy_neighbour.go"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "rule.go", src, 0); err != nil {
		t.Errorf("the rule file does not parse: %v", err)
	}
	for _, want := range []string{"var NoisyNeighbour = &lint.Rule{", `ID:          "PVL099"`, `"a neighbour is noisy"`, "func checkNoisyNeighbour(p *lint.Pass)"} {
		if !strings.Contains(string(src), want) {
			t.Errorf("the rule file lacks %q:\n%s", want, src)
		}
	}
	cat, _ := os.ReadFile(filepath.Join(root, "rules/catalogue.go"))
	if !strings.Contains(string(cat), "\t\tstorage.NoisyNeighbour,\n") {
		t.Errorf("catalogue entry missing:\n%s", cat)
	}
	doc, _ := os.ReadFile(filepath.Join(root, "docs/rules.md"))
	for _, want := range []string{"| [PVL099](#pvl099) | noisy-neighbour |", "<a id=\"pvl099\"></a>\n### PVL099 noisy-neighbour\n"} {
		if !strings.Contains(string(doc), want) {
			t.Errorf("docs/rules.md lacks %q", want)
		}
	}
	for _, f := range []string{"rules/docs/PVL099.md", "testdata/rules/PVL099/workloads.yaml", "testdata/rules/PVL099/terraform.tf"} {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil || !strings.Contains(string(data), "TODO(newrule)") {
			t.Errorf("%s: missing or without its TODO(newrule) marks (%v)", f, err)
		}
	}
	if _, err := scaffold(root, "PVL099", "other-name", ""); err == nil {
		t.Error("a taken ID was accepted")
	}
	if _, err := scaffold(root, "PVL098", "noisy-neighbour", ""); err == nil {
		t.Error("a taken name was accepted")
	}
	for _, bad := range [][2]string{{"PVL9", "x"}, {"PVL901", "x"}, {"PVL097", "Not_Kebab"}} {
		if _, err := scaffold(root, bad[0], bad[1], ""); err == nil {
			t.Errorf("scaffold(%q, %q) accepted", bad[0], bad[1])
		}
	}
}
