package suppress_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
)

var update = flag.Bool("update", false, "rewrite the .want files from the current results")

// Two small rules stand in for the catalogue, so these tests say exactly where each
// finding is and do not change when real rules do.
var (
	replicas = &lint.Rule{ID: "T001", Name: "replicas", Severity: lint.Error, Check: func(p *lint.Pass) {
		for _, r := range p.Graph.Resources {
			if n, _ := r.Get("spec", "replicas").Int(); n > 1 {
				p.Report(r, r.Locate("spec", "replicas"), lint.SeverityNone, "replicas "+strconv.Itoa(n))
			}
		}
	}}
	rolling = &lint.Rule{ID: "T002", Name: "rolling", Severity: lint.Warning, Check: func(p *lint.Pass) {
		for _, r := range p.Graph.Resources {
			if r.Get("spec", "strategy", "type").Str() == "RollingUpdate" {
				p.Report(r, r.Locate("spec", "strategy", "type"), lint.SeverityNone, "rolling update")
			}
		}
	}}
	catalogue = []*lint.Rule{replicas, rolling, suppress.Problem}
	today     = time.Date(2026, 3, 1, 23, 30, 0, 0, time.UTC)
)

// input is a parsed set of fixture files and the test rules' findings on it.
type input struct {
	findings  []lint.Finding
	resources []*graph.Resource
	sources   map[string][]byte
}

func load(t *testing.T, files ...string) input {
	t.Helper()
	in := input{sources: map[string][]byte{}}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(f)
		rs, ds := manifest.Parse(name, data, manifest.Options{})
		if len(ds) > 0 {
			t.Fatalf("fixture %s: %v", f, ds)
		}
		in.resources = append(in.resources, rs...)
		in.sources[name] = data
	}
	g := graph.New(in.resources, graph.Options{})
	for _, r := range []*lint.Rule{replicas, rolling} {
		r.Check(lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) { in.findings = append(in.findings, f) }))
	}
	return in
}

// render prints findings one a line, sorted by line: position (without the file),
// rule, message, and how the finding is suppressed.
func render(fs []lint.Finding) []string {
	var out []string
	for _, f := range fs {
		s := fmt.Sprintf("%d:%d %s %s", f.Range.Start.Line, f.Range.Start.Column, f.Rule.ID, f.Message)
		if sp := f.Suppression; sp != nil {
			s += fmt.Sprintf(" [%s at %d:%d: %s", sp.Kind, sp.Location.Start.Line, sp.Location.Start.Column, sp.Justification)
			if !sp.Expires.IsZero() {
				s += " (until " + sp.Expires.Format(time.DateOnly) + ")"
			}
			s += "]"
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return lineOf(out[i]) < lineOf(out[j]) })
	return out
}

func lineOf(s string) int {
	n, _ := strconv.Atoi(s[:strings.IndexByte(s, ':')])
	return n
}

// TestFixtures applies the inline suppressions of each fixture and compares every
// finding, suppressed or not, and every PVL900 with the fixture's .want file.
func TestFixtures(t *testing.T) {
	files, _ := filepath.Glob("../../testdata/suppress/directives/*.yaml")
	if len(files) == 0 {
		t.Fatal("no fixtures")
	}
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			in := load(t, file)
			got := render(suppress.Apply(in.findings, in.resources, in.sources, suppress.Options{Rules: catalogue, Today: today, Inline: true}))
			wantFile := strings.TrimSuffix(file, ".yaml") + ".want"
			if *update {
				if err := os.WriteFile(wantFile, []byte(strings.Join(got, "\n")+"\n"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			data, err := os.ReadFile(wantFile)
			if err != nil {
				t.Fatal(err)
			}
			want := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("findings (-want +got):\n%s", diff)
			}
		})
	}
}
