package load

import (
	"errors"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/worker"
)

// The run's time budget (Options.Deadline, the command line's --limit run-time)
// bounds the whole load, not one input: each chart, kustomization and Terraform
// evaluation starts only while some of it is left, gets no more than what is left,
// and one it stops or never starts is a PVL000 at that input (counted in
// Result.Unfinished, which makes the run's exit code say that the report is
// incomplete). Plain manifests and rules files are always read: their parse is
// bounded by their size.

// runSpentMsg ends the message of an input the run's time budget left unread.
const runSpentMsg = "the run's time budget was spent (--limit run-time)"

// spent reports whether the run's time budget is spent.
func (l *loader) spent() bool {
	return !l.opts.Deadline.IsZero() && !time.Now().Before(l.opts.Deadline)
}

// left bounds d by what is left of the run's time budget.
func (l *loader) left(d time.Duration) time.Duration {
	if l.opts.Deadline.IsZero() {
		return d
	}
	return max(min(d, time.Until(l.opts.Deadline)), time.Millisecond)
}

// runSpent reports whether err is a worker call the run's deadline stopped or never
// started.
func runSpent(err error) bool {
	var ex *worker.Exceeded
	return errors.As(err, &ex) && ex.Kind == worker.OutOfRunTime
}

// unfinishedDiag is loader.unfinished as a diagnostic value, for results built
// before they are added.
func (l *loader) unfinishedDiag(file, what string) graph.Diagnostic {
	l.mu.Lock()
	l.res.Unfinished++
	l.mu.Unlock()
	return graph.Diagnostic{
		Range:   graph.Range{File: file, Start: graph.Pos{Line: 1, Column: 1}},
		Message: what + " not linted: " + runSpentMsg,
	}
}
