// Package gcpace is pvlint's one memory policy: what the Go garbage collector's heap
// goal is in each phase of a run, in pvlint's own process (the parent) and in its
// worker processes. Every place that paces the collector calls this package.
//
// The collector starts a cycle when the heap reaches its goal: by default (GOGC 100)
// twice the heap the last cycle found live. That default suits neither of pvlint's
// two kinds of process. The parent builds a graph that lives until it exits, so
// collecting while it grows re-marks what cannot be freed; a worker starts with a few
// MiB of live package state and evaluates inputs whose garbage streams through a
// small live heap, so at GOGC 100 it would collect every few MiB. The model:
//
//	process  phase                              heap goal
//	parent   start-up, small inputs             the runtime's (GOGC 100, or the user's GOGC)
//	parent   parsing a large input (Parsing)    first cycle at about twice the reservation
//	                                            (8 bytes of heap a byte of manifest, at most
//	                                            half the machine's memory), then live × 4
//	                                            (GOGC 300): the heap is almost all graph
//	parent   rules (the done func of Parsing)   twice the heap when parsing ended
//	parent   report (RulesDone)                 one collection of the rules' garbage, then
//	                                            the runtime's again
//	worker   start-up                           none: GOGC off (package state is all live)
//	worker   evaluating (Worker)                max(Floor, live × 3) while live < LargeHeap,
//	                                            live × 2 above it; never past the memory
//	                                            limit, three quarters of the worker's budget
//
// "Large input" is one worth a reservation (at least 32 MiB of heap): smaller runs keep
// the runtime's default, where putting collections off would save nothing. A GOGC the
// user set wins in both kinds of process: nothing here changes it.
//
// Measured when each was introduced: on workload-heavy YAML the parent collects its
// graph once where it collected it twice at 10,000 objects and four times at 100,000,
// with 14% less peak RSS at 10,000 objects and the same CPU; a worker rendering 50
// small charts spent a tenth of its CPU collecting at GOGC 100 from its 6 MB start;
// Terraform at three times the live heap saved a tenth of the evaluation's CPU.
//
// Two start-up measures sit beside this model and are not collector pacing: the
// parent's transparent huge pages for the heap it is about to fill (cmd/internal/heap:
// one page fault per 2 MiB instead of per 4 KiB, half the run's time at 10,000
// objects on CI virtual machines), and the first worker started while the parent
// initialises (cmd/internal/early), which overlaps two start-ups in wall time. See
// docs/architecture.md ("Memory") and docs/performance.md for their figures.
package gcpace

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// ParseGCPercent is the parent's GOGC while manifests are parsed after the first
// collection: the heap is almost all graph then.
const ParseGCPercent = 300

var (
	// mu guards the parent's setting: gen counts its changes, so that a hook set by
	// putOff does nothing once a later change replaced it; restore is the GOGC to go
	// back to once the rules have run, -1 when there is none; large is set once
	// Parsing paced a large input.
	mu      sync.Mutex
	gen     int
	restore = -1
	large   bool
)

// Parsing paces the parent's collector for parsing a large input whose heap was
// estimated at reservation bytes, with at most room bytes built up before the first
// collection (0: nothing is put off but GOGC 300). It returns the function to call
// once the input is parsed, which sets the goal to twice the heap for the rules;
// RulesDone ends the run's pacing. When the user set GOGC (userGOGC), the collector is
// left alone but RulesDone still collects once.
func Parsing(reservation, room uint64, userGOGC bool) (done func()) {
	mu.Lock()
	large = true
	if userGOGC {
		mu.Unlock()
		return func() {}
	}
	if restore < 0 {
		restore = debug.SetGCPercent(ParseGCPercent)
	}
	old := restore
	mu.Unlock()
	putOff(min(2*reservation, room), ParseGCPercent)
	return func() { putOff(2*inUse(), old) }
}

// putOff sets the collector so that its next cycle starts when the heap reaches about
// goal bytes and, from the end of that cycle on, runs at GOGC then. GOGC is a
// percentage of the heap the last collection found live, so the first goal is that
// heap grown by the percentage that reaches goal.
func putOff(goal uint64, then int) {
	mu.Lock()
	defer mu.Unlock()
	gen++
	live := liveHeap()
	pct := 0
	if live > 0 && goal > live {
		pct = int(min((goal-live)*100/live, 1<<20))
	}
	if pct <= then {
		debug.SetGCPercent(then)
		return
	}
	debug.SetGCPercent(pct)
	g := gen
	afterCollection(func() {
		mu.Lock()
		defer mu.Unlock()
		if gen == g {
			gen++
			debug.SetGCPercent(then)
		}
	})
}

// RulesDone is called once a run's rules have run and before its report is built:
// after a large input (one Parsing paced), it collects the garbage the rules left, so
// that the report's allocations reuse that memory instead of raising the peak, and
// sets the collector back to what it was before Parsing. After a small input it does
// nothing: the collection would cost more than the memory is worth.
func RulesDone() {
	mu.Lock()
	wasLarge := large
	mu.Unlock()
	if !wasLarge {
		return
	}
	runtime.GC()
	mu.Lock()
	defer mu.Unlock()
	gen++
	if restore >= 0 {
		debug.SetGCPercent(restore)
		restore = -1
	}
}

// Floor is how much heap a worker holds before its collector first runs, and the
// least its goal may be between collections.
const Floor = 64 << 20

// LargeHeap is the live heap above which a worker's goal is twice the live heap
// rather than three times: an evaluation that holds a large input parsed whole (a big
// Terraform module) would otherwise reach three times its size.
const LargeHeap = 64 << 20

// Worker paces a worker's collector from its first evaluation on; the worker was
// started with GOGC off (so that its package initialisation ran no cycle) and its
// memory limit set to its budget's. Until the heap reaches Floor there is no
// collection (the memory limit is set to Floor meanwhile); after each one, the goal
// is what the model says for the live heap it found, under the budget's limit.
// Where the worker has no memory limit above Floor, it runs at GOGC 100.
func Worker() {
	limit := debug.SetMemoryLimit(-1) // reads the limit: the budget's, or none
	if limit <= Floor {
		debug.SetGCPercent(100)
		return
	}
	debug.SetMemoryLimit(Floor)
	w := &worker{limit: limit}
	afterCollection(w.collected)
}

// WorkerPercent is the GOGC that gives a worker's heap goal for a live heap.
func WorkerPercent(live uint64) int {
	pct := 100
	if live < LargeHeap {
		pct = 200
	}
	if live > 0 && live*uint64(100+pct)/100 < Floor {
		pct = int(Floor*100/live) - 100
	}
	return pct
}

type worker struct {
	limit   int64
	started bool // the first collection has run: the budget's limit holds
}

// collected runs after each collection of a worker, on the runtime's cleanup
// goroutine.
func (w *worker) collected() {
	if !w.started {
		w.started = true
		debug.SetMemoryLimit(w.limit)
	}
	debug.SetGCPercent(WorkerPercent(liveHeap()))
	afterCollection(w.collected)
}

// sentinel is an object only afterCollection's cleanup knows of. It holds a pointer,
// so the runtime does not batch it with other small objects (a batched object may
// never be collected).
type sentinel struct{ _ *int }

// afterCollection calls fn, on the runtime's cleanup goroutine, once a collection has
// completed: the first one to find a fresh sentinel unreachable.
func afterCollection(fn func()) {
	runtime.AddCleanup(new(sentinel), func(func()) { fn() }, fn)
}

// liveHeap is the heap the last collection found live, in bytes.
func liveHeap() uint64 { return readMetric("/gc/heap/live:bytes") }

// inUse is the heap's objects now, live or not yet collected, in bytes.
func inUse() uint64 { return readMetric("/memory/classes/heap/objects:bytes") }

func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}
