// Package cli is pvlint's command line: the only code that reads flags, the
// environment and the working directory, and decides exit codes. It runs in-process
// (Main takes its streams as arguments), so tests drive it exactly as a user would.
//
// Flags are declared in one table, flagSpecs (flags.go); output formats come from
// package output's Formats list. The lint run itself (lint.go) is
// plan (plan.go: flags + configuration file + catalogue, resolved once) → load →
// rules.RunWorlds (graph per world, rules) → accept (suppressions, one merge,
// baseline) → fixes resolved → output.
package cli

import (
	"errors"
	"fmt"
	"github.com/pvlint/pvlint/parsers/worker"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/heap"
	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

// Exit codes. They are part of pvlint's contract with CI systems.
const (
	ExitOK       = 0 // no finding at or above --fail-on
	ExitFindings = 1 // findings at or above --fail-on
	ExitError    = 2 // usage or configuration error, unwritable output, or an internal error
	// ExitIncomplete: the run's time budget (--limit run-time) was spent before every
	// input was linted; what was linted is reported, each input left is a PVL000.
	ExitIncomplete = 3
)

// Home is the project's page, shown in SARIF and in bug-report requests.
const Home = "https://github.com/pvlint/pvlint"

// version is set at link time for release builds:
//
//	go build -ldflags "-X github.com/pvlint/pvlint/cmd/cli.version=v1.2.3" ./cmd/pvlint
var version string

// Version is pvlint's version: the link-time version, else the module version that
// `go install ...@version` records, else "(devel)".
func Version() string {
	if version != "" {
		return version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		return bi.Main.Version
	}
	return "(devel)"
}

// Env is what a run may touch outside its arguments. Tests replace any of it.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Getenv reads an environment variable (os.Getenv).
	Getenv func(string) string
	// IsTerminal reports whether w is an interactive terminal, which is the only case
	// where the text format is coloured.
	IsTerminal func(w io.Writer) bool
	// Rules is the catalogue a lint run uses; nil means rules.All(). Tests add rules
	// that misbehave to exercise the internal-error path.
	Rules []*lint.Rule
	// BeforeParse is given the size of the manifests a run is about to parse, and
	// what it returns is called once they are parsed (load.Options.BeforeParse); Main
	// prepares the heap with it (package heap).
	BeforeParse func(bytes int64) (after func())
	// AfterRules, when set, is called once the rules have run over every world and
	// before suppressions and the report; Main collects the rules' garbage with it
	// (heap.RulesDone).
	AfterRules func()
	// IsPipe reports whether standard input is a pipe or file someone meant pvlint
	// to read; nil means never.
	IsPipe func(r io.Reader) bool
	// Isolate renders charts and evaluates Terraform modules in worker processes (this
	// binary re-executed in worker mode, package worker) under the eval-memory and
	// eval-time budgets. Main sets it; tests that run in-process leave it off, and
	// test binaries that set it serve worker mode from TestMain.
	Isolate bool
	// Progress, when set, is where a load that lasts shows what it has done, on one
	// line it rewrites and clears at the end: Main sets it to standard error when that
	// is a terminal, so that CI logs (never a terminal) stay clean.
	Progress io.Writer
	// progressAfter is how long a load runs before its progress shows: a second when
	// zero, at once when negative (tests).
	progressAfter time.Duration
	// workers is the run's worker pool once prestart made it.
	workers *worker.Pool
	// policyWorkers evaluates the analysis' custom policies and Gatekeeper templates.
	policyWorkers *policyWorkers
	// deadline is the end of the run's time budget (--limit run-time), set when the
	// first analysis begins: the analysis at an old revision (--new-from-rev) shares it.
	deadline time.Time
	// Exit, when set, ends the process: Main sets os.Exit, so that a run still busy
	// well after its time budget is spent (work that cannot be cut short where it
	// runs, such as a kustomize build in this process) stops anyway (backstop).
	Exit func(code int)
	// backstop is the timer that calls Exit, once the run's analyses began.
	backstop *time.Timer
	// keepWorlds makes the next analysis keep each world's graph (analysis.worlds),
	// which pvlint graph draws.
	keepWorlds bool
}

// Main runs pvlint with the process's environment and returns the exit code.
func Main(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	if worker.Requested() {
		// pvlint started itself as a worker: serve evaluations, nothing else.
		return worker.Serve(stdin, stdout)
	}
	// The built-in Rego policies compile (~10 ms) on another processor while the
	// command line and the configuration are read.
	go rules.All()
	e := &Env{Stdin: stdin, Stdout: stdout, Stderr: stderr, Getenv: os.Getenv, IsTerminal: isTerminal, BeforeParse: heap.Prepare, AfterRules: heap.RulesDone, IsPipe: isPipe, Isolate: true, Exit: os.Exit}
	if isTerminal(stderr) && os.Getenv("TERM") != "dumb" {
		e.Progress = stderr
	}
	return e.Run(args)
}

// Run dispatches a command line: a subcommand when the first argument names one,
// otherwise a lint run.
func (e *Env) Run(args []string) int {
	if len(args) > 0 {
		if cmd, ok := subcommands()[args[0]]; ok {
			if wantsHelp(args[1:]) {
				subcommandUsage(e, args[0])
				return ExitOK
			}
			return cmd(e, args[1:])
		}
		if err := unknownCommand(args[0]); err != nil {
			return e.fail(err)
		}
	}
	c, err := parseFlags(args)
	if errors.Is(err, errHelp) {
		e.usage(e.Stdout)
		return ExitOK
	}
	if err != nil {
		return e.fail(err)
	}
	if c.ShowVersion {
		return e.versionCmd(nil)
	}
	return e.lint(c)
}

// fail reports a usage or configuration error: one line, or one line per problem
// when the error lists several (a policy that does not compile).
func (e *Env) fail(err error) int {
	for line := range strings.SplitSeq(err.Error(), "\n") {
		fmt.Fprintf(e.Stderr, "pvlint: %s\n", line)
	}
	return ExitError
}

// usage prints the help text, generated from flagSpecs.
func (e *Env) usage(w io.Writer) {
	fmt.Fprint(w, `Usage: pvlint [flags] [PATH ...]
       pvlint fix [--dry-run] [--unsafe-fixes] [flags] [PATH ...]
       pvlint graph [flags] [PATH ...] | rules [-f json] [--policy DIR] | explain RULE|TOPIC [--policy DIR]
       pvlint test [-v] DIR ... | alerts [flags] | chart-pulls [flags] [PATH ...] | config init|schema | version | help [COMMAND]
       pvlint completion bash|zsh|fish

pvlint finds Kubernetes storage hazards (ReadWriteOnce claims under multi-pod
workloads, Immediate binding, ReadWriteOncePod misuse...) in manifests. PATH is a
file or directory (default "."); "-" reads standard input. Flags may follow paths.

Flags:
`)
	rows := make([][2]string, 0, len(flagSpecs))
	width := 0
	for _, s := range flagSpecs {
		left := flagSynopsis(s)
		width = max(width, len(left))
		usage := s.Usage
		if s.Default != "" {
			usage += " (default " + s.Default + ")"
		}
		rows = append(rows, [2]string{left, usage})
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r[0], r[1])
	}
	fmt.Fprint(w, `
Exit codes: 0 no finding at or above --fail-on, 1 findings at or above it,
2 usage, configuration or internal error.
`)
}

// flagSynopsis reads "-f, --format FORMAT".
func flagSynopsis(s flagSpec) string {
	var b strings.Builder
	if s.Short != "" {
		b.WriteString("-" + s.Short + ", ")
	} else {
		b.WriteString("    ")
	}
	b.WriteString("--" + s.Name)
	if s.Arg != "" {
		b.WriteString(" " + s.Arg)
	}
	return b.String()
}

// isTerminal reports whether w is a character device such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
