package bench

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/cmd/internal/cli"
	"github.com/pvlint/pvlint/cmd/internal/corpus"
)

var update = flag.Bool("update", false, "rewrite testdata/findings.golden from the current findings")

// golden lists every finding of the corpora below, one line each plus one per related
// location; testdata/findings.golden is its committed output.
const golden = "testdata/findings.golden"

// goldenCorpora are small enough for every `go test ./...` and cover every input
// path the benchmarks time.
var goldenCorpora = []struct {
	name string
	opts corpus.Options
}{
	{"yaml-1000", corpus.Options{Objects: 1000, Seed: 1}},
	{"terraform-1000", corpus.Options{Objects: 1000, Seed: 1, Terraform: true}},
}

// TestCorpusFindings runs the whole command (pvlint -f json in the corpus directory)
// on generated corpora and compares rule, severity, location and message of every
// finding and related location with the golden file, so an optimisation that changes
// what pvlint reports fails here. When a new rule or a rule change is meant to change
// them, rerun with -update and review the diff:
//
//	go test ./cmd/internal/bench -run TestCorpusFindings -update
func TestCorpusFindings(t *testing.T) {
	path, err := filepath.Abs(golden) // before findings changes directory
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	for _, c := range goldenCorpora {
		dir := filepath.Join(t.TempDir(), c.name)
		if _, err := corpus.Write(dir, c.opts); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&got, "== %s\n", c.name)
		findings(t, dir, &got)
	}
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(strings.Split(string(want), "\n"), strings.Split(got.String(), "\n")); diff != "" {
		t.Errorf("findings on the generated corpora changed (-%s +now); if that is intended, rerun with -update and review:\n%s", golden, diff)
	}
}

// findings lints dir as `pvlint -f json .` run inside it and writes one line per
// finding: rule, severity, range and message, then its related locations indented.
func findings(t *testing.T, dir string, w *bytes.Buffer) {
	t.Helper()
	t.Chdir(dir)
	var stdout, stderr bytes.Buffer
	if code := cli.Main([]string{"-f", "json", "--fail-on", "never", "."}, nil, &stdout, &stderr); code != cli.ExitOK {
		t.Fatalf("pvlint exited %d: %s", code, stderr.String())
	}
	var doc struct {
		Findings []struct {
			RuleID, Severity, Message string
			Location                  location
			Related                   []struct {
				Message  string
				Location location
			}
		}
	}
	if err := json.Unmarshal(stdout.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Findings) == 0 {
		t.Fatalf("no findings in %s: the corpus should give every rule work", dir)
	}
	for _, f := range doc.Findings {
		fmt.Fprintf(w, "%s %s %s %s\n", f.RuleID, f.Severity, f.Location, f.Message)
		for _, r := range f.Related {
			fmt.Fprintf(w, "\t%s %s\n", r.Location, r.Message)
		}
	}
}

type location struct {
	File                                       string
	StartLine, StartColumn, EndLine, EndColumn int
}

func (l location) String() string {
	return fmt.Sprintf("%s:%d:%d-%d:%d", l.File, l.StartLine, l.StartColumn, l.EndLine, l.EndColumn)
}
