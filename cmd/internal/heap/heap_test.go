package heap

import (
	"runtime/debug"
	"testing"
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

func TestPrepareGCPercent(t *testing.T) {
	t.Setenv("GOGC", "")
	before := gcPercent()
	done := Prepare(64 << 20)
	if got := gcPercent(); got != parseGCPercent {
		t.Errorf("GOGC while parsing = %d, want %d", got, parseGCPercent)
	}
	done()
	if got := gcPercent(); got != before {
		t.Errorf("GOGC after parsing = %d, want it restored to %d", got, before)
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
}
