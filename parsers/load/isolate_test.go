package load

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"slices"
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

// TestChartBatches checks how charts are split into worker calls: in order, each
// once, at most maxChartBatch a call, and two calls a processor when there are enough
// charts to fill them, so that the parent parses one call's output while the worker
// renders the next.
func TestChartBatches(t *testing.T) {
	for _, tc := range []struct {
		n, procs int
		sizes    []int
	}{
		{0, 2, nil},
		{1, 2, []int{1}},
		{3, 2, []int{1, 1, 1}},
		{7, 2, []int{2, 2, 2, 1}},
		{50, 2, []int{8, 8, 8, 8, 8, 8, 2}},
		{50, 8, []int{4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 2}},
		{6, 1, []int{3, 3}},
	} {
		got := chartBatches(tc.n, tc.procs)
		var sizes []int
		next := 0
		for _, b := range got {
			sizes = append(sizes, len(b))
			for _, i := range b {
				if i != next {
					t.Fatalf("chartBatches(%d, %d) = %v: chart %d where %d was due", tc.n, tc.procs, got, i, next)
				}
				next++
			}
		}
		if !slices.Equal(sizes, tc.sizes) || next != tc.n {
			t.Errorf("chartBatches(%d, %d): sizes %v, want %v", tc.n, tc.procs, sizes, tc.sizes)
		}
	}
}
