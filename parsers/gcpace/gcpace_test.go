package gcpace

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads the collector's GOGC.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// A hook putOff left behind does nothing once a later setting replaced it.
func TestPutOffStaleHook(t *testing.T) {
	before := gcPercent()
	defer debug.SetGCPercent(before)
	runtime.GC()       // a live heap to grow from
	putOff(1<<40, 123) // the hook would set 123 after the next collection
	putOff(0, 456)     // replaced at once: no goal to wait for
	for range 3 {
		runtime.GC()
		time.Sleep(20 * time.Millisecond)
	}
	if got := gcPercent(); got != 456 {
		t.Errorf("GOGC = %d, want 456 (the stale hook must not set 123)", got)
	}
}

// TestWorkerPercent: a worker's goal is max(Floor, live × 3) below LargeHeap and
// live × 2 above it.
func TestWorkerPercent(t *testing.T) {
	for _, tt := range []struct {
		live uint64
		goal uint64
	}{
		{4 << 20, Floor},           // the packages' state: the floor
		{16 << 20, Floor},          // three times would be 48 MiB
		{32 << 20, 96 << 20},       // three times
		{LargeHeap, 2 * LargeHeap}, // twice from LargeHeap on
		{1 << 30, 2 << 30},
	} {
		pct := WorkerPercent(tt.live)
		if goal := tt.live * uint64(100+pct) / 100; goal < tt.goal*99/100 || goal > tt.goal*101/100 {
			t.Errorf("live %d MiB: GOGC %d, a goal of %d MiB, want %d MiB", tt.live>>20, pct, goal>>20, tt.goal>>20)
		}
	}
}
