package load

import (
	"slices"
	"testing"
)

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
