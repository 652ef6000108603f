package heap

import (
	"os"
	"runtime"
	"slices"
	"strings"
	"sync"
	"syscall"
	"unsafe"
)

const (
	hugePage = 2 << 20
	chunk    = 4 << 20 // the runtime's unit of heap growth: each chunk is fresh memory
)

var once sync.Once

// hugePages prepares the heap for about input bytes of manifests, once per process. It
// does nothing when the kernel serves huge pages to every mapping already ("always"),
// never ("never"), or GODEBUG=disablethp=1 asks the runtime not to use them.
func hugePages(input int64) {
	n := reservation(input)
	if n == 0 {
		return
	}
	once.Do(func() {
		if !advisable() {
			return
		}
		if n = min(n, roomFor()); n >= minReserve {
			reserve(n)
		}
	})
}

// room is the most heap Prepare lets build up before the first collection: what a
// reservation may map (roomFor), for the same reasons.
func room() uint64 { return uint64(max(roomFor(), 0)) }

// roomFor is the most address space a reservation may map without risking the
// runtime's "out of memory" when it maps more: none under an address-space limit
// (ulimit -v) or strict overcommit accounting, where mapped memory counts whether
// touched or not, and otherwise half the machine's memory.
func roomFor() int64 {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_AS, &lim); err != nil || lim.Cur != ^uint64(0) {
		return 0
	}
	if b, err := os.ReadFile("/proc/sys/vm/overcommit_memory"); err != nil || strings.TrimSpace(string(b)) == "2" {
		return 0
	}
	var info syscall.Sysinfo_t
	if err := syscall.Sysinfo(&info); err != nil {
		return 0
	}
	return int64(info.Totalram) * int64(info.Unit) / 2
}

// advisable reports whether madvise(MADV_HUGEPAGE) changes anything here: the kernel's
// transparent huge page mode is "madvise" and the runtime is not told to avoid them.
func advisable() bool {
	b, err := os.ReadFile("/sys/kernel/mm/transparent_hugepage/enabled")
	if err != nil || !strings.Contains(string(b), "[madvise]") {
		return false
	}
	return !strings.Contains(os.Getenv("GODEBUG"), "disablethp=1")
}

// reserve has the runtime map n bytes of heap in chunks (a chunk is zeroed, that is
// touched, only when it reuses freed memory, so no chunk costs more than it spans),
// advises huge pages over the runs of adjacent chunks, and frees them: the runtime
// allocates from the lowest free addresses, so the run's objects land there.
func reserve(n int64) {
	chunks := make([][]byte, 0, n/chunk)
	addrs := make([]uintptr, 0, n/chunk)
	for range n / chunk {
		c := make([]byte, chunk)
		chunks = append(chunks, c)
		addrs = append(addrs, uintptr(unsafe.Pointer(unsafe.SliceData(c))))
	}
	slices.Sort(addrs)
	// The addresses stay integers: the chunks are alive until after the calls.
	for i := 0; i < len(addrs); {
		j := i + 1
		for j < len(addrs) && addrs[j] == addrs[j-1]+chunk {
			j++
		}
		advise(addrs[i], addrs[j-1]+chunk)
		i = j
	}
	runtime.KeepAlive(chunks)
	clear(chunks)
	runtime.GC()
}

// advise asks for huge pages over the whole huge pages within [lo, hi).
func advise(lo, hi uintptr) {
	from := (lo + hugePage - 1) &^ (hugePage - 1)
	to := hi &^ (hugePage - 1)
	if from < to {
		_, _, _ = syscall.Syscall(syscall.SYS_MADVISE, from, to-from, madvHugepage)
	}
}

// madvHugepage is MADV_HUGEPAGE (asm-generic/mman-common.h).
const madvHugepage = 14
