package policy

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestGatekeeperLibrary runs the test suites of the public Gatekeeper policy library
// (github.com/open-policy-agent/gatekeeper-library, a checkout named by
// PVLINT_GATEKEEPER_LIBRARY) through pvlint's Gatekeeper evaluation: for every
// template of library/general, every case of its suite.yaml, the case's object is the
// graph, its inventory objects the context, and pvlint's violations must agree with
// the case's assertions (violations: yes, no or a count, among the messages a
// message regex selects when given). It prints one line per case. Without the
// variable it skips: the project does not depend on the library.
func TestGatekeeperLibrary(t *testing.T) {
	root := os.Getenv("PVLINT_GATEKEEPER_LIBRARY")
	if root == "" {
		t.Skip("PVLINT_GATEKEEPER_LIBRARY is not set (a checkout of open-policy-agent/gatekeeper-library)")
	}
	suites, err := filepath.Glob(filepath.Join(root, "library", "general", "*", "suite.yaml"))
	if err != nil || len(suites) == 0 {
		t.Fatalf("no library/general/*/suite.yaml under %s (%v)", root, err)
	}
	sort.Strings(suites)
	var agree, total int
	var rows []string
	for _, suite := range suites {
		dir := filepath.Dir(suite)
		s := readObjects(t, suite)
		if len(s) != 1 {
			t.Fatalf("%s: want one Suite document", suite)
		}
		for _, test := range s[0].Get("tests").List() {
			tmpl := readObjects(t, filepath.Join(dir, test.Get("template").Str()))
			cons := readObjects(t, filepath.Join(dir, test.Get("constraint").Str()))
			for _, c := range test.Get("cases").List() {
				total++
				name := fmt.Sprintf("%s/%s/%s", filepath.Base(dir), test.Get("name").Str(), c.Get("name").Str())
				verdict := runCase(t, dir, tmpl, cons, c)
				if verdict == "" {
					agree++
					rows = append(rows, fmt.Sprintf("ok    %s", name))
				} else {
					rows = append(rows, fmt.Sprintf("DIFF  %s: %s", name, verdict))
					t.Errorf("%s: %s", name, verdict)
				}
			}
		}
	}
	t.Logf("Gatekeeper library, library/general: %d of %d cases agree\n%s", agree, total, strings.Join(rows, "\n"))
}

// runCase evaluates one suite case and returns "" when pvlint agrees with every
// assertion, or what differs.
func runCase(t *testing.T, dir string, tmpl, cons []*graph.Resource, c *graph.Node) string {
	objs := readObjects(t, filepath.Join(dir, c.Get("object").Str()))
	var inv []*graph.Resource
	for _, f := range c.Get("inventory").List() {
		inv = append(inv, readObjects(t, filepath.Join(dir, f.Str()))...)
	}
	// Namespaces are defaulted as a run defaults them.
	inv = graph.New(inv, graph.Options{}).Resources
	g := graph.New(objs, graph.Options{})
	rules, problems := Gatekeeper(append(append([]*graph.Resource(nil), tmpl...), cons...), GatekeeperOptions{Context: inv})
	if len(problems) > 0 {
		return "template or constraint not evaluated: " + problems[0].Error()
	}
	var msgs []string
	for _, r := range rules {
		pass := lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) { msgs = append(msgs, f.Message) })
		r.Check(pass)
		if errs := pass.Errors(); len(errs) > 0 {
			return fmt.Sprintf("evaluation failed: %v", errs[0])
		}
	}
	var diffs []string
	for _, a := range c.Get("assertions").List() {
		n := 0
		want := a.Get("violations").Str()
		if want == "" {
			want = "yes"
		}
		re := regexp.MustCompile(".*")
		if m := a.Get("message"); m != nil {
			re = regexp.MustCompile(m.Str())
		}
		for _, m := range msgs {
			if re.MatchString(m) {
				n++
			}
		}
		ok := false
		switch want {
		case "yes":
			ok = n > 0
		case "no":
			ok = n == 0
		default:
			w, err := strconv.Atoi(want)
			if err != nil {
				t.Fatalf("%s: assertion violations: %q", dir, want)
			}
			ok = n == w
		}
		if !ok {
			diffs = append(diffs, fmt.Sprintf("want violations %s (message %q), got %d %q", want, re, n, msgs))
		}
	}
	return strings.Join(diffs, "; ")
}

func readObjects(t *testing.T, file string) []*graph.Resource {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rs, ds := manifest.Parse(filepath.ToSlash(file), b, manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("%s: %v", file, ds)
	}
	return rs
}
