package bench

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/cli"
	"github.com/pvlint/pvlint/cmd/internal/corpus"
	"github.com/pvlint/pvlint/cmd/internal/output"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/parsers/worker"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/policy"
)

// sizes are the corpus sizes the benchmarks run on:
//
//	go test -bench . -benchmem ./cmd/internal/bench -args -sizes 1000,10000,100000
var sizes = flag.String("sizes", "10000", "comma-separated corpus sizes (objects) to benchmark")

// root holds the corpora generated for this test binary; TestMain removes it.
var root string

func TestMain(m *testing.M) {
	// Runs through cli.Main isolate charts and Terraform modules in worker processes:
	// this test binary, started again in worker mode.
	worker.ServeIfWorker()
	flag.Parse()
	dir, err := os.MkdirTemp("", "pvlint-bench-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
	root = dir
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

var corpora sync.Map // "yaml-10000" → *generated

type generated struct {
	once sync.Once
	dir  string
	err  error
}

// corpusDir returns the directory of a generated corpus, writing it on first use.
func corpusDir(tb testing.TB, objects int, terraform bool) string {
	tb.Helper()
	name := "yaml-" + strconv.Itoa(objects)
	if terraform {
		name = "terraform-" + strconv.Itoa(objects)
	}
	v, _ := corpora.LoadOrStore(name, &generated{})
	gen := v.(*generated)
	gen.once.Do(func() {
		gen.dir = filepath.Join(root, name)
		_, gen.err = corpus.Write(gen.dir, corpus.Options{Objects: objects, Seed: 1, Terraform: terraform})
	})
	if gen.err != nil {
		tb.Fatal(gen.err)
	}
	return gen.dir
}

// each runs fn as a sub-benchmark per corpus size and format ("yaml-10k").
func each(b *testing.B, formats []string, fn func(b *testing.B, dir string)) {
	for s := range strings.SplitSeq(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n <= 0 {
			b.Fatalf("bad -sizes entry %q", s)
		}
		for _, f := range formats {
			dir := corpusDir(b, n, f == "terraform")
			b.Run(fmt.Sprintf("%s-%s", f, short(n)), func(b *testing.B) { fn(b, dir) })
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// loop runs op b.N times (b.Loop) and reports, besides ns/op and allocations, the
// CPU time per operation: unlike ns/op it does not grow when other processes compete
// for the cores, and it counts every thread of this process, so a stage that keeps
// both cores busy costs twice its wall time. untimed work inside op goes through
// pause.
func loop(b *testing.B, op func(pause func(func()))) {
	b.ReportAllocs()
	var cpu time.Duration
	pause := func(f func()) {
		b.StopTimer()
		cpu += cpuTime()
		f()
		cpu -= cpuTime()
		b.StartTimer()
	}
	started := false
	for b.Loop() {
		if !started {
			started = true
			cpu -= cpuTime()
		}
		op(pause)
	}
	cpu += cpuTime()
	b.ReportMetric(float64(cpu)/float64(b.N)/1e6, "cpu-ms/op")
}

func short(n int) string {
	if n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

var both = []string{"yaml", "terraform"}

// loadCorpus reads a corpus as the CLI does, with paths relative to it.
func loadCorpus(dir string) *load.Result {
	return load.Load([]string{"."}, load.Options{Dir: dir})
}

func newGraph(res *load.Result) *graph.Graph {
	return graph.New(res.Base, graph.Options{})
}

// split returns the catalogue's Go rules and its Rego rules.
func split() (goRules, regoRules []*lint.Rule) {
	rego := map[string]bool{}
	for _, r := range policy.Builtin() {
		rego[r.ID] = true
	}
	for _, r := range rules.All() {
		if rego[r.ID] {
			regoRules = append(regoRules, r)
		} else {
			goRules = append(goRules, r)
		}
	}
	return goRules, regoRules
}

// BenchmarkLoad is the parse stage: walking the corpus, reading and parsing every
// file into resources.
func BenchmarkLoad(b *testing.B) {
	each(b, both, func(b *testing.B, dir string) {
		loop(b, func(func(func())) { loadCorpus(dir) })
	})
}

// BenchmarkGraph is graph.New: indexes and relations.
func BenchmarkGraph(b *testing.B) {
	each(b, both, func(b *testing.B, dir string) {
		res := loadCorpus(dir)
		loop(b, func(func(func())) { newGraph(res) })
	})
}

// BenchmarkGoRules runs every rule written in Go over one graph.
func BenchmarkGoRules(b *testing.B) {
	goRules, _ := split()
	each(b, both, func(b *testing.B, dir string) {
		g := newGraph(loadCorpus(dir))
		loop(b, func(func(func())) { rules.Run(g, goRules, rules.Options{}) })
	})
}

// BenchmarkRegoRules runs the built-in Rego policies. Each iteration lints a fresh
// graph, since the Rego inputs are converted once per graph and cached.
func BenchmarkRegoRules(b *testing.B) {
	_, regoRules := split()
	each(b, both, func(b *testing.B, dir string) {
		res := loadCorpus(dir)
		loop(b, func(pause func(func())) {
			var g *graph.Graph
			pause(func() { g = newGraph(res) })
			rules.Run(g, regoRules, rules.Options{})
		})
	})
}

// report returns the report of a corpus: every finding of every rule.
func report(dir string) *output.Report {
	res := loadCorpus(dir)
	fs, _ := rules.Run(newGraph(res), rules.All(), rules.Options{})
	fs = append(fs, rules.Diagnostics(res.Diagnostics)...)
	return &output.Report{
		Tool:     output.Tool{Name: "pvlint", Version: "v1.0.0", InformationURI: cli.Home},
		Rules:    rules.All(),
		Findings: fs,
		Sources:  res.Sources,
		Dir:      dir,
	}
}

// BenchmarkSARIF writes the SARIF report of a corpus.
func BenchmarkSARIF(b *testing.B) {
	each(b, both, func(b *testing.B, dir string) {
		rep := report(dir)
		loop(b, func(func(func())) {
			if err := output.WriteSARIF(io.Discard, rep); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkText writes the text report (with source excerpts) of a corpus.
func BenchmarkText(b *testing.B) {
	each(b, both, func(b *testing.B, dir string) {
		rep := report(dir)
		loop(b, func(func(func())) {
			if err := output.WriteText(io.Discard, rep); err != nil {
				b.Fatal(err)
			}
		})
	})
}

// BenchmarkRun is the whole command in-process, `pvlint -f sarif .` in the corpus
// directory, SARIF to a discarded standard output.
func BenchmarkRun(b *testing.B) {
	each(b, both, func(b *testing.B, dir string) {
		b.Chdir(dir)
		loop(b, func(func(func())) {
			if code := cli.Main([]string{"-f", "sarif", "--fail-on", "never", "."}, nil, io.Discard, io.Discard); code != cli.ExitOK {
				b.Fatalf("pvlint exited %d", code)
			}
		})
	})
}
