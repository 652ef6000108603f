package cli

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/docs"
)

// TestReadme keeps the generated sections of the README and of the docs/ pages equal to
// what they describe: the flag table from flagSpecs, the rule table from rules.All(), the
// example outputs from real runs on the demo. A section may appear in several pages (the
// demo's text report is on the front page and in docs/output.md); every section appears
// in at least one. -update rewrites them in place; everything outside the markers is
// left alone.
func TestReadme(t *testing.T) {
	t.Chdir(repoRoot)
	sections := map[string]func(rel string) string{
		"flags":     func(string) string { return flagTable() },
		"rules":     func(rel string) string { return ruleTable(rel) },
		"demo-text": func(string) string { return demoOutput(t, "text", "testdata/demo") },
		"demo-json": func(string) string {
			return demoOutput(t, "json", "--format", "json", "--enable", "rwo-multi-pod", "testdata/demo")
		},
		"policy-example": func(string) string { return fenced(t, "rego", "testdata/policies/labels/owner.rego") },
		"policy-text": func(string) string {
			return demoOutput(t, "text", "--policy", "testdata/policies/labels", "--enable", "owner-label",
				"testdata/policies/inputs/yaml", "testdata/policies/inputs/terraform")
		},
		"policy-topics": func(rel string) string { return topicTable(rel) },
		"graph-demo":    func(string) string { return demoOutput(t, "mermaid", "graph", "testdata/demo") },
		"clusters":      func(string) string { return platformTable() },
		"context-export": func(string) string {
			return "```sh\n" + strings.ReplaceAll(contextExports(), "\n    ", "\n")[4:] + "```\n"
		},
	}
	found := map[string]bool{}
	for _, path := range docPages(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		got := string(data)
		want := got
		rel := strings.Repeat("../", strings.Count(path, "/"))
		for name, body := range sections {
			if !strings.Contains(want, "<!-- "+name+":start") {
				continue
			}
			found[name] = true
			if want, err = replaceSection(want, name, body(rel)); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		if *update {
			if want != got {
				if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			continue
		}
		if d := cmp.Diff(want, got); d != "" {
			t.Errorf("%s is out of date; run `make golden` (-want +got):\n%s", path, d)
		}
	}
	for name := range sections {
		if !found[name] {
			t.Errorf("no page holds the <!-- %s:start --> / <!-- %s:end --> markers", name, name)
		}
	}
}

// docPages are the pages that may hold generated sections, relative to the repository
// root: the README and docs/*.md.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, pages...)
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
	return "the page lacks the <!-- " + m.name + ":start --> / <!-- " + m.name + ":end --> markers"
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

// ruleTable lists the rules, each linked to its explain page; rel leads from the page
// that holds the table to the repository root.
func ruleTable(rel string) string {
	var b strings.Builder
	b.WriteString("| ID | name | severity | summary |\n|---|---|---|---|\n")
	for _, r := range rules.All() {
		b.WriteString("| [" + r.ID + "](" + rel + "rules/docs/" + r.ID + ".md) | " + r.Name + " | " + r.Severity.String() + " | " + cell(r.Summary) + " |\n")
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
func topicTable(rel string) string {
	var b strings.Builder
	b.WriteString("| topic | page |\n|---|---|\n")
	for _, topic := range docs.PolicyTopics() {
		title, _, _ := strings.Cut(docs.PolicyPage(topic), "\n")
		_, title, _ = strings.Cut(title, ": ")
		b.WriteString("| `" + topic + "` | [" + cell(title) + "](" + rel + "rules/docs/policies/" + topic + ".md) |\n")
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

// TestDocLinks checks every relative link of the README, the project's Markdown files
// and the explain pages: the file it names exists, and a #fragment names a heading (or
// an explicit anchor) of that page. The README is a front page whose reference lives in
// docs/, so a section that moves must take its links along.
func TestDocLinks(t *testing.T) {
	t.Chdir(repoRoot)
	var pages []string
	for _, pattern := range []string{"*.md", "docs/*.md", ".github/*.md", "rules/docs/*.md", "rules/docs/policies/*.md"} {
		m, err := filepath.Glob(pattern)
		if err != nil {
			t.Fatal(err)
		}
		pages = append(pages, m...)
	}
	link := regexp.MustCompile(`\]\(([^)\s]+)\)`)
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		a := map[string]bool{}
		if data, err := os.ReadFile(page); err == nil {
			a = markdownAnchors(string(data))
		}
		anchors[page] = a
		return a
	}
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range link.FindAllStringSubmatch(stripCode(string(data)), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := page
			if path != "" {
				dest = filepath.Join(filepath.Dir(page), path)
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s: link %s: %s does not exist", page, target, dest)
					continue
				}
			}
			checked++
			if frag != "" && strings.HasSuffix(dest, ".md") && !anchorsOf(dest)[frag] {
				t.Errorf("%s: link %s: %s has no heading or anchor #%s", page, target, dest, frag)
			}
		}
	}
	if checked < 100 {
		t.Errorf("only %d relative links checked; the page globs are wrong", checked)
	}
}

// markdownAnchors are the fragments GitHub gives a page's headings (lower case,
// punctuation but hyphens dropped, spaces as hyphens, -1, -2 for repeats) and its
// explicit <a id="..."> anchors.
func markdownAnchors(doc string) map[string]bool {
	a := map[string]bool{}
	seen := map[string]int{}
	for line := range strings.SplitSeq(stripFences(doc), "\n") {
		if h, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " "); ok && strings.HasPrefix(line, "#") {
			var b strings.Builder
			for _, r := range strings.ToLower(strings.TrimSpace(h)) {
				switch {
				case r == ' ':
					b.WriteRune('-')
				case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
					b.WriteRune(r)
				}
			}
			id := b.String()
			if n := seen[id]; n > 0 {
				a[id+"-"+strconv.Itoa(n)] = true
			} else {
				a[id] = true
			}
			seen[id]++
		}
	}
	for _, m := range regexp.MustCompile(`<a (?:id|name)="([^"]+)"`).FindAllStringSubmatch(doc, -1) {
		a[m[1]] = true
	}
	return a
}

var inlineCode = regexp.MustCompile("`[^`]*`")

// stripCode blanks fenced code blocks and inline code spans, whose brackets and # lines
// are not Markdown.
func stripCode(doc string) string {
	return inlineCode.ReplaceAllString(stripFences(doc), "``")
}

// stripFences blanks fenced code blocks.
func stripFences(doc string) string {
	lines := strings.Split(doc, "\n")
	fence := false
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "```") {
			fence = !fence
			lines[i] = ""
			continue
		}
		if fence {
			lines[i] = ""
		}
	}
	return strings.Join(lines, "\n")
}

// TestReadmeCommands runs what the front page tells a new user to type: its first two
// commands (the demo, which exits 1 on purpose, and `make test`, a target of the
// Makefile that .ci/run runs), and every line of its Usage block, in a copy of the demo
// (the working directory, so that `pvlint fix .` writes nowhere that matters). A line that is a usage error
// (exit 2) fails the test: the README may not advertise a flag or command that does not
// exist.
func TestReadmeCommands(t *testing.T) {
	t.Chdir(repoRoot)
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```sh\n(.*?)```").FindAllStringSubmatch(string(data), -1)
	if len(blocks) < 2 {
		t.Fatal("README.md has fewer than two sh blocks (first commands, usage)")
	}
	first := strings.Split(strings.TrimSpace(blocks[0][1]), "\n")
	if len(first) != 2 || !strings.HasPrefix(first[0], "go run ./cmd/pvlint testdata/demo ") ||
		!strings.HasPrefix(first[1], "make test ") {
		t.Fatalf("README's first block is not the demo and the test command:\n%s", blocks[0][1])
	}
	if code, _, stderr := runCase(cliCase{args: []string{"testdata/demo"}}); code != ExitFindings {
		t.Errorf("the demo exits %d, the README says 1: %s", code, stderr)
	}
	mk, err := os.ReadFile("Makefile")
	if err != nil || !regexp.MustCompile(`(?m)^test:`).Match(mk) {
		t.Error("the Makefile has no test target")
	}
	if ci, err := os.ReadFile(".ci/run"); err != nil || !regexp.MustCompile(`(?m)^make test$`).Match(ci) {
		t.Error(".ci/run does not run `make test`")
	}

	var usage string
	for _, b := range blocks {
		if strings.HasPrefix(b[1], "pvlint ") {
			usage = b[1]
			break
		}
	}
	if usage == "" {
		t.Fatal("README.md has no usage block (a sh block starting with `pvlint `)")
	}
	demo := t.TempDir()
	if err := os.CopyFS(demo, os.DirFS("testdata/demo")); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"k8s", "charts", "infra"} { // the paths the examples name
		if err := os.MkdirAll(filepath.Join(demo, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(demo) // `pvlint` alone lints the working directory
	ran := 0
	for line := range strings.SplitSeq(strings.TrimSpace(usage), "\n") {
		cmd, _, _ := strings.Cut(line, "#")
		args := strings.Fields(cmd)
		stdin := ""
		if i := slices.Index(args, "|"); i >= 0 { // helm template x | pvlint -
			args, stdin = args[i+2:], "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"
		} else {
			args = args[1:]
		}
		if slices.ContainsFunc(args, func(a string) bool { return strings.HasPrefix(a, "--new-from-rev") }) {
			continue // needs a git history; TestNewFromRev* cover it
		}
		code, _, stderr := runCase(cliCase{args: args, stdin: stdin})
		if code != ExitOK && code != ExitFindings {
			t.Errorf("README usage line %q: exit %d: %s", line, code, stderr)
		}
		ran++
	}
	if ran < 5 {
		t.Errorf("only %d usage lines ran", ran)
	}
}

// TestArchitecturePackages keeps docs/architecture.md's package map equal to the
// module's packages: every package `go list ./...` prints has a row, and every row
// names a package that exists.
func TestArchitecturePackages(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go list")
	}
	t.Chdir(repoRoot)
	out, err := exec.Command("go", "list", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	const module = "github.com/pvlint/pvlint/"
	listed := map[string]bool{}
	for p := range strings.FieldsSeq(string(out)) {
		listed[strings.TrimPrefix(p, module)] = true
	}
	doc, err := os.ReadFile("docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	_, pkgMap, ok := strings.Cut(string(doc), "## Package map")
	if !ok {
		t.Fatal("docs/architecture.md has no Package map section")
	}
	pkgMap, _, _ = strings.Cut(pkgMap, "\n## ")
	mapped := map[string]bool{}
	for _, m := range regexp.MustCompile("(?m)^\\| `([^`]+)` \\|").FindAllStringSubmatch(pkgMap, -1) {
		if mapped[m[1]] {
			t.Errorf("docs/architecture.md lists %s twice", m[1])
		}
		mapped[m[1]] = true
		if !listed[m[1]] {
			t.Errorf("docs/architecture.md lists %s, which go list does not know", m[1])
		}
	}
	for p := range listed {
		if !mapped[p] {
			t.Errorf("package %s is missing from docs/architecture.md's package map", p)
		}
	}
}
