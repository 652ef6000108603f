package load

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcPercent reads the collector's percentage without setting it.
func gcPercent() int {
	s := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(s)
	return int(s[0].Value.Uint64())
}

// TestCollectByLiveHeap: the Terraform worker's collector runs at the small-heap
// percentage while the live heap is under the bound, switches once it is over, and
// the previous percentage is back afterwards.
func TestCollectByLiveHeap(t *testing.T) {
	orig := debug.SetGCPercent(120)
	defer debug.SetGCPercent(orig)

	restore := collectByLiveHeap(300, 150, 1<<40)
	runtime.GC()
	time.Sleep(50 * time.Millisecond)
	if got := gcPercent(); got != 300 {
		t.Errorf("under the bound: GOGC %d, want 300", got)
	}
	restore()
	if got := gcPercent(); got != 120 {
		t.Errorf("after: GOGC %d, want 120 back", got)
	}

	restore = collectByLiveHeap(300, 150, 1) // any live heap is over this bound
	deadline := time.Now().Add(5 * time.Second)
	for gcPercent() != 150 {
		if time.Now().After(deadline) {
			t.Fatalf("over the bound: GOGC still %d, want 150", gcPercent())
		}
		runtime.GC()
		time.Sleep(5 * time.Millisecond)
	}
	restore()
	if got := gcPercent(); got != 120 {
		t.Errorf("after: GOGC %d, want 120 back", got)
	}
}
