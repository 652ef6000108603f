package worker

import (
	"sync"
	"sync/atomic"
	"time"
)

// Pool is a small set of worker processes reused across evaluations. Workers start
// on the first call, so a run with nothing to evaluate starts none; one that dies or
// runs out of a budget is discarded and the next call starts a fresh one.
type Pool struct {
	budget  Budget
	slots   chan struct{} // one per worker that may run at once
	mu      sync.Mutex
	ready   *sync.Cond // signalled when a worker is put back or a prestart ends
	idle    []*proc
	pending int // workers Prestart is starting
	live    int // workers started and not stopped
	closed  bool
	// deadline, when set, ends every call by then: the run's time budget
	// (SetDeadline).
	deadline time.Time
}

// SetDeadline makes every later call end by t, whatever its own wall-clock budget: a
// call that would start after t fails at once, and one that runs past t is stopped,
// both with an *Exceeded of kind OutOfRunTime. Call it before the pool is used.
func (p *Pool) SetDeadline(t time.Time) { p.deadline = t }

// growAfter is how long a call waits for a busy worker before starting another one.
// A worker's start-up (the binary's initialisation, some 15 ms of CPU, most of it the
// package initialisation of Helm's dependencies, then the first evaluations' warm-up)
// costs more than rendering a small chart: a run of small charts is served best by
// one worker, whose calls never wait this long, and a run of slow charts (or one
// hostile chart holding a worker until its budget runs out) gets one worker per
// processor after this delay, which is short beside such an evaluation.
const growAfter = 100 * time.Millisecond

// started counts the worker processes started by every pool of this process.
var started atomic.Int64

// Started is how many worker processes this process has started: tests use it to
// check that a run with nothing to evaluate starts none.
func Started() int64 { return started.Load() }

// Supported reports whether this system runs workers (Linux); NewPool returns nil
// where it does not.
func Supported() bool { return supported }

// NewPool returns a pool of at most size workers, each under budget. It returns nil
// where workers are not supported (not Linux); callers then evaluate in-process.
func NewPool(size int, budget Budget) *Pool {
	if !supported {
		return nil
	}
	if size < 1 {
		size = 1
	}
	p := &Pool{budget: budget, slots: make(chan struct{}, size)}
	p.ready = sync.NewCond(&p.mu)
	return p
}

// Prestart starts up to n workers in the background, so that their start-up (the
// binary's initialisation) overlaps the caller's own work instead of delaying the
// first evaluations. Call it only when there is something to evaluate. The first
// worker is the one StartEarly began, when it was and its memory budget is the
// pool's.
func (p *Pool) Prestart(n int) {
	n = min(n, cap(p.slots))
	p.mu.Lock()
	p.pending += n
	p.mu.Unlock()
	var adopted func() (*proc, error)
	if n > 0 {
		adopted = adoptEarly(p.budget.Memory)
	}
	for i := 0; i < n; i++ {
		go func() {
			var w *proc
			var err error
			if i == 0 && adopted != nil {
				w, err = adopted()
			} else {
				w, err = start(p.budget)
			}
			p.mu.Lock()
			p.pending--
			if err == nil {
				p.live++
			}
			p.mu.Unlock()
			if err != nil {
				p.ready.Broadcast() // the caller waiting for it starts its own
				return
			}
			p.put(w)
			p.ready.Broadcast() // every waiting call counts its wait from now
		}()
	}
}

// Budget is the budget of each evaluation in the pool.
func (p *Pool) Budget() Budget { return p.budget }

// Call evaluates arg with the handler registered under name in one of p's workers,
// whose result has type R. wall bounds this call (the pool's Budget.Wall when zero).
// The error is an *Exceeded when the worker died or ran out of a budget, an
// *EvalError when the handler failed, and otherwise a failure to start or talk to a
// worker.
func Call[R, A any](p *Pool, name string, arg A, wall time.Duration) (R, error) {
	var resp reply[R]
	if wall <= 0 {
		wall = p.budget.Wall
	}
	p.slots <- struct{}{}
	defer func() { <-p.slots }()
	// The run's deadline is measured once a slot is free: a call that waited for a
	// busy worker has only what is left of the run.
	cut := false
	if !p.deadline.IsZero() {
		left := time.Until(p.deadline)
		if left <= 0 {
			return resp.Result, &Exceeded{Kind: OutOfRunTime, Budget: p.budget}
		}
		if left < wall {
			wall, cut = left, true
		}
	}
	w, err := p.take()
	if err != nil {
		return resp.Result, err
	}
	err = w.call(request{Handler: name, CPU: wall}, &arg, &resp, wall, p.budget)
	if ex, ok := err.(*Exceeded); ok && cut && ex.Kind == OutOfTime {
		ex.Kind = OutOfRunTime
	}
	if err != nil || resp.Retire {
		p.mu.Lock()
		p.live--
		p.mu.Unlock()
		w.stop()
		if err != nil {
			return resp.Result, err
		}
	} else {
		p.put(w)
	}
	if resp.Err != "" {
		return resp.Result, &EvalError{Msg: resp.Err}
	}
	return resp.Result, nil
}

// Close stops the idle workers. Calls after Close start workers that are stopped when
// they return.
func (p *Pool) Close() {
	p.mu.Lock()
	idle := p.idle
	p.idle, p.closed = nil, true
	p.mu.Unlock()
	for _, w := range idle {
		w.close()
	}
}

func (p *Pool) take() (*proc, error) {
	p.mu.Lock()
	grow := time.Now().Add(growAfter)
	var timer *time.Timer
	starting := false // a prestart was under way when this call last looked
	for len(p.idle) == 0 {
		if p.pending > 0 || starting {
			// Waiting for a worker's start-up is not waiting for a busy worker: a
			// new one would have to start up too. On a loaded machine a start-up
			// can take longer than growAfter, and every call queued behind the
			// prestarted worker would start one of its own. The wait counts from
			// the end of the last prestart.
			grow = time.Now().Add(growAfter)
		} else if p.live == 0 || !time.Now().Before(grow) {
			break
		}
		starting = p.pending > 0
		if timer == nil {
			timer = time.AfterFunc(time.Until(grow), func() {
				p.mu.Lock()
				defer p.mu.Unlock()
				p.ready.Broadcast()
			})
		} else {
			timer.Reset(time.Until(grow))
		}
		p.ready.Wait() // a busy or prestarted worker may come free first
	}
	if timer != nil {
		timer.Stop()
	}
	if n := len(p.idle); n > 0 {
		w := p.idle[n-1]
		p.idle = p.idle[:n-1]
		p.mu.Unlock()
		return w, nil
	}
	p.live++
	p.mu.Unlock()
	w, err := start(p.budget)
	if err != nil {
		p.mu.Lock()
		p.live--
		p.mu.Unlock()
		p.ready.Broadcast()
	}
	return w, err
}

func (p *Pool) put(w *proc) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		go w.close()
		return
	}
	p.idle = append(p.idle, w)
	p.ready.Signal()
}
