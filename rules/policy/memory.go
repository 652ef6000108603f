package policy

import (
	"context"
	"errors"
	"runtime"
	"runtime/metrics"
	"sync"
	"time"
)

// DefaultMemory is the heap one policy's evaluation over one graph may grow by. Go
// cannot limit one goroutine's memory, and OPA none of its builtins': a policy that
// doubles a string with concat in a comprehension asks for gigabytes within its time
// budget. pvlint's own policies and real custom ones allocate a few MiB.
const DefaultMemory = 256 << 20

// errMemory is the cause of an evaluation cancelled for its memory.
var errMemory = errors.New("memory budget exceeded")

// heapSample is the metric the watchdog reads: bytes of heap objects, live or not yet
// swept (it grows with every allocation, unlike the live heap known after a GC).
const heapSample = "/memory/classes/heap/objects:bytes"

func heapObjects() int64 {
	s := []metrics.Sample{{Name: heapSample}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}

// watchMemory cancels an evaluation (cancel with errMemory) when the process's heap
// grows more than budget over what it was when the watch began. OPA checks its
// context between evaluation steps, so the evaluation stops at the next step. The
// heap counts garbage too: before cancelling, the watchdog collects it and checks
// again, so that a policy making garbage quickly is not taken for one that keeps it;
// past twice the budget it cancels at once.
// Other goroutines' allocations count as well; the budget is far above what
// evaluating real policies concurrently allocates. The returned function stops the watch.
func watchMemory(budget int64, cancel context.CancelCauseFunc) (stop func()) {
	if budget <= 0 {
		return func() {}
	}
	done := make(chan struct{})
	var once sync.Once
	base := heapObjects()
	go func() {
		tick := time.NewTicker(2 * time.Millisecond)
		defer tick.Stop()
		for {
			select {
			case <-done:
				return
			case <-tick.C:
			}
			grown := heapObjects() - base
			if grown <= budget {
				continue
			}
			if grown > 2*budget {
				// Far past the budget: no collection first. A policy that doubles a
				// string reaches the next size within a step or two, and a full
				// collection under a loaded machine can take longer than that.
				cancel(errMemory)
				return
			}
			runtime.GC()
			if now := heapObjects(); now-base > budget {
				cancel(errMemory)
				return
			} else if now > base {
				// What survived a collection while the policy ran is the policy's or
				// the run's; either way the budget is counted from the heap after it.
				base = max(base, now-budget/2)
			}
		}
	}()
	return func() { once.Do(func() { close(done) }) }
}

// budgeted is the context of one check's evaluations: it ends when the time budget or
// the memory budget runs out. exceeded records on e which of the two it was, for an
// evaluation stopped by the context; stop releases the context and its watchdog.
//
// deadline, when set, is the end of the run's time budget (lint.Pass.Deadline): a
// check that would run past it gets only what is left, and one stopped by it is
// recorded as such (EvalError.RunSpent), not as past its own budget.
func budgeted(budget time.Duration, memory int64, deadline time.Time) (ctx context.Context, exceeded func(e *EvalError), stop func()) {
	timeout, cut := budget, false
	if !deadline.IsZero() {
		if left := time.Until(deadline); left < budget {
			timeout, cut = max(left, 0), true
		}
	}
	timed, cancelTime := context.WithTimeout(context.Background(), timeout)
	ctx, cancel := context.WithCancelCause(timed)
	stopWatch := watchMemory(memory, cancel)
	exceeded = func(e *EvalError) {
		switch {
		case errors.Is(context.Cause(ctx), errMemory):
			e.Memory = memory
		case cut:
			e.RunSpent = true
		default:
			e.Budget = budget
		}
	}
	return ctx, exceeded, func() {
		stopWatch()
		cancel(nil)
		cancelTime()
	}
}
