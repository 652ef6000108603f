package terraform

import (
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestParallelPanic checks that a panic in a worker of parallel reaches the caller
// (where the loader recovers it) after every other call has run, instead of ending
// the process from a goroutine.
func TestParallelPanic(t *testing.T) {
	prev := runtime.GOMAXPROCS(2)
	t.Cleanup(func() { runtime.GOMAXPROCS(prev) })
	done := make([]bool, 8)
	var got any
	func() {
		defer func() { got = recover() }()
		parallel(len(done), func(i int) {
			if i == 3 {
				panic("worker bug")
			}
			done[i] = true
		})
	}()
	if s, _ := got.(string); !strings.HasPrefix(s, "worker bug\n") {
		t.Fatalf("recovered %v, want the worker's panic with its stack", got)
	}
	if diff := cmp.Diff([]bool{true, true, true, false, true, true, true, true}, done); diff != "" {
		t.Errorf("calls run (-want +got):\n%s", diff)
	}
}
