// Package heap prepares a pvlint process's Go heap for a large input.
//
// Building the graph of a large repository fills a few hundred megabytes of fresh
// heap, and on the virtual machines CI runs on, the first touch of each 4 KiB page is
// a page fault that costs microseconds: at 10,000 objects the faults were half of the
// run. Linux serves transparent huge pages (2 MiB, one fault each) to memory that
// asks for them with madvise(MADV_HUGEPAGE), the default "madvise" mode of most
// distributions, but the Go runtime no longer asks. hugePages maps the heap the run is
// about to fill, asks for huge pages there and gives the memory back to the runtime,
// which then allocates the graph in it.
//
// The graph lives until the process exits, so collecting while it grows re-marks what
// cannot be freed. Once Prepare knows how much heap the input will build (the
// reservation, growth bytes a byte of input), the first collection waits until the
// heap has reached about twice that: the collector starts a cycle well before the
// heap reaches its goal (from 70% of the way), and what parsing leaves is the graph and
// some garbage. Any later collection while the manifests are parsed runs when the
// heap has grown four-fold (GOGC 300) instead of two-fold. Parsing then ends without
// having collected the graph at all when the estimate holds; before the first
// collection the heap is at most about twice the reservation, and never more than half
// the machine's memory; under an address-space limit (ulimit -v) or strict overcommit
// accounting, and outside Linux, nothing is put off (room).
//
// What the rules allocate is the opposite: indexes, chains and candidate findings that
// are garbage once the rules have run. When parsing ends, the collector's goal becomes
// twice the heap, as if a collection had just run; RulesDone then collects once, after
// the rules and before the report, and the report reuses the memory the rules freed
// instead of raising the peak. Measured on workload-heavy YAML, a run collects its
// graph once where it collected it twice at 10,000 objects and four times at 100,000,
// with 14% less peak RSS at 10,000 objects and the same CPU time.
package heap

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
	"sync/atomic"
)

// parseGCPercent is the collector's GOGC while manifests are parsed after the first
// collection: the heap is almost all graph then.
const parseGCPercent = 300

// Prepare readies the heap for parsing input bytes of manifests and returns the
// function to call once they are parsed: it reserves huge-page heap (hugePages) and,
// unless the user set GOGC, puts off collections while the graph is built (see the
// package comment) and, when done is called, until it has doubled. RulesDone
// collects and sets the collector back.
func Prepare(input int64) (done func()) {
	n := reservation(input)
	if n == 0 {
		return func() {}
	}
	large.Store(true)
	hugePages(input)
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	mu.Lock()
	if restore < 0 {
		restore = debug.SetGCPercent(parseGCPercent)
	}
	old := restore
	mu.Unlock()
	putOff(min(2*uint64(n), room()), parseGCPercent)
	return func() { putOff(2*heapInUse(), old) }
}

var (
	// large is set once Prepare saw an input worth a reservation.
	large atomic.Bool
	// mu guards the collector's setting: gen counts its changes, so that a hook set by
	// putOff does nothing once a later change replaced it; restore is the GOGC to go
	// back to once the rules have run, -1 when there is none.
	mu      sync.Mutex
	gen     int
	restore = -1
)

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
// after a large input (one Prepare reserved heap for), it collects the garbage the
// rules left, so that the report's allocations reuse that memory instead of raising
// the peak, and sets the collector back to what it was before Prepare. After a small
// input it does nothing: the collection would cost more than the memory is worth.
func RulesDone() {
	if !large.Load() {
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

// heapInUse is the heap's objects now, live or not yet collected, in bytes.
func heapInUse() uint64 { return readMetric("/memory/classes/heap/objects:bytes") }

func readMetric(name string) uint64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return s[0].Value.Uint64()
}

// minReserve is the smallest reservation worth its cost (a collection and a few
// system calls): smaller runs fault in little memory anyway.
const minReserve = 32 << 20

// maxReserve bounds a reservation: address space only, but the runtime keeps
// metadata for every 64 MiB of heap it maps.
const maxReserve = 8 << 30

// growth is how many bytes of heap a byte of manifest becomes: nodes, fields, the
// file itself and what rules and output allocate (about 7 at 10,000 objects).
const growth = 8

// reservation is the reservation for input bytes of manifests: 0 when not worth making.
func reservation(input int64) int64 {
	n := min(input*growth, maxReserve)
	if n < minReserve {
		return 0
	}
	return n
}
