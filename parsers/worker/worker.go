// Package worker runs untrusted evaluations (a Helm chart render, a Terraform module
// evaluation, a custom policy) in a child process: pvlint re-executes its own binary
// in worker mode, under a memory limit (RLIMIT_DATA), a CPU limit (RLIMIT_CPU) and a
// wall-clock timer kept by the parent. Go has no per-goroutine memory limit and a stack
// overflow is fatal, so only a process boundary keeps one hostile input from killing
// the run: a worker that dies or runs out of a budget costs that one evaluation, which
// the caller reports as a finding, and is replaced by a fresh one for the next.
//
// The protocol is one long-lived gob stream in each direction on the worker's standard
// input and output. A worker says it is ready with a first value (hello), once its
// packages are initialised and its limits applied. A request is two values: a header naming a handler registered
// with Register (and the call's CPU budget), then the argument, of the handler's own
// type; the response is one value, the handler's result in a reply of its type. Gob
// sends a type's description once per stream and both ends compile it once, so a call
// costs the encoding of its values only, whatever their types. Handlers are registered
// from init by the packages that know the evaluation (parsers/load for charts and
// Terraform; cmd/internal/cli for policies, since rules/policy imports no parser), so
// that every binary that links them can serve them (cmd/pvlint, and test binaries
// through ServeIfWorker in TestMain). A worker's collector follows pvlint's memory
// policy (package gcpace).
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

	"github.com/pvlint/pvlint/parsers/gcpace"
)

// envMode is the environment variable that starts a process in worker mode; its value
// is the memory budget in bytes and the CPU budget in seconds of one evaluation.
const envMode = "PVLINT_INTERNAL_WORKER"

// envGC is set when the pool started the worker with the collector off (GOGC=off, so
// that package initialisation runs no cycles): the worker paces its collector by
// pvlint's memory policy once initialised (gcpace.Worker).
const envGC = "PVLINT_INTERNAL_WORKER_GOGC"

// handler serves one request in a worker: it decodes the argument that follows the
// request's header on the input and encodes its reply on the output. It returns an
// error when the streams can no longer be used, and then the worker exits.
type handler func(dec *gob.Decoder, enc *gob.Encoder) error

var (
	handlersMu sync.Mutex
	handlers   = map[string]handler{}
)

// Register makes a handler available to workers under a name: h evaluates an argument
// of type A into a result of type R, both encodable by gob, and Call is given the same
// types. It is called from init. An error h returns is the evaluation's, not the
// worker's, and reaches the caller as an *EvalError.
func Register[A, R any](name string, h func(A) (R, error)) {
	handlersMu.Lock()
	defer handlersMu.Unlock()
	if _, dup := handlers[name]; dup {
		panic("worker: handler registered twice: " + name)
	}
	handlers[name] = func(dec *gob.Decoder, enc *gob.Encoder) error {
		var arg A
		if err := dec.Decode(&arg); err != nil {
			// The input is out of step: answer, then exit.
			return retireWith(enc, reply[R]{Err: "undecodable worker argument: " + err.Error(), Retire: true})
		}
		resp := run(h, arg)
		if err := enc.Encode(&resp); err != nil {
			// Gob writes a value only once it is fully encoded: the output holds at
			// most the description of its type, which the parent's decoder records,
			// and the failure is answered in its place.
			return retireWith(enc, reply[R]{Err: "unencodable worker result: " + err.Error(), Retire: true})
		}
		return nil
	}
}

// run calls a handler, turning a panic into an error that retires the worker.
func run[A, R any](h func(A) (R, error), arg A) (resp reply[R]) {
	retire = false
	defer func() {
		if p := recover(); p != nil {
			retire = true
			resp = reply[R]{Err: fmt.Sprintf("internal error: %v", p), Retire: true}
		}
	}()
	res, err := h(arg)
	if err != nil {
		return reply[R]{Err: err.Error(), Retire: retire}
	}
	return reply[R]{Result: res, Retire: retire}
}

// errRetired ends a worker whose streams are out of step after it answered.
var errRetired = errors.New("retired")

// retireWith sends a last reply and ends the worker.
func retireWith[R any](enc *gob.Encoder, r reply[R]) error {
	if err := enc.Encode(&r); err != nil {
		return err
	}
	return errRetired
}

func lookup(name string) handler {
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

// request is the header of a call; the handler's argument follows it on the stream.
type request struct {
	Handler string
	// CPU is the evaluation's CPU budget; the worker sets its RLIMIT_CPU to what it
	// has used so far plus this.
	CPU time.Duration
}

// reply is a handler's answer: its result, or its error.
type reply[R any] struct {
	Result R
	Err    string
	// Retire is set when the evaluation left work running in the worker (a render
	// abandoned at its time limit) or the streams are out of step: the worker exits
	// after this reply.
	Retire bool
}

// hello is the first value a worker sends, once initialised: the pool counts a worker
// as starting until then, so that calls waiting for its start-up do not take it for
// a busy one and start more.
type hello struct{ PID int }

// refusal is a reply without a result, for a request whose handler (and so its
// result's type) is unknown; gob decodes it into any reply by field name.
type refusal struct {
	Err    string
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

// DefaultBudget fits a hosted CI runner (7 GiB of memory, 2 to 4 processors): a
// chart render or a Terraform evaluation gets 1 GiB and two minutes.
var DefaultBudget = Budget{Memory: 1 << 30, Wall: 2 * time.Minute}

// Kind says which budget an evaluation ran out of, or that the worker died otherwise.
type Kind int

// The ways an evaluation can fail in a worker.
const (
	Crashed Kind = iota // the worker died without a reason pvlint recognises
	OutOfMemory
	OutOfTime
	OutOfStack
	// OutOfRunTime is a call the run's own deadline (Pool.SetDeadline) stopped or
	// never started.
	OutOfRunTime
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
	case OutOfRunTime:
		return "not finished: the run's time budget was spent"
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
	if os.Getenv(envGC) != "" {
		gcpace.Worker()
	}
	dec := gob.NewDecoder(in)
	enc := gob.NewEncoder(out)
	if err := enc.Encode(&hello{PID: os.Getpid()}); err != nil {
		fmt.Fprintf(os.Stderr, "pvlint worker: %v\n", err)
		return 2
	}
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
		h := lookup(req.Handler)
		if h == nil {
			// The argument that follows cannot be read without its handler's type.
			if err := enc.Encode(&refusal{Err: "no worker handler " + req.Handler, Retire: true}); err != nil {
				fmt.Fprintf(os.Stderr, "pvlint worker: %v\n", err)
				return 2
			}
			return 0
		}
		if err := h(dec, enc); err != nil {
			if err == errRetired {
				return 0
			}
			fmt.Fprintf(os.Stderr, "pvlint worker: %v\n", err)
			return 2
		}
		if retire {
			return 0
		}
	}
}

// retire is set by a handler (through Retire) during a request.
var retire bool

// Retire asks the worker to exit after answering the current request: the handler left
// work running that it could not stop.
func Retire() { retire = true }
