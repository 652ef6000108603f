// Package worker runs untrusted evaluations (a Helm chart render, a Terraform module
// evaluation, a custom policy) in a child process: pvlint re-executes its own binary
// in worker mode, under a memory limit (RLIMIT_DATA), a CPU limit (RLIMIT_CPU) and a
// wall-clock timer kept by the parent. Go has no per-goroutine memory limit and a stack
// overflow is fatal, so only a process boundary keeps one hostile input from killing
// the run: a worker that dies or runs out of a budget costs that one evaluation, which
// the caller reports as a finding, and is replaced by a fresh one for the next.
//
// The protocol is a stream of gob-encoded frames on the worker's standard input and
// output: a request names a handler registered with Register and carries its argument
// as bytes; the response carries the handler's result. Handlers live in the packages
// that know the evaluation and register themselves from init, so that every binary
// that links them can serve them (cmd/pvlint, and test binaries through ServeIfWorker
// in TestMain).
package worker

import (
	"encoding/gob"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"sync"
	"time"
)

// envMode is the environment variable that starts a process in worker mode; its value
// is the memory budget in bytes and the CPU budget in seconds of one evaluation.
const envMode = "PVLINT_INTERNAL_WORKER"

// Handler evaluates one request in a worker: arg is the caller's encoded argument, the
// result is returned to it encoded. An error is the evaluation's, not the worker's.
type Handler func(arg []byte) ([]byte, error)

var (
	handlersMu sync.Mutex
	handlers   = map[string]Handler{}
)

// Register makes a handler available to workers under a name. It is called from init.
func Register(name string, h Handler) {
	handlersMu.Lock()
	defer handlersMu.Unlock()
	if _, dup := handlers[name]; dup {
		panic("worker: handler registered twice: " + name)
	}
	handlers[name] = h
}

func handler(name string) Handler {
	handlersMu.Lock()
	defer handlersMu.Unlock()
	return handlers[name]
}

// Names lists the registered handlers.
func Names() []string {
	handlersMu.Lock()
	defer handlersMu.Unlock()
	out := make([]string, 0, len(handlers))
	for n := range handlers {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

// request and response are the frames of the protocol.
type request struct {
	Handler string
	Arg     []byte
	// CPU is the evaluation's CPU budget; the worker sets its RLIMIT_CPU to what it
	// has used so far plus this.
	CPU time.Duration
}

type response struct {
	Result []byte
	Err    string
	// Retire is set when the evaluation left work running in the worker (a render
	// abandoned at its time limit): the worker exits after this response.
	Retire bool
}

// Budget bounds one evaluation.
type Budget struct {
	// Memory is the worker's data segment limit in bytes (heap and every other
	// private writable mapping).
	Memory int64
	// Wall bounds the time of one call; the parent kills the worker when it runs out.
	// CPU time is bounded by the same duration.
	Wall time.Duration
}

// Kind says which budget an evaluation ran out of, or that the worker died otherwise.
type Kind int

// The ways an evaluation can fail in a worker.
const (
	Crashed Kind = iota // the worker died without a reason pvlint recognises
	OutOfMemory
	OutOfTime
	OutOfStack
)

// Exceeded is a call whose worker died or ran out of a budget. The caller turns it into
// a finding at the input it was evaluating.
type Exceeded struct {
	Kind   Kind
	Budget Budget
	// Detail is the end of the worker's error output, for a crash.
	Detail string
}

func (e *Exceeded) Error() string {
	switch e.Kind {
	case OutOfMemory:
		return fmt.Sprintf("exceeded the memory limit of %d MiB", e.Budget.Memory>>20)
	case OutOfTime:
		return fmt.Sprintf("exceeded the time limit of %s", e.Budget.Wall)
	case OutOfStack:
		return "nested too deeply (the evaluation ran out of stack)"
	}
	if e.Detail != "" {
		return "stopped: the evaluation's process died: " + e.Detail
	}
	return "stopped: the evaluation's process died"
}

// EvalError is an error the handler returned: the evaluation failed, the worker is fine.
type EvalError struct{ Msg string }

func (e *EvalError) Error() string { return e.Msg }

// Requested reports whether this process was started as a worker.
func Requested() bool { return os.Getenv(envMode) != "" }

// ServeIfWorker serves requests and exits when this process was started as a worker;
// otherwise it returns at once. Test binaries call it first in TestMain so that the
// pool can start them as workers.
func ServeIfWorker() {
	if Requested() {
		os.Exit(Serve(os.Stdin, os.Stdout))
	}
}

// Serve is the worker's main loop: it applies the limits its environment names, then
// answers requests until its input closes. The return value is the process's exit code.
func Serve(in io.Reader, out io.Writer) int {
	var memory int64
	fmt.Sscanf(os.Getenv(envMode), "%d", &memory)
	if err := limitSelf(memory); err != nil {
		fmt.Fprintf(os.Stderr, "pvlint worker: %v\n", err)
		return 2
	}
	dec := gob.NewDecoder(in)
	enc := gob.NewEncoder(out)
	for {
		var req request
		if err := dec.Decode(&req); err != nil {
			if errors.Is(err, io.EOF) {
				return 0
			}
			fmt.Fprintf(os.Stderr, "pvlint worker: %v\n", err)
			return 2
		}
		if err := limitCPU(req.CPU); err != nil {
			fmt.Fprintf(os.Stderr, "pvlint worker: %v\n", err)
			return 2
		}
		resp := serveOne(req)
		if err := enc.Encode(&resp); err != nil {
			fmt.Fprintf(os.Stderr, "pvlint worker: %v\n", err)
			return 2
		}
		if resp.Retire {
			return 0
		}
	}
}

// retire is set by a handler (through Retire) during a request.
var retire bool

// Retire asks the worker to exit after answering the current request: the handler left
// work running that it could not stop.
func Retire() { retire = true }

func serveOne(req request) (resp response) {
	retire = false
	h := handler(req.Handler)
	if h == nil {
		return response{Err: "no worker handler " + req.Handler}
	}
	defer func() {
		if p := recover(); p != nil {
			resp = response{Err: fmt.Sprintf("internal error: %v", p), Retire: true}
		}
	}()
	res, err := h(req.Arg)
	resp = response{Result: res, Retire: retire}
	if err != nil {
		resp.Err = err.Error()
	}
	return resp
}
