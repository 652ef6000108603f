package heap

import (
	"bufio"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unsafe"
)

// After a reservation, objects the program allocates live in memory advised for huge
// pages: the mapping holding them carries the "hg" flag (proc(5), VmFlags).
func TestReserveAdvisesWhereObjectsLand(t *testing.T) {
	if !advisable() {
		t.Skip("transparent huge pages are not in madvise mode here")
	}
	reserve(64 << 20)
	var keep [][]byte
	for range 4096 { // 16 MiB in small objects, the way parsing allocates
		keep = append(keep, make([]byte, 4096))
	}
	last := uintptr(unsafe.Pointer(unsafe.SliceData(keep[len(keep)-1])))
	flags, ok := vmFlags(t, last)
	if !ok {
		t.Fatalf("no mapping holds %#x", last)
	}
	if !strings.Contains(" "+flags+" ", " hg ") {
		t.Errorf("the mapping holding a new object has VmFlags %q, want hg (MADV_HUGEPAGE)", flags)
	}
}

// vmFlags returns the VmFlags of the mapping of /proc/self/smaps that holds addr.
func vmFlags(t *testing.T, addr uintptr) (string, bool) {
	f, err := os.Open("/proc/self/smaps")
	if err != nil {
		t.Skipf("no smaps: %v", err)
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	in := false
	for s.Scan() {
		line := s.Text()
		if lo, hi, ok := mappingRange(line); ok {
			in = lo <= addr && addr < hi
			continue
		}
		if in && strings.HasPrefix(line, "VmFlags:") {
			return strings.TrimSpace(strings.TrimPrefix(line, "VmFlags:")), true
		}
	}
	return "", false
}

// mappingRange parses the "lo-hi perms ..." header line of a mapping.
func mappingRange(line string) (lo, hi uintptr, ok bool) {
	r, _, found := strings.Cut(line, " ")
	if !found {
		return 0, 0, false
	}
	a, b, found := strings.Cut(r, "-")
	if !found {
		return 0, 0, false
	}
	x, err1 := strconv.ParseUint(a, 16, 64)
	y, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(x), uintptr(y), true
}

func TestRoomFor(t *testing.T) {
	if got := roomFor(); got < 0 {
		t.Errorf("roomFor() = %d", got)
	}
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err == nil && lim.Cur == ^uint64(0) && roomFor() == 0 {
		if b, _ := os.ReadFile("/proc/sys/vm/overcommit_memory"); strings.TrimSpace(string(b)) != "2" {
			t.Errorf("roomFor() = 0 without an address-space limit or strict overcommit")
		}
	}
}
