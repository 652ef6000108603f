package worker

import (
	"syscall"
	"testing"
	"time"
)

// resetEarly forgets the early worker between tests, stopping it if no pool took it.
func resetEarly(t *testing.T) {
	t.Helper()
	ReleaseEarly()
	s := &earlyStart
	s.mu.Lock()
	done := s.done
	s.mu.Unlock()
	if done != nil {
		<-done
	}
	s.mu.Lock()
	s.memory, s.done, s.w, s.err, s.claimed = 0, nil, nil, nil, false
	s.mu.Unlock()
}

// earlyPid is the process of the early worker once started, or 0.
func earlyPid(t *testing.T) int {
	t.Helper()
	s := &earlyStart
	<-s.done
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		t.Fatalf("early worker: %v", s.err)
	}
	return s.w.cmd.Process.Pid
}

// TestStartEarly checks the worker begun before the run knows its pool: the first
// pool with its memory budget adopts it (one process, which serves the pool's calls),
// a pool with another budget stops it and starts its own, ReleaseEarly stops it, and
// a second StartEarly starts nothing.
func TestStartEarly(t *testing.T) {
	if NewPool(1, testBudget) == nil {
		t.Skip("workers are not supported here")
	}
	t.Run("adopted", func(t *testing.T) {
		defer resetEarly(t)
		before := Started()
		StartEarly(testBudget.Memory)
		StartEarly(testBudget.Memory) // once only
		pid := earlyPid(t)
		p := NewPool(1, testBudget)
		defer p.Close()
		p.Prestart(1)
		r, err := Call[typedResult](p, "test.typed", typedArg{Keys: []string{"a"}, N: 1}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.Pid != pid {
			t.Errorf("the call ran in worker %d, want the early worker %d", r.Pid, pid)
		}
		if n := Started() - before; n != 1 {
			t.Errorf("%d workers started, want 1 (the early one, adopted)", n)
		}
	})
	t.Run("other-budget", func(t *testing.T) {
		defer resetEarly(t)
		before := Started()
		StartEarly(testBudget.Memory / 2)
		pid := earlyPid(t)
		p := NewPool(1, testBudget)
		defer p.Close()
		p.Prestart(1)
		r, err := Call[typedResult](p, "test.typed", typedArg{N: 1}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.Pid == pid {
			t.Errorf("a pool with a budget of %d bytes used the worker started under %d", testBudget.Memory, testBudget.Memory/2)
		}
		if n := Started() - before; n != 2 {
			t.Errorf("%d workers started, want 2", n)
		}
		waitExited(t, pid)
	})
	t.Run("released", func(t *testing.T) {
		defer resetEarly(t)
		StartEarly(testBudget.Memory)
		pid := earlyPid(t)
		ReleaseEarly()
		waitExited(t, pid)
		p := NewPool(1, testBudget)
		defer p.Close()
		p.Prestart(1) // nothing left to adopt: starts its own
		r, err := Call[typedResult](p, "test.typed", typedArg{N: 1}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if r.Pid == pid {
			t.Errorf("the released worker %d served a call", pid)
		}
	})
}

// waitExited waits until the early worker's process is gone (stopped and reaped).
func waitExited(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if err := syscall.Kill(pid, 0); err == syscall.ESRCH {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the early worker %d still runs", pid)
}
