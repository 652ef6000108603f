package worker

import (
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"runtime/debug"
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
		lim := syscall.Rlimit{Cur: uint64(memory), Max: uint64(memory)}
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
