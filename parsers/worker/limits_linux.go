package worker

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"
)

const supported = true

// selfExe is the running binary, whatever its path or name: the one program pvlint
// ever starts.
const selfExe = "/proc/self/exe"

func setProcAttr(cmd *exec.Cmd) {
	// A worker dies with pvlint: nothing outlives the run.
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
}

// limitSelf applies a worker's memory budget: RLIMIT_DATA bounds every private
// writable mapping (the Go heap and goroutine stacks are such mappings), so an
// allocation past it fails and the runtime exits with "out of memory". The garbage
// collector is told the budget too, so that garbage does not count against it, and the
// stack limit is kept below it so a runaway recursion is reported as such.
func limitSelf(memory int64) error {
	if memory > 0 {
		limit := uint64(memory)
		if raceDetector {
			// The race detector's runtime maps some 300 MiB of its own before main
			// and more as it runs: the budget is on top of it, or every worker of a
			// -race test binary dies at its first allocation.
			limit += dataMapped()
		}
		lim := syscall.Rlimit{Cur: limit, Max: limit}
		if err := syscall.Setrlimit(syscall.RLIMIT_DATA, &lim); err != nil {
			return fmt.Errorf("cannot limit memory: %w", err)
		}
		debug.SetMemoryLimit(memory / 4 * 3)
		debug.SetMaxStack(int(min(memory/4, 256<<20)))
	}
	xcpu := make(chan os.Signal, 1)
	signal.Notify(xcpu, syscall.SIGXCPU)
	go func() {
		<-xcpu
		fmt.Fprintln(os.Stderr, cpuExceeded)
		os.Exit(3)
	}()
	return nil
}

// dataMapped is the process's data segment size (VmData: its private writable
// mappings), in bytes, or 0 when it cannot be read.
func dataMapped() uint64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for line := range strings.SplitSeq(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmData:"); ok {
			kb, err := strconv.ParseUint(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
			if err != nil {
				return 0
			}
			return kb << 10
		}
	}
	return 0
}

// limitCPU sets the worker's CPU limit to the time it has used so far plus budget:
// the kernel signals SIGXCPU when an evaluation spins past it.
func limitCPU(budget time.Duration) error {
	if budget <= 0 {
		return nil
	}
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return err
	}
	used := time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_CPU, &lim); err != nil {
		return err
	}
	secs := uint64((used+budget)/time.Second) + 1
	if lim.Max != ^uint64(0) && secs > lim.Max {
		secs = lim.Max
	}
	lim.Cur = secs
	return syscall.Setrlimit(syscall.RLIMIT_CPU, &lim)
}

// peakMemory is the most resident memory a finished worker held, in bytes.
func peakMemory(ps *os.ProcessState) int64 {
	if ps == nil {
		return 0
	}
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // kilobytes on Linux
	}
	return 0
}
