package load

import (
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadAll checks the sized read: whatever the size hint, it returns the content
// (one byte at a time too), and it stops after limit+1 bytes.
func TestReadAll(t *testing.T) {
	const text = "apiVersion: v1\nkind: ConfigMap\n"
	for _, size := range []int64{0, 5, int64(len(text)), 1000} {
		got, err := readAll(iotest.OneByteReader(strings.NewReader(text)), size, 1<<20)
		if err != nil || string(got) != text {
			t.Errorf("readAll(size %d) = %q, %v", size, got, err)
		}
	}
	got, err := readAll(strings.NewReader(text), int64(len(text)), 10)
	if err != nil || len(got) != 11 {
		t.Errorf("readAll over the limit read %d bytes (%v), want limit+1 = 11", len(got), err)
	}
	if _, err := readAll(iotest.ErrReader(iotest.ErrTimeout), 10, 100); err != iotest.ErrTimeout {
		t.Errorf("readAll error = %v, want the reader's", err)
	}
}
