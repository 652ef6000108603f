package worker

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"os/exec"
	"strings"
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

// proc is one worker process.
type proc struct {
	cmd    *exec.Cmd
	in     *os.File     // the worker's standard input, our end
	out    bytes.Buffer // a request being encoded, written to in once complete
	enc    *gob.Encoder // writes to out
	dec    *gob.Decoder
	stderr *tail
	exited chan struct{} // closed when the process has been waited for
	err    error         // the wait's result
}

func start(b Budget) (*proc, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	w := &proc{in: inW, stderr: &tail{max: 4096}, exited: make(chan struct{})}
	w.cmd = exec.Command(selfExe)
	w.cmd.Args = []string{os.Args[0]}
	w.cmd.Env = append(os.Environ(), fmt.Sprintf("%s=%d", envMode, b.Memory))
	if _, set := os.LookupEnv("GOGC"); !set {
		// No collection while the worker initialises its packages (a few MiB that all
		// stay live): the collector's pacing starts from a 4 MiB heap and would run
		// several cycles over it. Serve restores the default before any evaluation.
		w.cmd.Env = append(w.cmd.Env, "GOGC=off", envGC+"=100")
	}
	w.cmd.Stdin, w.cmd.Stdout, w.cmd.Stderr = inR, outW, w.stderr
	setProcAttr(w.cmd)
	if err := w.cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		outR.Close()
		outW.Close()
		return nil, fmt.Errorf("cannot start a worker process: %w", err)
	}
	started.Add(1)
	inR.Close()
	outW.Close()
	w.enc, w.dec = gob.NewEncoder(&w.out), gob.NewDecoder(outR)
	go func() {
		w.err = w.cmd.Wait()
		outR.Close()
		close(w.exited)
	}()
	// The worker is started once it says so: its start-up is the binary's package
	// initialisation, some 20 ms of CPU, and longer on a loaded machine.
	ready := make(chan error, 1)
	go func() {
		var h hello
		ready <- w.dec.Decode(&h)
	}()
	timer := time.NewTimer(startTimeout)
	defer timer.Stop()
	select {
	case err := <-ready:
		if err == nil {
			return w, nil
		}
		w.stop()
		why, _, _ := strings.Cut(strings.TrimSpace(w.stderr.String()), "\n")
		if why == "" && w.err != nil {
			why = w.err.Error()
		}
		return nil, fmt.Errorf("a worker process exited as it started: %s", why)
	case <-timer.C:
		w.kill()
		<-w.exited
		return nil, fmt.Errorf("a worker process did not start within %s", startTimeout)
	}
}

// startTimeout bounds a worker's start-up, which reads no input.
const startTimeout = 30 * time.Second

// call sends one request (its header, then arg) and decodes the reply into resp
// within wall. An error is an *Exceeded when the worker died or ran out of time, and
// otherwise a request that could not be encoded; either way the worker must be stopped.
func (w *proc) call(req request, arg, resp any, wall time.Duration, b Budget) error {
	// The request is encoded in full before any of it is written, so that an argument
	// gob cannot encode leaves the worker waiting for a request, not for half of one.
	w.out.Reset()
	if err := w.enc.Encode(&req); err != nil {
		return fmt.Errorf("cannot encode a worker request: %w", err)
	}
	if err := w.enc.Encode(arg); err != nil {
		return fmt.Errorf("cannot encode a worker request: %w", err)
	}
	done := make(chan error, 1)
	go func() {
		_, err := w.out.WriteTo(w.in)
		if err == nil {
			err = w.dec.Decode(resp)
		}
		done <- err
	}()
	timer := time.NewTimer(wall)
	defer timer.Stop()
	select {
	case err := <-done:
		if err == nil {
			return nil
		}
		// The worker died: wait for its exit to read why.
		select {
		case <-w.exited:
		case <-time.After(5 * time.Second):
			w.kill()
			<-w.exited
		}
		return w.cause(b)
	case <-timer.C:
		w.kill()
		<-w.exited
		return &Exceeded{Kind: OutOfTime, Budget: Budget{Memory: b.Memory, Wall: wall}}
	}
}

// cause tells why a worker died from its error output and its peak memory.
func (w *proc) cause(b Budget) *Exceeded {
	e := classify(w.stderr.String(), peakMemory(w.cmd.ProcessState), b)
	if e.Detail == "" && e.Kind == Crashed && w.err != nil {
		e.Detail = w.err.Error()
	}
	return e
}

// classify tells why a worker died from the start of its error output and the most
// memory it held.
func classify(text string, peak int64, b Budget) *Exceeded {
	switch {
	case strings.Contains(text, "out of memory"), strings.Contains(text, "cannot allocate memory"),
		// The race detector's runtime (a -race build) mapping its shadow of new memory.
		strings.Contains(text, "ThreadSanitizer failed to allocate"):
		return &Exceeded{Kind: OutOfMemory, Budget: b}
	case strings.Contains(text, "stack exceeds"), strings.Contains(text, "stack overflow"):
		return &Exceeded{Kind: OutOfStack, Budget: b}
	case strings.Contains(text, cpuExceeded):
		return &Exceeded{Kind: OutOfTime, Budget: b}
	case b.Memory > 0 && (runtimeFault(text) || peak >= b.Memory/2):
		// At its memory limit the runtime does not always get to say so: a mapping
		// the kernel refuses inside the runtime (the collector's own work queues)
		// ends as a fault in runtime code, and the kernel's OOM killer leaves no
		// message. A fault raised by the runtime itself, or a death while holding at
		// least half the budget (the collector keeps the heap under three quarters
		// of it), is the memory limit.
		return &Exceeded{Kind: OutOfMemory, Budget: b}
	}
	detail := strings.TrimSpace(text)
	if i := strings.IndexByte(detail, '\n'); i >= 0 {
		detail = detail[:i]
	}
	return &Exceeded{Kind: Crashed, Budget: b, Detail: detail}
}

// runtimeFault reports whether a Go runtime's crash output is a memory fault in the
// runtime's own code. Go code's faults are panics ("panic: runtime error: invalid
// memory address"), which a worker recovers; a report that starts with the signal's
// name is a fault outside Go code, and a signal code other than 0 (SI_USER) means the
// kernel raised it, not a kill(2).
func runtimeFault(text string) bool {
	if !strings.HasPrefix(text, "SIGSEGV: ") && !strings.HasPrefix(text, "SIGBUS: ") &&
		!strings.HasPrefix(text, "fatal error: unexpected signal during runtime execution") {
		return false
	}
	// "PC=0x43367d m=6 sigcode=1" after a bare signal report, "[signal SIGSEGV:
	// segmentation violation code=0x1 addr=0x0 pc=0x43367d]" after a fatal error.
	_, after, ok := strings.Cut(text, "sigcode=")
	if !ok {
		if _, after, ok = strings.Cut(text, " code="); !ok {
			return false
		}
	}
	code, _, _ := strings.Cut(after, " ")
	return code != "" && code != "0" && code != "0x0"
}

// cpuExceeded is what a worker writes before exiting on SIGXCPU.
const cpuExceeded = "pvlint worker: CPU time limit exceeded"

func (w *proc) kill() {
	if w.cmd.Process != nil {
		_ = w.cmd.Process.Kill()
	}
}

// stop discards a worker that failed or retired.
func (w *proc) stop() {
	w.in.Close()
	select {
	case <-w.exited:
	case <-time.After(2 * time.Second):
		w.kill()
		<-w.exited
	}
}

// close ends an idle worker: it exits when its input closes.
func (w *proc) close() { w.stop() }

// tail keeps the first bytes a worker writes to its error output (a Go runtime's
// fatal error starts with its reason).
type tail struct {
	mu  sync.Mutex
	buf bytes.Buffer
	max int
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if room := t.max - t.buf.Len(); room > 0 {
		t.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.buf.String()
}
