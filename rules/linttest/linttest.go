// Package linttest runs rules over fixture directories and compares their findings
// with expectations written in the fixtures, as golang.org/x/tools' analysistest does
// for Go analyzers.
//
// Expectations:
//   - An inline comment `# want "regexp"` (or `// want "regexp"` in HCL) on a line
//     expects one finding reported on that line per quoted regexp. Regexps are Go
//     string literals, "double-quoted" or `back-quoted`.
//   - Formats without comments (JSON) use a sidecar file `<file>.want` with lines
//     `LINE "regexp" ...`; blank lines and lines starting with # are ignored.
//   - In Helm charts and Kustomize overlays, write expectations in the templates and
//     patches, where findings are reported; the rendered and built outputs the
//     loader keeps for excerpts are not read for expectations.
//
// A regexp is matched against "<severity>: <message>", so an unanchored regexp matches
// the message and `^warning: ` pins the level. Each finding consumes one expectation;
// missing and unexpected findings both fail the test.
package linttest

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
)

// Run loads every file under dir through parsers/load (so every input format the
// loader knows works as a fixture), lints each world with the whole catalogue plus the
// given rules, and compares the findings of the given rules with the fixtures'
// expectations. Findings of other rules are ignored; load diagnostics fail the test
// unless PVL000 (rules.ParseError) is among the given rules.
func Run(t testing.TB, dir string, checked ...*lint.Rule) {
	t.Helper()
	RunAt(t, dir, lint.NewestKnown, checked...)
}

// RunAt is Run for a target Kubernetes version other than the default, for rules
// whose verdicts depend on it (--kube-version).
func RunAt(t testing.TB, dir string, target lint.Version, checked ...*lint.Rule) {
	t.Helper()
	problems, err := CheckAt(dir, target, checked...)
	if err != nil {
		t.Fatalf("linttest: %v", err)
		return
	}
	if len(problems) > 0 {
		t.Errorf("%s: findings differ from the fixtures' expectations:\n\t%s", dir, strings.Join(problems, "\n\t"))
	}
}

// ChartCache is the directory of a fixture directory that holds its chart cache
// (load.Options.Charts): charts that its GitOps releases take from Helm repositories.
const ChartCache = "chart-cache"

// Check does Run's work and returns the differences, one line each, sorted by
// position: "missing", "unexpected" or a problem with the fixtures themselves.
func Check(dir string, checked ...*lint.Rule) ([]string, error) {
	return CheckAt(dir, lint.NewestKnown, checked...)
}

// CheckAt is Check with the rules run for the target Kubernetes version.
func CheckAt(dir string, target lint.Version, checked ...*lint.Rule) ([]string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("fixture directory %q: %w", dir, err)
	}
	if info, err := os.Stat(abs); err != nil || !info.IsDir() {
		return nil, fmt.Errorf("fixture directory %q does not exist", dir)
	}
	// Charts get their ChartValues resource (PVL030), which --explore-values adds in a
	// run; no other rule reads it. A fixture's chart-cache/ directory is its chart cache.
	opts := load.Options{Dir: abs, Helm: helm.Options{ChartValues: true}}
	if info, err := os.Stat(filepath.Join(abs, ChartCache)); err == nil && info.IsDir() {
		opts.Charts = []string{filepath.Join(abs, ChartCache)}
	}
	res := load.Load([]string{abs}, opts)
	wants, err := expectations(abs, res.Sources)
	if err != nil {
		return nil, err
	}
	findings, problems := lintAll(res, target, checked)
	problems = append(problems, wants.match(findings)...)
	return sortProblems(problems), nil
}

// lintAll lints every world and returns the findings of the checked rules, each once
// (a plain manifest joins every world, so identical findings from several worlds are
// one), with problems that are not findings: rule failures and unexpected load
// diagnostics. Inline suppressions apply as in a run: a suppressed finding is not
// reported, and PVL900 (suppress.Problem) is, when checked.
func lintAll(res *load.Result, target lint.Version, checked []*lint.Rule) ([]lint.Finding, []problem) {
	want := map[*lint.Rule]bool{}
	for _, r := range checked {
		want[r] = true
	}
	all := rules.All()
	for _, r := range checked {
		if !contains(all, r) {
			all = append(all, r)
		}
	}
	var out []lint.Finding
	var problems []problem
	seen := map[string]bool{}
	add := func(f lint.Finding) {
		key := fmt.Sprintf("%s\x00%s\x00%d:%d\x00%s\x00%s", f.Rule.ID, f.Range.File, f.Range.Start.Line, f.Range.Start.Column, f.Severity, f.Message)
		if !seen[key] {
			seen[key] = true
			out = append(out, f)
		}
	}
	for _, f := range rules.Diagnostics(res.Diagnostics) {
		// A note (a kustomization field kustomize deprecates, a path outside the
		// root) says something about a fixture that loaded.
		if !want[rules.ParseError] && f.Severity != lint.Note {
			problems = append(problems, problem{f.Range.File, int(f.Range.Start.Line), "fixture does not load: " + f.Message})
		}
	}
	found := rules.Diagnostics(res.Diagnostics)
	var resources []*graph.Resource
	for w := range rules.RunWorlds(res.EachWorld(), graph.Options{DefaultNamespace: "default"}, all, rules.Options{Target: target}) {
		for _, err := range w.Errs {
			problems = append(problems, problem{text: "rule failure: " + err.Error()})
		}
		found = append(found, w.Findings...)
		resources = append(resources, w.Graph.Resources...)
	}
	found = suppress.Apply(found, resources, res.Sources, suppress.Options{Rules: all, Today: time.Now(), Inline: true})
	for _, f := range found {
		if k := undeclaredKind(f); k != "" {
			problems = append(problems, problem{f.Range.File, int(f.Range.Start.Line),
				fmt.Sprintf("%s reports on a %s, which its Kinds (%s) do not list", f.Rule.ID, k, strings.Join(f.Rule.Kinds, ", "))})
		}
		if want[f.Rule] && f.Suppression == nil {
			add(f)
		}
	}
	return out, problems
}

// undeclaredKind is the kind of the resource a finding is about when the rule's Kinds
// do not list it ("" otherwise). Every rule runs over every fixture directory, so a rule
// whose check reaches a kind it does not declare (a new workload rule that forgot
// Rollout) fails wherever any fixture holds that kind with the hazard. Kinds are what
// `pvlint rules -f json` and the Gatekeeper export tell users a rule looks at.
func undeclaredKind(f lint.Finding) string {
	if f.Resource == nil || len(f.Rule.Kinds) == 0 || slices.Contains(f.Rule.Kinds, "*") ||
		slices.Contains(f.Rule.Kinds, f.Resource.Kind) {
		return ""
	}
	return f.Resource.Kind
}

func contains(rs []*lint.Rule, r *lint.Rule) bool {
	return slices.Contains(rs, r)
}

// virtual matches the names of sources the loader made up: a chart variant's rendered
// output ("chart#rendered(ci/x-values.yaml)") and a kustomization's build
// ("overlay#built"). Their comments are copies of the templates' and patches', where
// expectations are written and findings are reported, so they are not read again.
var virtual = regexp.MustCompile(`#(rendered|built)(\(.*\))?$`)

// sidecarExt names the expectation file of a format without comments.
const sidecarExt = ".want"

// expectations reads the want comments of every loaded source and every sidecar file
// under dir.
func expectations(dir string, sources map[string][]byte) (*wantSet, error) {
	ws := &wantSet{byLine: map[lineKey][]*want{}}
	names := make([]string, 0, len(sources))
	for name := range sources {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if virtual.MatchString(name) {
			continue
		}
		if err := ws.parseComments(name, string(sources[name])); err != nil {
			return nil, err
		}
	}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != sidecarExt {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return ws.parseSidecar(filepath.ToSlash(strings.TrimSuffix(rel, sidecarExt)), filepath.ToSlash(rel), string(data))
	})
	if err != nil {
		return nil, fmt.Errorf("read expectations: %w", err)
	}
	return ws, nil
}
