package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/docs"
)

// TestReadme keeps the README's generated sections equal to what they describe: the
// flag table from flagSpecs, the rule table from rules.All(), the example outputs from
// real runs on the demo. -update rewrites them in place; everything outside the
// markers is left alone.
func TestReadme(t *testing.T) {
	t.Chdir(repoRoot)
	path := filepath.Join(repoRoot, "README.md")
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	want := got
	sections := map[string]string{
		"flags":          flagTable(),
		"rules":          ruleTable(),
		"demo-text":      demoOutput(t, "text", "testdata/demo"),
		"demo-json":      demoOutput(t, "json", "--format", "json", "--enable", "rwo-multi-pod", "testdata/demo"),
		"policy-example": fenced(t, "rego", "testdata/policies/labels/owner.rego"),
		"policy-text": demoOutput(t, "text", "--policy", "testdata/policies/labels", "--enable", "owner-label",
			"testdata/policies/inputs/yaml", "testdata/policies/inputs/terraform"),
		"policy-topics":  topicTable(),
		"graph-demo":     demoOutput(t, "mermaid", "graph", "testdata/demo"),
		"clusters":       platformTable(),
		"context-export": "```sh\n" + strings.ReplaceAll(contextExports(), "\n    ", "\n")[4:] + "```\n",
	}
	for name, table := range sections {
		want, err = replaceSection(want, name, table)
		if err != nil {
			t.Fatal(err)
		}
	}
	if *update {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("README.md is out of date; run `make golden` (-want +got):\n%s", d)
	}
}

// replaceSection replaces the lines between "<!-- name:start ...-->" and
// "<!-- name:end -->".
func replaceSection(doc, name, body string) (string, error) {
	start := strings.Index(doc, "<!-- "+name+":start")
	end := strings.Index(doc, "<!-- "+name+":end -->")
	if start < 0 || end < start {
		return "", &missingMarkers{name}
	}
	nl := strings.Index(doc[start:], "\n")
	return doc[:start+nl+1] + body + doc[end:], nil
}

type missingMarkers struct{ name string }

func (m *missingMarkers) Error() string {
	return "README.md lacks the <!-- " + m.name + ":start --> / <!-- " + m.name + ":end --> markers"
}

func flagTable() string {
	var b strings.Builder
	b.WriteString("| flag | default | meaning |\n|---|---|---|\n")
	for _, s := range flagSpecs {
		def := ""
		if s.Default != "" {
			def = "`" + s.Default + "`"
		}
		b.WriteString("| `" + strings.TrimSpace(flagSynopsis(s)) + "` | " + def + " | " + cell(s.Usage) + " |\n")
	}
	return b.String()
}

func ruleTable() string {
	var b strings.Builder
	b.WriteString("| ID | name | severity | summary |\n|---|---|---|---|\n")
	for _, r := range rules.All() {
		b.WriteString("| " + r.ID + " | " + r.Name + " | " + r.Severity.String() + " | " + cell(r.Summary) + " |\n")
	}
	return b.String()
}

// demoOutput runs pvlint and fences its standard output as a code block.
func demoOutput(t *testing.T, lang string, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCase(cliCase{args: args})
	if code == ExitError {
		t.Fatalf("pvlint %s: exit %d: %s", strings.Join(args, " "), code, stderr)
	}
	return "```" + lang + "\n" + stdout + "```\n"
}

// fenced is a file's content as a code block.
func fenced(t *testing.T, lang, file string) string {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return "```" + lang + "\n" + string(b) + "```\n"
}

// topicTable links each custom-policy page, with its title.
func topicTable() string {
	var b strings.Builder
	b.WriteString("| topic | page |\n|---|---|\n")
	for _, topic := range docs.PolicyTopics() {
		title, _, _ := strings.Cut(docs.PolicyPage(topic), "\n")
		_, title, _ = strings.Cut(title, ": ")
		b.WriteString("| `" + topic + "` | [" + cell(title) + "](rules/docs/policies/" + topic + ".md) |\n")
	}
	return b.String()
}

func TestReplaceSection(t *testing.T) {
	doc := "a\n<!-- x:start note -->\nold\n<!-- x:end -->\nb\n"
	got, err := replaceSection(doc, "x", "new\n")
	if err != nil || got != "a\n<!-- x:start note -->\nnew\n<!-- x:end -->\nb\n" {
		t.Errorf("replaceSection = %q, %v", got, err)
	}
	if _, err := replaceSection(doc, "y", ""); err == nil {
		t.Error("missing markers not reported")
	}
}
