package cli

import (
	"errors"
	"runtime"
	"sync"
	"time"

	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/parsers/worker"
	"github.com/pvlint/pvlint/rules/policy"
)

// policyHandler is the worker handler that evaluates a user's policy or a Gatekeeper
// template (policy.Evaluate).
const policyHandler = "policy"

func init() { worker.Register(policyHandler, policy.Evaluate) }

// DefaultPolicyMemory is the memory of a worker process that evaluates custom
// policies and Gatekeeper templates (--limit policy-memory): its data segment, some
// 80 MiB of which is pvlint's own before any evaluation, then the world's documents
// and the evaluation. Real policies need a few MiB.
const DefaultPolicyMemory = 512 << 20

// policyGrace is what a policy worker's call may take beyond the policy's time
// budget, which the worker keeps itself: the worker's start-up, the batch's decoding,
// a builtin that runs long between two checks of the budget.
const policyGrace = 10 * time.Second

// policyWorkers is the pool that evaluates a run's custom policies and Gatekeeper
// templates, started on their first evaluation: a run without any starts nothing,
// and pvlint's own policies always run in-process.
type policyWorkers struct {
	deadline time.Time
	run      int64 // --limit run-memory
	mu       sync.Mutex
	pool     *worker.Pool
}

// newPolicyWorkers returns the pool of one analysis, or nil when e evaluates in
// process (tests) or the system has no workers (then policies run in-process under
// their time budget only).
func (e *Env) newPolicyWorkers(c *Config) *policyWorkers {
	if !e.Isolate || !worker.Supported() {
		return nil
	}
	run := limitValue(c.Limits, "run-memory")
	if run <= 0 {
		run = load.DefaultBudgets.Run
	}
	return &policyWorkers{deadline: e.deadline, run: run}
}

// isolate is the policy.Isolate of policies whose worker has memory bytes (--limit
// policy-memory, DefaultPolicyMemory when zero); nil when pw is.
func (pw *policyWorkers) isolate(memory int64) policy.Isolate {
	if pw == nil {
		return nil
	}
	if memory <= 0 {
		memory = DefaultPolicyMemory
	}
	return func(b policy.Batch) (policy.Verdict, error) {
		p := pw.get(memory)
		v, err := worker.Call[policy.Verdict](p, policyHandler, b, b.Timeout+policyGrace)
		var ex *worker.Exceeded
		var ev *worker.EvalError
		switch {
		case errors.As(err, &ex):
			switch ex.Kind {
			case worker.OutOfMemory:
				return v, &policy.Stopped{Memory: memory}
			case worker.OutOfTime:
				return v, &policy.Stopped{Time: true}
			case worker.OutOfRunTime:
				return v, &policy.Stopped{RunSpent: true}
			}
			return v, &policy.Stopped{Reason: ex.Error()}
		case errors.As(err, &ev):
			return v, errors.New(ev.Msg)
		}
		return v, err
	}
}

// get returns the pool, created on the first call with the memory budget of its
// workers. As many run at once as processors, within --limit run-memory with room
// for pvlint's own process.
func (pw *policyWorkers) get(memory int64) *worker.Pool {
	pw.mu.Lock()
	defer pw.mu.Unlock()
	if pw.pool == nil {
		size := max(1, min(int(pw.run/memory)-1, runtime.GOMAXPROCS(0)))
		pw.pool = worker.NewPool(size, worker.Budget{Memory: memory, Wall: time.Minute})
		if !pw.deadline.IsZero() {
			pw.pool.SetDeadline(pw.deadline)
		}
	}
	return pw.pool
}

// close stops the pool's workers.
func (pw *policyWorkers) close() {
	if pw == nil {
		return
	}
	pw.mu.Lock()
	defer pw.mu.Unlock()
	if pw.pool != nil {
		pw.pool.Close()
		pw.pool = nil
	}
}
