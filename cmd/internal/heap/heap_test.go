package heap

import (
	"runtime"
	"runtime/debug"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/gcpace"
)

func TestSize(t *testing.T) {
	tests := []struct{ input, want int64 }{
		{0, 0},
		{1 << 20, 0}, // 8 MiB of heap: not worth a reservation
		{4 << 20, 32 << 20},
		{22 << 20, 176 << 20},
		{4 << 30, maxReserve},
	}
	for _, tt := range tests {
		if got := reservation(tt.input); got != tt.want {
			t.Errorf("reservation(%d) = %d, want %d", tt.input, got, tt.want)
		}
	}
}

// gcPercent reads the collector's GOGC.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// While the graph is built the first collection waits for the heap the input will
// build, later ones run at GOGC 300; once parsing is done the collector's goal is twice
// the heap, and RulesDone collects and puts the user's GOGC back.
func TestPrepareGCPercent(t *testing.T) {
	t.Setenv("GOGC", "")
	before := gcPercent()
	done := Prepare(64 << 20)
	switch got := gcPercent(); {
	case room() >= 1<<30 && got <= gcpace.ParseGCPercent:
		t.Errorf("GOGC before the first collection = %d, want more than %d (put off until the reservation fills)", got, gcpace.ParseGCPercent)
	case room() == 0 && got != gcpace.ParseGCPercent:
		t.Errorf("GOGC with no room to put collections off = %d, want %d", got, gcpace.ParseGCPercent)
	}
	// The cleanup that sets GOGC 300 runs on its own goroutine after a collection.
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != gcpace.ParseGCPercent && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if got := gcPercent(); got != gcpace.ParseGCPercent {
		t.Errorf("GOGC after the first collection = %d, want %d", got, gcpace.ParseGCPercent)
	}
	done()
	if got := gcPercent(); got < before {
		t.Errorf("GOGC after parsing = %d, want at least %d (twice the heap)", got, before)
	}
	RulesDone()
	if got := gcPercent(); got != before {
		t.Errorf("GOGC after the rules = %d, want it restored to %d", got, before)
	}
	Prepare(1 << 20)() // too small to matter: nothing changes
	if got := gcPercent(); got != before {
		t.Errorf("GOGC after a small input = %d, want %d", got, before)
	}
	t.Setenv("GOGC", "150") // the user's choice wins
	done = Prepare(64 << 20)
	if got := gcPercent(); got != before {
		t.Errorf("GOGC with GOGC set = %d, want the runtime's %d untouched", got, before)
	}
	done()
	RulesDone()
	if got := gcPercent(); got != before {
		t.Errorf("GOGC with GOGC set, after the rules = %d, want the runtime's %d untouched", got, before)
	}
}
