// Package early starts the pvlint command's first worker process while the command's
// own packages are still initialising.
//
// A worker is pvlint re-executing itself to render charts and evaluate Terraform
// modules under memory and time limits (package worker). Its start-up is the binary's
// package initialisation, some 17 ms of CPU, nearly all of it in the dependencies that
// Helm brings; so is the command's own. Started once the command line is parsed, the
// worker's start-up sits between the command and its first chart: on a repository of
// small charts that was a fifth of the run's wall time. Started from this package's
// init, which Go runs before the larger dependencies' (packages initialise in the order
// of their import paths, each after its own imports, and this one imports only the
// standard library and two small pvlint packages), the two start-ups overlap.
//
// It starts a worker only for what the command would start one for: a lint run (no
// subcommand) whose paths hold a Helm chart or Terraform files, with the default
// budgets. Anything it cannot read for certain from the command line (a subcommand,
// --limit, standard input, an unknown flag, help) starts nothing here and leaves the
// decision to the command, as before. The run's worker pool adopts the worker when its
// budget is the worker's, and stops it otherwise (worker.StartEarly).
package early

import (
	"os"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/parsers/load/scan"
	"github.com/pvlint/pvlint/parsers/worker"
)

// Commands are the pvlint command's subcommands: a command line that starts with one
// is not a lint run. The command's tests keep this list equal to its own.
var Commands = []string{"alerts", "chart-pulls", "completion", "config", "explain", "fix", "graph", "help", "rules", "test", "version"}

// Switches are the lint run's flags that take no value, by long and short name; every
// other flag takes one, as its next argument unless written --name=value. The
// command's tests keep this list equal to its flag table.
var Switches = []string{
	"explore-values", "fail-if-no-objects", "gatekeeper", "include-tests", "no-color",
	"no-gitignore", "no-inline-suppressions", "q", "quiet", "unsafe-fixes", "v", "verbose",
	"version",
}

// skip are the flags after which the command does something this package cannot
// foresee: a changed budget, standard input, help, or printing the version.
var skip = []string{"limit", "stdin-filename", "h", "help", "version"}

// Start starts a worker in the background when args (the command line without the
// program's name) is a lint run whose paths, relative to the working directory, hold
// something to evaluate. The count of what they hold is shared with the command
// (scan.Ahead), so the directories are listed once.
func Start(args []string) {
	if worker.Requested() {
		return
	}
	paths, ok := LintPaths(args)
	if !ok {
		return
	}
	dir, err := os.Getwd()
	if err != nil {
		return
	}
	wait := scan.Ahead(dir, paths, 1)
	go func() {
		if wait() > 0 {
			worker.StartEarly(worker.DefaultBudget.Memory)
		}
	}()
}

// LintPaths returns the paths a lint run's command line names ("." when it names
// none), as the command parses them, or false when args is not a lint run this package
// can read for certain.
func LintPaths(args []string) ([]string, bool) {
	if len(args) > 0 && slices.Contains(Commands, args[0]) {
		return nil, false
	}
	var paths []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			paths = append(paths, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			paths = append(paths, a)
			continue
		}
		name, _, hasValue := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		switch {
		case slices.Contains(skip, name):
			return nil, false
		case slices.Contains(Switches, name), hasValue:
		case i+1 < len(args):
			i++ // the flag's value
		default:
			return nil, false // a flag without its value: the command reports it
		}
	}
	if slices.Contains(paths, "-") {
		return nil, false
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	return paths, true
}
