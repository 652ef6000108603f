package load

import (
	"fmt"
	"runtime/debug"
)

// guard runs f, turning a panic into an internal error that names the input being
// read. A parser that panics on some input is a bug in pvlint, never a reason to lose
// the other inputs: the rest of the load goes on, and the CLI reports the error
// (exit 2, asking for a bug report). It is safe to call from the worker goroutines.
func (l *loader) guard(input string, f func()) {
	defer func() {
		if p := recover(); p != nil {
			err := fmt.Errorf("internal error reading %s: %v\n%s", input, p, debug.Stack())
			l.mu.Lock()
			l.res.Internal = append(l.res.Internal, err)
			l.mu.Unlock()
		}
	}()
	f()
}

// parseFile reads one plain manifest file's content; a variable so that a test can
// make it panic.
var parseFile = (*loader).parse
