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
// cannot be freed: while the manifests are parsed, the heap grows four-fold between
// collections instead of two-fold (GOGC 300), so about half as many cycles run.
//
// What the rules allocate is the opposite: indexes, chains and candidate findings that
// are garbage once the rules have run. With the graph live the collector's goal is
// twice the graph, so that garbage and the report's after it would pile up on fresh
// memory until the process exits; RulesDone collects once between the two, and the
// report reuses the memory the rules freed.
package heap

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync/atomic"
)

// parseGCPercent is the collector's GOGC while manifests are parsed: the heap is
// almost all graph then (measured at 10k and 100k objects: the same peak memory as with
// the default 100, 5% and 9% less time).
const parseGCPercent = 300

// Prepare readies the heap for parsing input bytes of manifests and returns the
// function to call once they are parsed: it reserves huge-page heap (hugePages) and,
// unless the user set GOGC, lets the heap grow further between collections until
// done is called.
func Prepare(input int64) (done func()) {
	if reservation(input) == 0 {
		return func() {}
	}
	large.Store(true)
	hugePages(input)
	if os.Getenv("GOGC") != "" {
		return func() {}
	}
	old := debug.SetGCPercent(parseGCPercent)
	return func() { debug.SetGCPercent(old) }
}

// large is set once Prepare saw an input worth a reservation.
var large atomic.Bool

// RulesDone is called once a run's rules have run and before its report is built:
// after a large input (one Prepare reserved heap for), it collects the garbage the
// rules left, so that the report's allocations reuse that memory instead of raising
// the peak (measured at 10,000 objects of workload-heavy YAML: 13 MiB less peak RSS,
// and at 100,000 the collection is the one the report would have triggered anyway).
// After a small input it does nothing: the collection would cost more than the
// memory is worth.
func RulesDone() {
	if large.Load() {
		runtime.GC()
	}
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
