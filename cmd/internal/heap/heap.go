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
// How the collector is paced while the graph is built and after (the first
// collection put off until the reservation fills, GOGC 300 while parsing, one
// collection after the rules) is pvlint's memory policy, package gcpace; Prepare
// starts it with the reservation this package computes.
package heap

import (
	"os"

	"github.com/pvlint/pvlint/parsers/gcpace"
)

// Prepare readies the heap for parsing input bytes of manifests and returns the
// function to call once they are parsed: it reserves huge-page heap (hugePages) and
// paces the collector for a large input (gcpace.Parsing). RulesDone collects and sets
// the collector back.
func Prepare(input int64) (done func()) {
	n := reservation(input)
	if n == 0 {
		return func() {}
	}
	hugePages(input)
	return gcpace.Parsing(uint64(n), room(), os.Getenv("GOGC") != "")
}

// RulesDone is called once a run's rules have run and before its report is built
// (gcpace.RulesDone).
func RulesDone() { gcpace.RulesDone() }

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
