package policy

import (
	"bytes"
	"encoding/gob"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/open-policy-agent/opa/v1/ast"
)

// testIsolate is the Isolate the tests' helpers (compileCustom, runGatekeeper) give
// policies: nil runs them in-process; TestIsolated sets it to isolateByGob.
var testIsolate Isolate

// isolateByGob is Evaluate behind the encoding a worker's stream applies (gob), as
// another process would run it.
func isolateByGob(b Batch) (Verdict, error) {
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(&b); err != nil {
		return Verdict{}, err
	}
	var sent Batch
	if err := gob.NewDecoder(&buf).Decode(&sent); err != nil {
		return Verdict{}, err
	}
	v, err := Evaluate(sent)
	if err != nil {
		return Verdict{}, err
	}
	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode(&v); err != nil {
		return Verdict{}, err
	}
	var back Verdict
	err = gob.NewDecoder(&buf).Decode(&back)
	return back, err
}

// TestIsolated runs the tests of custom policies and Gatekeeper templates again with
// every evaluation sent through Evaluate as a worker would run it: the documents,
// inputs and results cross the boundary unchanged (inventory, with, resource
// document, unknown paths, Gatekeeper's review and context), and time budgets and
// run-time errors come back as in-process.
func TestIsolated(t *testing.T) {
	testIsolate = isolateByGob
	defer func() { testIsolate = nil }()
	for name, test := range map[string]func(*testing.T){
		"ConftestPoliciesWorkUnchanged":          TestConftestPoliciesWorkUnchanged,
		"ResourceDocument":                       TestResourceDocument,
		"UnknownPaths":                           TestUnknownPaths,
		"WithKeywordAndInventory":                TestWithKeywordAndInventory,
		"EvalErrors":                             TestEvalErrors,
		"CustomFindingsHaveDistinctFingerprints": TestCustomFindingsHaveDistinctFingerprints,
		"ContextInInventoryNotInput":             TestContextInInventoryNotInput,
		"GatekeeperMatch":                        TestGatekeeperMatch,
		"GatekeeperInput":                        TestGatekeeperInput,
		"GatekeeperInventory":                    TestGatekeeperInventory,
		"GatekeeperBudget":                       TestGatekeeperBudget,
	} {
		t.Run(name, test)
	}
}

// TestIsolatedStopped: a batch whose process died is sent again one resource per
// batch, so that the findings before the resource at fault are kept and the failure
// names it; a process out of memory is an *EvalError with the budget, one that
// died otherwise an *EvalError with Died.
func TestIsolatedStopped(t *testing.T) {
	for _, tt := range []struct {
		stop  *Stopped
		check func(*EvalError) bool
	}{
		{&Stopped{Memory: 64 << 20}, func(e *EvalError) bool { return e.Memory == 64<<20 }},
		{&Stopped{Reason: "nested too deeply"}, func(e *EvalError) bool { return e.Died == "nested too deeply" }},
	} {
		calls := 0
		isolate := func(b Batch) (Verdict, error) {
			calls++
			if len(b.Inputs) > 1 || strings.Contains(string(b.Inputs[0].Input), "bomb") {
				return Verdict{}, tt.stop
			}
			return Evaluate(b)
		}
		rs := compileCustom(t, Options{Isolate: isolate}, "p.rego", "package p\n\ndeny contains input.metadata.name if true\n")
		objs := `apiVersion: v1
kind: ConfigMap
metadata: {name: first, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: bomb, namespace: app}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: after, namespace: app}
`
		findings, errs := check(rs[0], graphOf(t, objs))
		var ee *EvalError
		if len(findings) != 1 || findings[0].Message != "first" {
			t.Errorf("%v: findings %v, want the first resource's only", tt.stop, findings)
		}
		if len(errs) != 1 || !errors.As(errs[0], &ee) || !tt.check(ee) || ee.Resource != "ConfigMap/app/bomb" {
			t.Errorf("%v: errors %v, want one *EvalError at the bomb", tt.stop, errs)
		}
		if calls != 3 {
			t.Errorf("%v: %d batches, want 3 (all, then first and bomb)", tt.stop, calls)
		}
	}
}

// TestReadsInventory: only a policy that may read data.inventory is sent it.
func TestReadsInventory(t *testing.T) {
	for src, want := range map[string]bool{
		"package p\n\ndeny contains \"x\" if data.pvlint.resource.file == \"a\"\n":         false,
		"package p\n\ndeny contains \"x\" if data.inventory.cluster\n":                     true,
		"package p\n\ndeny contains \"x\" if { some ns; data.inventory.namespace[ns] }\n":  true,
		"package p\n\ndeny contains \"x\" if input.kind == \"A\"\n":                        false,
		"package p\n\nq := 2\n\ndeny contains \"x\" if data.p.q == 1 with data.p.q as 1\n": false,
	} {
		got := false
		isolate := func(b Batch) (Verdict, error) {
			got = b.Inventory != nil
			return Evaluate(b)
		}
		rs := compileCustom(t, Options{Isolate: isolate}, "p.rego", src)
		if _, errs := check(rs[0], graphOf(t, objects)); len(errs) > 0 {
			t.Fatalf("%q: %v", src, errs)
		}
		if got != want {
			t.Errorf("%q: inventory sent %v, want %v", src, got, want)
		}
	}
}

// TestEvaluateDeniesBuiltins: the process that evaluates a batch compiles it against
// the same capabilities as the parent, so a builtin pvlint denies (a schema whose
// $ref opens files, the network) does not compile there either, whatever a batch
// holds.
func TestEvaluateDeniesBuiltins(t *testing.T) {
	for _, call := range []string{
		`json.verify_schema({"$ref": "file:///etc/passwd"})`,
		`json.match_schema({}, {"$ref": "file:///etc/passwd"})`,
		`http.send({"method": "get", "url": "http://127.0.0.1:1"})`,
		`opa.runtime()`,
	} {
		src := "package p\n\ndeny contains x if x := " + call + "\n"
		_, err := Evaluate(Batch{Modules: []Module{{Name: "p.rego", Source: src}}, Query: "deny := [x | x := data.p.deny[_]]",
			Inputs: []BatchInput{{}}, Timeout: time.Second})
		if err == nil || !strings.Contains(err.Error(), "undefined function") {
			t.Errorf("%s: error %v, want undefined function", call, err)
		}
	}
}

// TestCodec: every kind of Rego value crosses the boundary unchanged, and a value cut
// short or with trailing bytes is refused.
func TestCodec(t *testing.T) {
	v := ast.MustParseTerm(`{"a": [1, 2.5, "x", null, true, false, {"b": set()}], "c": {"n": 1e400, 7: "seven"}, "s": {1, "two"}, "": ""}`).Value
	b, err := toWire(v)
	if err != nil {
		t.Fatal(err)
	}
	got, err := fromWire(b)
	if err != nil {
		t.Fatal(err)
	}
	if got.Compare(v) != 0 {
		t.Errorf("round trip: %v, want %v", got, v)
	}
	if _, err := fromWire(b[:len(b)-1]); err == nil {
		t.Error("a value cut short was read")
	}
	if _, err := fromWire(append(b, 0)); err == nil {
		t.Error("a value with trailing bytes was read")
	}
}

// TestIsolatedResultsBound: a batch whose results outgrow maxResults stops at the
// resource that outgrew them, a failure with Died set (a PVL000, not a run error),
// the findings before it kept.
func TestIsolatedResultsBound(t *testing.T) {
	if testing.Short() {
		t.Skip("makes 64 MiB of results")
	}
	// 32 MiB a resource: the second one's results outgrow the bound.
	var big strings.Builder
	big.WriteString("package p\n\nimport rego.v1\n\ndeny contains s22 if {\n\tinput.metadata.name != \"\"\n\ts0 := \"xxxxxxxx\"\n")
	for i := 1; i <= 22; i++ {
		fmt.Fprintf(&big, "\ts%d := concat(\"\", [s%d, s%d])\n", i, i-1, i-1)
	}
	big.WriteString("}\n")
	rs := compileCustom(t, Options{Isolate: isolateByGob}, "p.rego", big.String())
	findings, errs := check(rs[0], graphOf(t, objects))
	var ee *EvalError
	if len(findings) != 1 || len(errs) != 1 || !errors.As(errs[0], &ee) || !strings.Contains(ee.Died, "results exceed 64 MiB") {
		t.Errorf("%d findings, errors %v; want one finding, then the bound", len(findings), errs)
	}
}
