// The worker started while pvlint initialises, which a pool with the same budget adopts.

package worker

import (
	"sync"
)

// earlyStart is the worker StartEarly began: done is closed when its start-up ended,
// with w or err set; claimed once a pool adopted it or ReleaseEarly stopped it.
var earlyStart struct {
	mu      sync.Mutex
	memory  int64
	done    chan struct{}
	w       *proc
	err     error
	claimed bool
}

// StartEarly starts one worker under memory in the background, before the program
// knows for certain that it will evaluate anything: a worker's start-up is the
// binary's package initialisation, some 17 ms of CPU, and begun while the program's
// own initialisation runs it is over by the time the first chart is read, on a
// machine with a processor to spare. The first pool whose workers have that memory
// budget adopts it (Prestart); ReleaseEarly stops it when no pool will. A worker
// process itself, and a system without workers, starts nothing; so does a second
// call.
func StartEarly(memory int64) {
	if !supported || Requested() {
		return
	}
	s := &earlyStart
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done != nil {
		return
	}
	s.memory, s.done = memory, make(chan struct{})
	go func() {
		w, err := start(Budget{Memory: memory})
		s.mu.Lock()
		s.w, s.err = w, err
		s.mu.Unlock()
		close(s.done)
	}()
}

// adoptEarly claims the early worker for a pool whose workers have memory and returns
// the function that waits for its start-up, or nil when there is none to claim. An
// early worker with another memory budget is of no use to the run and is stopped.
func adoptEarly(memory int64) func() (*proc, error) {
	s := &earlyStart
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done == nil || s.claimed {
		return nil
	}
	s.claimed = true
	if s.memory != memory {
		go stopEarly()
		return nil
	}
	return func() (*proc, error) {
		<-s.done
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.w, s.err
	}
}

// ReleaseEarly stops the early worker unless a pool adopted it: the run found nothing
// to evaluate after all.
func ReleaseEarly() {
	s := &earlyStart
	s.mu.Lock()
	if s.done == nil || s.claimed {
		s.mu.Unlock()
		return
	}
	s.claimed = true
	s.mu.Unlock()
	go stopEarly()
}

// stopEarly waits for the early worker's start-up and stops it.
func stopEarly() {
	s := &earlyStart
	<-s.done
	s.mu.Lock()
	w := s.w
	s.w = nil
	s.mu.Unlock()
	if w != nil {
		w.close()
	}
}
