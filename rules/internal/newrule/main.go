// Command newrule scaffolds a Go rule, as staticcheck's add-check does:
//
//	go run ./rules/internal/newrule PVL024 noisy-neighbour "one-line summary"
//
// It writes the rule file (rules/storage/noisy_neighbour.go), its explain page
// (rules/docs/PVL024.md), a YAML and a Terraform fixture (testdata/rules/PVL024/), the
// catalogue entry (rules/catalogue.go) and the rule's row and section in docs/rules.md.
// Every text it cannot know is marked TODO(newrule), and TestCatalogue fails while one
// is left, so a scaffold cannot be committed as a rule: what remains is the rule's own
// logic, its texts and its fixtures (CONTRIBUTING.md, "Add a Go rule").
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"
	"unicode"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: go run ./rules/internal/newrule [-root DIR] PVLnnn rule-name [summary]")
		flag.PrintDefaults()
	}
	flag.Parse()
	args := flag.Args()
	if len(args) < 2 || len(args) > 3 {
		flag.Usage()
		os.Exit(2)
	}
	summary := ""
	if len(args) == 3 {
		summary = args[2]
	}
	written, err := scaffold(*root, args[0], args[1], summary)
	if err != nil {
		fmt.Fprintln(os.Stderr, "newrule:", err)
		os.Exit(1)
	}
	for _, f := range written {
		fmt.Println(f)
	}
	fmt.Printf("next: write the check and the texts marked TODO(newrule), the fixtures' `# want` lines, then\n"+
		"  go test ./rules -run 'TestCatalogue|TestRulesDoc|TestRules/%s' && make golden\n", args[0])
}

var (
	idPattern   = regexp.MustCompile(`^PVL0\d\d$`)
	namePattern = regexp.MustCompile(`^[a-z][a-z0-9]*(-[a-z0-9]+)*$`)
)

// rule is what the templates know of the new rule.
type rule struct {
	ID, Name, Summary string
	Var, Check, File  string
}

// scaffold writes the new rule's files under root and edits the catalogue and
// docs/rules.md; it returns the paths it wrote or changed. Nothing is written when
// the ID or the name is taken or a file it would create exists.
func scaffold(root, id, name, summary string) ([]string, error) {
	if !idPattern.MatchString(id) {
		return nil, fmt.Errorf("rule ID %q: want PVL0nn (PVL9nn are reserved)", id)
	}
	if !namePattern.MatchString(name) {
		return nil, fmt.Errorf("rule name %q: want kebab-case", name)
	}
	if summary == "" {
		summary = "TODO(newrule): one line for `pvlint rules` and SARIF"
	}
	r := rule{ID: id, Name: name, Summary: summary, File: strings.ReplaceAll(name, "-", "_") + ".go"}
	for part := range strings.SplitSeq(name, "-") {
		r.Var += string(unicode.ToUpper(rune(part[0]))) + part[1:]
	}
	r.Check = "check" + r.Var

	catPath := filepath.Join(root, "rules", "catalogue.go")
	cat, err := os.ReadFile(catPath)
	if err != nil {
		return nil, err
	}
	docPath := filepath.Join(root, "docs", "rules.md")
	doc, err := os.ReadFile(docPath)
	if err != nil {
		return nil, err
	}
	if bytes.Contains(doc, []byte("### "+id+" ")) || bytes.Contains(doc, []byte("| "+name+" |")) {
		return nil, fmt.Errorf("%s or %s is already in docs/rules.md: IDs and names are never reused", id, name)
	}
	if bytes.Contains(cat, []byte("storage."+r.Var+",")) {
		return nil, fmt.Errorf("storage.%s is already in the catalogue", r.Var)
	}

	files := map[string]string{
		filepath.Join("rules", "storage", r.File):                ruleTmpl,
		filepath.Join("rules", "docs", id+".md"):                 pageTmpl,
		filepath.Join("testdata", "rules", id, "workloads.yaml"): yamlTmpl,
		filepath.Join("testdata", "rules", id, "terraform.tf"):   tfTmpl,
	}
	out := map[string][]byte{}
	for path, text := range files {
		if _, err := os.Stat(filepath.Join(root, path)); err == nil {
			return nil, fmt.Errorf("%s exists", path)
		}
		var b bytes.Buffer
		if err := template.Must(template.New(path).Parse(text)).Execute(&b, r); err != nil {
			return nil, err
		}
		if strings.HasSuffix(path, ".go") {
			src, err := format.Source(b.Bytes())
			if err != nil {
				return nil, fmt.Errorf("format %s: %w", path, err)
			}
			b.Reset()
			b.Write(src)
		}
		out[path] = b.Bytes()
	}

	// The catalogue: after the last storage rule.
	lines := strings.Split(string(cat), "\n")
	last := -1
	for i, l := range lines {
		if strings.HasPrefix(strings.TrimSpace(l), "storage.") {
			last = i
		}
	}
	if last < 0 {
		return nil, errors.New("rules/catalogue.go lists no storage rule to add after")
	}
	lines = append(lines[:last+1], append([]string{"\t\tstorage." + r.Var + ","}, lines[last+1:]...)...)
	newCat, err := format.Source([]byte(strings.Join(lines, "\n")))
	if err != nil {
		return nil, fmt.Errorf("format rules/catalogue.go: %w", err)
	}
	out[filepath.Join("rules", "catalogue.go")] = newCat

	// docs/rules.md: a summary row and a section, before PVL900's.
	d := string(doc)
	row := "| [PVL900](#pvl900) |"
	sec := "<a id=\"pvl900\"></a>\n"
	if !strings.Contains(d, row) || !strings.Contains(d, sec) {
		return nil, errors.New("docs/rules.md has no PVL900 row or section to add before")
	}
	lower := strings.ToLower(id)
	d = strings.Replace(d, row, "| ["+id+"](#"+lower+") | "+name+" | TODO(newrule) level | TODO(newrule) reported on |\n"+row, 1)
	d = strings.Replace(d, sec, "<a id=\""+lower+"\"></a>\n### "+id+" "+name+"\n\n"+
		"- **Level**: TODO(newrule).\n- **Fires when**: TODO(newrule).\n- **Reported at**: TODO(newrule).\n"+
		"- **Quiet when**: TODO(newrule) (which rule speaks instead).\n- **Fix**: TODO(newrule).\n\n"+sec, 1)
	out[filepath.Join("docs", "rules.md")] = []byte(d)

	var written []string
	for path, data := range out {
		full := filepath.Join(root, path)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return written, err
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

const ruleTmpl = `package storage

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// {{.Var}} ({{.ID}}) reports TODO(newrule): why the hazard matters, in a few lines. Cite
// design points as docs/rules.md#decision-N and facts as docs/storage-facts.md#fN.
var {{.Var}} = &lint.Rule{
	ID:          "{{.ID}}",
	Name:        "{{.Name}}",
	Severity:    lint.Warning,
	Summary:     {{printf "%q" .Summary}},
	Description: "TODO(newrule): a paragraph: what is detected and why it matters.",
	Remediation: "TODO(newrule): how to fix it (never in the message).",
	Tags:        []string{"TODO(newrule)"},
	// The kinds the check reads: every workload kind, or fewer. Every rule runs over
	// every fixture directory, and a finding on a kind not listed here fails TestRules.
	Kinds: graph.WorkloadKinds(),
	Check: {{.Check}},
}

func {{.Check}}(p *lint.Pass) {
	g := p.Graph
	for _, w := range g.Resources {
		if !graph.IsWorkload(w.Kind) {
			continue
		}
		for _, m := range g.Mounts(w) {
			if !m.Claim.Known() {
				continue
			}
			// TODO(newrule): decide, then report at the node to change, naming the
			// chain (claimChain, backendChain) with every link as a related location:
			//	p.ReportPath(w, node.Range, path, lint.SeverityNone, msg, related...)
		}
	}
}
`

const pageTmpl = `# {{.ID}} {{.Name}}

TODO(newrule): one sentence.

Default level: **warning**.

The finding is reported on TODO(newrule): where, and what is related.

## What happens in the cluster

TODO(newrule): the events and messages a user sees.

## Why

TODO(newrule): including what is not reported and which rule speaks instead.

## How to fix

TODO(newrule): before and after.

## Sources

- TODO(newrule): public URLs or upstream repository paths.
`

const yamlTmpl = `# {{.ID}} {{.Name}}: positives carry a ` + "`# want`" + ` comment on the line of the finding
# (a regular expression of "level: message"); negatives carry none and must stay quiet.
# TODO(newrule): write the positives and the negatives.
`

const tfTmpl = `# {{.ID}} {{.Name}} in Terraform: the same cases as workloads.yaml, as the kubernetes
# provider's resources (kubernetes_deployment_v1, ...). A rule that cannot see
# Terraform says why in noFixture (rules/rules_test.go) instead.
# TODO(newrule): write the positives and the negatives.
`
