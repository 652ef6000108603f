// Evaluating one policy or constraint over one graph, in this process or another.

package policy

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// runner evaluates one compiled query on the resources of a graph.
type runner struct {
	query  rego.PreparedEvalQuery
	budget time.Duration
	inv    *inventorySet // Gatekeeper's context, joined to data.inventory
	// isolate, when set, evaluates in another process: batch holds the modules and
	// the query's text, readsInv whether data.inventory must be sent.
	isolate  Isolate
	batch    Batch
	readsInv bool
}

// evalFailure makes the EvalError of a failure on r (Rule, File, At, Resource).
type evalFailure func(r *graph.Resource) *EvalError

// run evaluates the query on each resource of rs, whose input is input(w, r), and
// hands each result's bindings to emit, in order. A failure (a budget, a run-time
// error, an error emit returns) is recorded with pass.Fail and stops the run: the
// findings emitted so far are kept.
func (x *runner) run(pass *lint.Pass, rs []*graph.Resource, input func(*world, *graph.Resource) ast.Value,
	emit func(*graph.Resource, map[string]any) error, failure evalFailure) {
	if len(rs) == 0 {
		return
	}
	g := pass.Graph
	w := worldOf(g)
	timeout, cut := x.budget, false
	if !pass.Deadline.IsZero() {
		if left := time.Until(pass.Deadline); left < timeout {
			timeout, cut = max(left, 0), true
		}
	}
	// stopped records that a budget stopped the evaluation at r, or at one of the
	// more resources after it (a process stopped in the middle of a batch).
	stopped := func(r *graph.Resource, more int, memory int64, spent bool) {
		e := failure(r)
		switch {
		case more == 1:
			e.Resource += " or the resource after it"
		case more > 1:
			e.Resource += fmt.Sprintf(" or one of the %d resources after it", more)
		}
		switch {
		case memory > 0:
			e.Memory = memory
		case spent || cut:
			e.RunSpent = true
		default:
			e.Budget = x.budget
		}
		pass.Fail(e)
	}
	failed := func(r *graph.Resource, err error) {
		e := failure(r)
		e.Err = err
		pass.Fail(e)
	}
	if x.isolate != nil {
		died := func(r *graph.Resource, why string) {
			e := failure(r)
			e.Died = why
			pass.Fail(e)
		}
		x.runIsolated(w, g, rs, input, timeout, emit, stopped, failed, died)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	src := &graphSource{world: w, graph: g, inv: x.inv}
	txn := newEvalTxn(src)
	for _, r := range rs {
		src.resource = r
		res, err := x.query.Eval(ctx, rego.EvalTransaction(txn), rego.EvalParsedInput(input(w, r)))
		if ctx.Err() != nil {
			stopped(r, 0, 0, false)
			return
		}
		if err != nil {
			failed(r, err)
			return
		}
		if len(res) == 0 {
			continue
		}
		if err := emit(r, res[0].Bindings); err != nil {
			failed(r, err)
			return
		}
	}
}

// runIsolated is run in another process: the graph's resources go in one batch; when
// its process dies (out of memory, a crash) they are evaluated again one per batch up
// to the one at fault, so that the findings before it are kept and the failure names
// its resource, as in-process.
func (x *runner) runIsolated(w *world, g *graph.Graph, rs []*graph.Resource, input func(*world, *graph.Resource) ast.Value,
	timeout time.Duration, emit func(*graph.Resource, map[string]any) error,
	stopped func(*graph.Resource, int, int64, bool), failed func(*graph.Resource, error), died func(*graph.Resource, string)) {
	b := x.batch
	var err error
	if b.Provisioners, err = w.encoded(wireKey{doc: "provisioners"}, func() ast.Value { return w.provisioners(g) }); err == nil {
		b.Classes, err = w.encoded(wireKey{doc: "classes"}, func() ast.Value { return w.classes(g) })
	}
	if err == nil && x.readsInv {
		var set *inventorySet
		if x.inv != nil && len(x.inv.resources) > 0 {
			set = x.inv
		}
		b.Inventory, err = w.encoded(wireKey{doc: "inventory", set: set}, func() ast.Value { return w.inventoryWith(g, x.inv) })
	}
	b.Inputs = make([]BatchInput, len(rs))
	for i, r := range rs {
		if err != nil {
			break
		}
		if b.Inputs[i].Input, err = toWire(input(w, r)); err == nil {
			b.Inputs[i].Origin, err = toWire(w.origin(r))
		}
	}
	if err != nil {
		failed(rs[0], err)
		return
	}
	start := time.Now()
	// send evaluates the inputs from up to to, emits their results and records a
	// failure; done reports that every one of them finished, retry that the process
	// died on a batch of several, which are to be sent again one by one.
	send := func(from, to int, timeout time.Duration) (done, retry bool) {
		part := b
		part.Inputs, part.Timeout = b.Inputs[from:to], timeout
		v, err := x.isolate(part)
		var st *Stopped
		switch {
		case errors.As(err, &st) && st.Memory == 0 && (st.Time || st.RunSpent):
			stopped(rs[from], to-from-1, 0, st.RunSpent)
			return false, false
		case errors.As(err, &st):
			if to-from > 1 {
				return false, true
			}
			if st.Memory > 0 {
				stopped(rs[from], 0, st.Memory, false)
			} else {
				died(rs[from], st.Reason)
			}
			return false, false
		case err != nil:
			failed(rs[from], err)
			return false, false
		}
		for i, raw := range v.Results {
			if len(raw) == 0 { // no result (gob reads a nil slice as empty)
				continue
			}
			r := rs[from+i]
			bs, err := bindings(raw)
			if err == nil {
				err = emit(r, bs)
			}
			if err != nil {
				failed(r, err)
				return false, false
			}
		}
		at := from + len(v.Results)
		switch {
		case v.TimedOut && at < to:
			stopped(rs[at], 0, 0, false)
		case v.Bound != "" && at < to:
			died(rs[at], v.Bound)
		case v.Err != "" && at < to:
			failed(rs[at], errors.New(strings.TrimSpace(v.Err)))
		case at < to:
			failed(rs[at], errors.New("the policy's process answered for fewer resources than it was sent"))
		default:
			return true, false
		}
		return false, false
	}
	done, retry := send(0, len(rs), timeout)
	if done || !retry {
		return
	}
	for i := range rs {
		left := timeout - time.Since(start)
		if left <= 0 {
			stopped(rs[i], 0, 0, false)
			return
		}
		if done, _ := send(i, i+1, left); !done {
			return
		}
	}
}
