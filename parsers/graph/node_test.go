package graph

import (
	"testing"
	"unsafe"
)

// TestPosSize keeps Pos at three int32 fields: every Node and every map key carries
// two positions, so a wider Pos costs tens of megabytes of heap on a large run.
func TestPosSize(t *testing.T) {
	if got := unsafe.Sizeof(Pos{}); got != 12 {
		t.Errorf("Pos is %d bytes, want 12", got)
	}
}
