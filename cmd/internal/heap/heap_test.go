package heap

import "testing"

func TestSize(t *testing.T) {
	tests := []struct{ input, want int64 }{
		{0, 0},
		{1 << 20, 0}, // 8 MiB of heap: not worth a reservation
		{4 << 20, 32 << 20},
		{22 << 20, 176 << 20},
		{4 << 30, maxReserve},
	}
	for _, tt := range tests {
		if got := Size(tt.input); got != tt.want {
			t.Errorf("Size(%d) = %d, want %d", tt.input, got, tt.want)
		}
	}
}
