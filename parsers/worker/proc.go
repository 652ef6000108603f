// One worker process: starting it under its budget, a call, and why it failed.

package worker

import (
	"bytes"
	"encoding/gob"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"time"
)

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
		// several cycles over it. Serve paces it (gcpace.Worker) before any evaluation.
		w.cmd.Env = append(w.cmd.Env, "GOGC=off", envGC+"=1")
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
