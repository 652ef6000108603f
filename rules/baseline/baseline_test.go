package baseline_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/rules/baseline"
	"github.com/pvlint/pvlint/rules/lint"
)

// Two small rules stand in for the catalogue: one reports at a scalar field, one at
// a list item, the two shapes a fingerprint must follow through edits.
var (
	replicas = &lint.Rule{ID: "T001", Name: "replicas", Severity: lint.Error, Check: func(p *lint.Pass) {
		for _, r := range p.Graph.Resources {
			if n, _ := r.Get("spec", "replicas").Int(); n > 1 {
				p.Report(r, r.Locate("spec", "replicas"), lint.SeverityNone, "replicas "+strconv.Itoa(n))
			}
		}
	}}
	claims = &lint.Rule{ID: "T002", Name: "claims", Severity: lint.Warning, Check: func(p *lint.Pass) {
		for _, r := range p.Graph.Resources {
			for i, v := range r.Get("spec", "template", "spec", "volumes").List() {
				if c := v.Get("persistentVolumeClaim", "claimName").Str(); c != "" {
					p.Report(r, r.Locate("spec", "template", "spec", "volumes", strconv.Itoa(i)), lint.SeverityNone, "mounts claim "+c)
				}
			}
		}
	}}
)

// run lints one fixture directory's app.yaml with the test rules.
func run(t *testing.T, dir string) []lint.Finding {
	t.Helper()
	name := filepath.Join("../../testdata/baseline", dir, "app.yaml")
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	// Every version of the file has the same displayed name, as in a repository.
	rs, ds := manifest.Parse("deploy/app.yaml", data, manifest.Options{})
	if len(ds) > 0 {
		t.Fatalf("%s: %v", name, ds)
	}
	g := graph.New(rs, graph.Options{})
	var out []lint.Finding
	for _, r := range []*lint.Rule{replicas, claims} {
		r.Check(lint.NewPass(r, g, lint.NewestKnown, func(f lint.Finding) { out = append(out, f) }))
	}
	return out
}

func summary(fs []lint.Finding) []string {
	var out []string
	for _, f := range fs {
		out = append(out, f.Rule.ID+" "+f.Resource.String()+" "+f.Message)
	}
	return out
}

// TestEditsKeepMatching writes a baseline on the repository, then lints edited
// versions of it: lines inserted above the findings (and a volume in front of the
// claim), the file re-indented with its documents and keys reordered, a new hazard
// added, and a hazard fixed.
func TestEditsKeepMatching(t *testing.T) {
	var buf bytes.Buffer
	if err := baseline.New(run(t, "repo")).Write(&buf); err != nil {
		t.Fatal(err)
	}
	b, err := baseline.Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Entries) != 4 {
		t.Fatalf("baseline has %d entries, want 4: %+v", len(b.Entries), b.Entries)
	}
	tests := []struct {
		dir     string
		want    []string // findings left
		matched int
		stale   []string // rule and resource of stale entries
	}{
		{dir: "moved", matched: 4},
		{dir: "reindented", matched: 4},
		{dir: "new-hazard", matched: 4, want: []string{
			"T001 Deployment/shop/reports replicas 4",
			"T002 Deployment/shop/reports mounts claim data",
		}},
		{dir: "fixed", matched: 3, stale: []string{"T001 Deployment/shop/worker"}},
	}
	for _, tc := range tests {
		t.Run(tc.dir, func(t *testing.T) {
			got, res := b.Filter(run(t, tc.dir))
			if diff := cmp.Diff(tc.want, summary(got)); diff != "" {
				t.Errorf("findings left (-want +got):\n%s", diff)
			}
			if res.Matched != tc.matched {
				t.Errorf("matched %d, want %d", res.Matched, tc.matched)
			}
			var stale []string
			for _, e := range res.Stale {
				stale = append(stale, e.Rule+" "+e.Resource)
			}
			if diff := cmp.Diff(tc.stale, stale); diff != "" {
				t.Errorf("stale (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFile checks the written file: readable entries in a stable order, without
// suppressed findings.
func TestFile(t *testing.T) {
	fs := run(t, "repo")
	fs[0].Suppression = &lint.Suppression{Kind: lint.InSource, Justification: "accepted"}
	b := baseline.New(fs)
	var got []baseline.Entry
	for _, e := range b.Entries {
		if e.Fingerprint == "" || len(e.Fingerprint) != 32 {
			t.Errorf("fingerprint %q", e.Fingerprint)
		}
		e.Fingerprint = ""
		got = append(got, e)
	}
	want := []baseline.Entry{
		{Rule: "T001", Resource: "Deployment/shop/worker", File: "deploy/app.yaml", Message: "replicas 2"},
		{Rule: "T002", Resource: "Deployment/shop/web", File: "deploy/app.yaml", Message: "mounts claim data"},
		{Rule: "T002", Resource: "Deployment/shop/worker", File: "deploy/app.yaml", Message: "mounts claim data"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("entries (-want +got):\n%s", diff)
	}
	// A suppressed finding passes through Filter as it is, even if its fingerprint is
	// in the baseline.
	all := baseline.New(run(t, "repo"))
	left, res := all.Filter(fs)
	if len(left) != 1 || left[0].Suppression == nil || res.Matched != 3 || len(res.Stale) != 1 {
		t.Errorf("left %v, result %+v", summary(left), res)
	}
	name := filepath.Join(t.TempDir(), "baseline.json")
	if err := b.WriteFile(name); err != nil {
		t.Fatal(err)
	}
	if err := b.WriteFile(filepath.Join(name, "x.json")); err == nil || !strings.HasPrefix(err.Error(), "write baseline "+filepath.Join(name, "x.json")+": ") {
		t.Errorf("unwritable file: %v", err)
	}
	back, err := baseline.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(b, back); diff != "" {
		t.Errorf("round trip (-wrote +read):\n%s", diff)
	}
}

// TestCounts checks that an entry absorbs one finding: a second identical hazard is new.
func TestCounts(t *testing.T) {
	fs := run(t, "repo")
	b := baseline.New(fs[:1])
	left, res := b.Filter([]lint.Finding{fs[0], fs[0]})
	if len(left) != 1 || res.Matched != 1 || len(res.Stale) != 0 {
		t.Errorf("left %d, result %+v", len(left), res)
	}
}

func TestReadErrors(t *testing.T) {
	tests := map[string]string{
		`{"version": 2, "entries": []}`:                                "baseline version 2 is not supported",
		`{"version": 1, "entries": [{"rule": "PVL002"}]}`:              "entry 1 has no fingerprint",
		`{"version": 1, "entries": [], "extra": true}`:                 `unknown field "extra"`,
		`{"version": 1, "entries": []} {}`:                             "data after the JSON object",
		`[1, 2]`:                                                       "invalid baseline",
		`{"version": 1, "entries": [{"fingerprint": "a", "line": 3}]}`: `unknown field "line"`,
		``: "invalid baseline: EOF",
	}
	for in, want := range tests {
		_, err := baseline.Read(strings.NewReader(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Read(%s) = %v, want an error containing %q", in, err, want)
		}
	}
	if _, err := baseline.ReadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil || !strings.HasSuffix(err.Error(), "missing.json: no such file or directory") {
		t.Errorf("missing file: %v", err)
	}
}

// TestReadFileSpecial checks that a named pipe in place of the baseline is refused
// before it is opened (the open would wait for a writer forever).
func TestReadFileSpecial(t *testing.T) {
	pipe := filepath.Join(t.TempDir(), "baseline.json")
	if err := syscall.Mkfifo(pipe, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	if _, err := baseline.ReadFile(pipe); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("ReadFile of a named pipe: %v", err)
	}
}
