// Evaluating a user's policy or a Gatekeeper template in another process.

package policy

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/rego"
)

// Isolate evaluates a batch in another process (a worker under its own memory,
// CPU and time limits) and returns what Evaluate returned there. Its error is a
// *Stopped when that process was stopped or died, and any other error when it could
// not be asked. A user's policy or a Gatekeeper template is untrusted code: OPA's
// builtins allocate as they please (a huge bits.lsh, json.marshal of a generated
// value, concat of a doubled array), and Go cannot bound one goroutine's memory, so
// only a process boundary keeps such a policy from taking pvlint's own process down.
// pvlint's embedded policies are trusted and always run in-process.
type Isolate func(Batch) (Verdict, error)

// Batch is one policy's evaluation over the resources of one graph, as sent to
// another process: the Rego to compile, the query, the documents and the inputs,
// every value in the compact encoding of codec.go.
type Batch struct {
	// Modules are the policy set's modules (every module of the run's custom
	// policies, which may import each other), or a Gatekeeper template's Rego
	// ("rego") and libs ("libs/N").
	Modules []Module
	// Template is set for a Gatekeeper template, whose modules are all written in
	// Version ("v1", or Gatekeeper's default v0); a custom policy's modules are each
	// read as v1, then v0.
	Template bool
	Version  string
	// Query is the prepared query's text (policy.prepare, compileTemplate).
	Query string
	// Inventory is data.inventory, or nil when the policy never reads it
	// (readsInventory); Provisioners and Classes are data.pvlint's documents.
	Inventory, Provisioners, Classes []byte
	// Inputs are the resources to evaluate, in order.
	Inputs []BatchInput
	// Timeout bounds the whole batch's evaluation.
	Timeout time.Duration
}

// BatchInput is one resource of a Batch: input, and data.pvlint.resource.
type BatchInput struct {
	Input, Origin []byte
}

// Verdict is what Evaluate returns for a Batch: the result bindings of the inputs it
// evaluated, in order, each as JSON (small, and what OPA's results are) (nil when the query had no result). When it
// stopped early, Err is the run-time error of the input after the last result, or
// TimedOut says that the batch's Timeout ran out there.
type Verdict struct {
	Results  [][]byte
	Err      string
	TimedOut bool
	// Bound is set when a bound of pvlint's stopped the batch there: why.
	Bound string
}

// maxResults bounds the results of one batch, so that a policy cannot flood pvlint's
// own process with what it reports: real policies report a few KiB per resource.
const maxResults = 64 << 20

// Stopped is a batch whose process was stopped before it answered: Memory is set
// when it ran out of memory (the budget it had), Time when it ran out of time,
// RunSpent when the run's time budget stopped it; otherwise Reason says why the
// process died (nested too deeply, a crash).
type Stopped struct {
	Memory   int64
	Time     bool
	RunSpent bool
	Reason   string
}

func (s *Stopped) Error() string {
	switch {
	case s.Memory > 0:
		return fmt.Sprintf("exceeded the memory limit of %d MiB", s.Memory>>20)
	case s.Time:
		return "exceeded its time limit"
	case s.RunSpent:
		return "the run's time budget was spent"
	}
	return s.Reason
}

// prepared caches the queries a process compiled for Evaluate, by a digest of what
// was compiled: a worker serves the same policy for every world of a run.
var prepared = struct {
	sync.Mutex
	m map[[32]byte]rego.PreparedEvalQuery
}{m: map[[32]byte]rego.PreparedEvalQuery{}}

// maxPrepared bounds the cache; past it, it starts again.
const maxPrepared = 64

// Evaluate evaluates a batch in this process: it compiles the batch's modules
// against the same capabilities as Compile and Gatekeeper (no network, no file
// system, no process environment), evaluates the query on each input with the
// batch's documents as data, and returns each result set's bindings as JSON. It is
// what a worker process runs for Isolate; a module that does not compile is an error.
func Evaluate(b Batch) (Verdict, error) {
	q, err := prepareBatch(b)
	if err != nil {
		return Verdict{}, err
	}
	docs := staticDocs{inv: ast.NewObject()}
	if b.Inventory != nil {
		if docs.inv, err = lastInventory.read(b.Inventory); err != nil {
			return Verdict{}, err
		}
	}
	if docs.prov, err = fromWire(b.Provisioners); err == nil {
		docs.cls, err = fromWire(b.Classes)
	}
	if err != nil {
		return Verdict{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), b.Timeout)
	defer cancel()
	var v Verdict
	total := 0
	for _, in := range b.Inputs {
		input, err := fromWire(in.Input)
		if err != nil {
			return Verdict{}, err
		}
		origin, err := fromWire(in.Origin)
		if err != nil {
			return Verdict{}, err
		}
		txn := &evalTxn{id: txnIDs.Add(1), src: staticSource{staticDocs: &docs, org: origin}}
		rs, err := q.Eval(ctx, rego.EvalTransaction(txn), rego.EvalParsedInput(input))
		if ctx.Err() != nil {
			v.TimedOut = true
			return v, nil
		}
		if err != nil {
			v.Err = err.Error()
			return v, nil
		}
		if len(rs) == 0 {
			v.Results = append(v.Results, nil)
			continue
		}
		out, err := json.Marshal(rs[0].Bindings)
		if err != nil {
			v.Err = err.Error()
			return v, nil
		}
		if total += len(out); total > maxResults {
			v.Bound = fmt.Sprintf("its results exceed %d MiB", maxResults>>20)
			return v, nil
		}
		v.Results = append(v.Results, out)
	}
	return v, nil
}

// prepareBatch compiles a batch's modules and prepares its query, once per process.
func prepareBatch(b Batch) (rego.PreparedEvalQuery, error) {
	h := sha256.New()
	fmt.Fprintf(h, "%t\x00%s\x00%s\x00", b.Template, b.Version, b.Query)
	for _, m := range b.Modules {
		fmt.Fprintf(h, "%d\x00%s\x00%d\x00%s", len(m.Name), m.Name, len(m.Source), m.Source)
	}
	var key [32]byte
	h.Sum(key[:0])
	prepared.Lock()
	q, ok := prepared.m[key]
	prepared.Unlock()
	if ok {
		return q, nil
	}
	caps := capabilities()
	var parsed map[string]*ast.Module
	if b.Template {
		v := ast.RegoV0
		if b.Version == "v1" {
			v = ast.RegoV1
		}
		parsed = map[string]*ast.Module{}
		for _, m := range b.Modules {
			mod, err := ast.ParseModuleWithOpts(m.Name, m.Source, ast.ParserOptions{RegoVersion: v, Capabilities: caps})
			if err != nil {
				return q, compileError(m.Name, err)
			}
			parsed[m.Name] = mod
		}
	} else {
		var err error
		if parsed, _, err = parseAll(b.Modules, caps, true); err != nil {
			return q, err
		}
	}
	compiler := ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(false)
	if compiler.Compile(parsed); compiler.Failed() {
		return q, compileError("", compiler.Errors)
	}
	q, err := rego.New(
		rego.Compiler(compiler),
		rego.Capabilities(caps),
		rego.Store(newDocuments()),
		rego.Query(b.Query),
	).PrepareForEval(context.Background())
	if err != nil {
		return q, err
	}
	prepared.Lock()
	if len(prepared.m) >= maxPrepared {
		clear(prepared.m)
	}
	prepared.m[key] = q
	prepared.Unlock()
	return q, nil
}

// lastInventory is the inventory the last batch of this process carried, decoded:
// every policy and constraint of a world sends the same one, and decoding it is most
// of a batch's cost on a large graph.
var lastInventory decodedCache

type decodedCache struct {
	mu  sync.Mutex
	sum [32]byte
	v   ast.Value
}

// read decodes b, or returns what it decoded last when b is the same.
func (c *decodedCache) read(b []byte) (ast.Value, error) {
	sum := sha256.Sum256(b)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.v != nil && sum == c.sum {
		return c.v, nil
	}
	v, err := fromWire(b)
	if err != nil {
		return nil, err
	}
	c.sum, c.v = sum, v
	return v, nil
}

// fromWire reads a value a Batch carries (codec.go); nil is null.
func fromWire(b []byte) (ast.Value, error) {
	if b == nil {
		return ast.Null{}, nil
	}
	v, rest, err := decodeValue(b, 0)
	if err == nil && len(rest) > 0 {
		err = errors.New("trailing bytes after a value from the parent process")
	}
	return v, err
}

// toWire writes a value for a Batch.
func toWire(v ast.Value) ([]byte, error) { return encodeValue(nil, v) }

// bindings decodes one result of a Verdict into the bindings Eval would have
// returned in-process (numbers as json.Number, as OPA gives them).
func bindings(raw []byte) (map[string]any, error) {
	var out map[string]any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return nil, fmt.Errorf("undecodable result from the policy's process: %w", err)
	}
	return out, nil
}

// readsInventory reports whether any of the modules may read data.inventory: a
// reference to data.inventory, to data itself, or to data under a key that is not a
// constant. A policy that never does is sent without it (it can be the whole graph).
func readsInventory(mods map[string]*ast.Module) bool {
	found := false
	for _, m := range mods {
		ast.WalkRefs(m, func(r ast.Ref) bool {
			if found || !r.HasPrefix(ast.DefaultRootRef) {
				return found
			}
			if len(r) < 2 {
				found = true
				return true
			}
			s, ok := r[1].Value.(ast.String)
			found = !ok || string(s) == "inventory"
			return found
		})
	}
	return found
}
