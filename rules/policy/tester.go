package policy

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
	"github.com/open-policy-agent/opa/v1/storage/inmem"
	"github.com/open-policy-agent/opa/v1/tester"
	"github.com/open-policy-agent/opa/v1/topdown"

	"github.com/pvlint/pvlint/parsers/graph"
)

// TestResult is the outcome of one Rego test rule (test_*), as `opa test` reports it.
type TestResult struct {
	// File and Line are where the test rule is written.
	File string
	Line int
	// Name is the test's full name, data.<package>.test_<name>.
	Name string
	// Fail is set when the test ran and its body was false or undefined.
	Fail bool
	// Err is set when the test could not finish: a run-time error, or its time budget
	// ran out.
	Err error
	// Skip is set for tests named todo_test_*, which OPA skips.
	Skip bool
	// Output is what the test printed with print().
	Output string
}

// Pass reports whether the test ran and succeeded.
func (r TestResult) Pass() bool { return !r.Fail && !r.Skip && r.Err == nil }

// Test runs the test rules of modules (policies, libraries and *_test.rego files
// together) with OPA's test runner, as `opa test` and `conftest verify` would, under
// the conditions of linting: the same Rego dialects per file (v1, or v0 for a user's
// policy), no network or runtime builtins, and data.pvlint.provisioners holding
// pvlint's provisioner table. data.inventory and data.pvlint.resource are undefined;
// tests give them with `with data.inventory as {...}`. Each test may run for timeout.
// A module that does not compile is a *CompileError. Results are in file and line
// order.
func Test(modules []Module, timeout time.Duration) ([]TestResult, error) {
	caps := capabilities()
	parsed, _, err := parseAll(modules, caps, true)
	if err != nil {
		return nil, err
	}
	empty := graph.New(nil, graph.Options{})
	prov := worldOf(empty).provisioners(empty)
	data, err := ast.JSON(ast.NewObject([2]*ast.Term{ast.StringTerm("pvlint"), ast.ObjectTerm(
		[2]*ast.Term{ast.StringTerm("provisioners"), ast.NewTerm(prov)},
	)}))
	if err != nil {
		return nil, err
	}
	compiler := ast.NewCompiler().WithCapabilities(caps).WithEnablePrintStatements(true)
	ch, err := tester.NewRunner().
		SetCompiler(compiler).
		SetStore(inmem.NewFromObject(data.(map[string]any))).
		SetTimeout(timeout).
		CapturePrintOutput(true).
		SetModules(parsed).
		RunTests(context.Background(), nil)
	if err != nil {
		return nil, compileError("", err)
	}
	var out []TestResult
	for r := range ch {
		tr := TestResult{Name: r.Package + "." + r.Name, Fail: r.Fail, Err: r.Error, Skip: r.Skip, Output: string(r.Output)}
		if topdown.IsCancel(r.Error) {
			tr.Err = fmt.Errorf("exceeded its time budget of %s", timeout)
		}
		if r.Location != nil {
			tr.File, tr.Line = r.Location.File, r.Location.Row
		}
		out = append(out, tr)
	}
	slices.SortFunc(out, func(a, b TestResult) int {
		return cmp.Or(cmp.Compare(a.File, b.File), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Name, b.Name))
	})
	return out, nil
}
