package cli

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/pvlint/pvlint/rules/policy"
)

// testUsage is the help of `pvlint test`.
const testUsage = `Usage: pvlint test [-v] [--policy-timeout DURATION] DIR ...

Runs the Rego tests (test_* rules, usually in *_test.rego files) of custom policy
directories with OPA's test runner, as opa test and conftest verify do, under the
conditions of a lint run: Rego v1 or v0 per file, no network builtins,
data.pvlint.provisioners set. The policies are also checked as --policy would load
them. Give data.inventory, data.pvlint.resource and input with "with".

Flags:
  -v, --verbose              list every test and what it printed, not only failures
      --policy-timeout D     time each test may take (default 5s)

Exit codes: 0 every test passed, 1 a test failed or could not run,
2 usage error, or a policy or test that does not compile.
`

// testCmd runs the Rego tests of policy directories and prints a report in the
// shape of opa test's: failing tests (every test with -v) grouped by file, then the
// counts.
func (e *Env) testCmd(args []string) int {
	verbose := false
	timeout := 5 * time.Second
	var dirs []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		switch {
		case a == "--":
			dirs = append(dirs, args[i+1:]...)
			i = len(args)
		case len(a) < 2 || a[0] != '-':
			dirs = append(dirs, a)
		case name == "h" || name == "help":
			fmt.Fprint(e.Stdout, testUsage)
			return ExitOK
		case (name == "v" || name == "verbose") && !hasValue:
			verbose = true
		case name == "policy-timeout":
			if !hasValue {
				if i+1 >= len(args) {
					return e.fail(errors.New("flag --policy-timeout needs a value (DURATION)"))
				}
				i++
				value = args[i]
			}
			d, err := time.ParseDuration(value)
			if err != nil || d <= 0 {
				return e.fail(fmt.Errorf("--policy-timeout: invalid duration %q", value))
			}
			timeout = d
		default:
			return e.fail(fmt.Errorf("unknown flag %s (see `pvlint test --help`)", a))
		}
	}
	if len(dirs) == 0 {
		return e.fail(errors.New("test takes one or more policy directories, e.g. `pvlint test policies/`"))
	}
	mods, err := readPolicies(dirs, func(string) bool { return true }, nil)
	if err != nil {
		return e.fail(err)
	}
	var lintable []policy.Module
	for _, m := range mods {
		if !policy.IsTest(m.Name) {
			lintable = append(lintable, m)
		}
	}
	if _, err := policy.Compile(lintable, policy.Options{Custom: true}); err != nil {
		return e.fail(err)
	}
	results, err := policy.Test(mods, timeout)
	if err != nil {
		return e.fail(err)
	}
	if len(results) == 0 {
		return e.fail(fmt.Errorf("no tests (test_* rules) in %s", strings.Join(dirs, ", ")))
	}
	if !writeTestReport(e.Stdout, results, verbose) {
		return ExitFindings
	}
	return ExitOK
}

// writeTestReport prints the results and reports whether every test passed. Test
// durations are left out, so that the report of an unchanged run is unchanged.
func writeTestReport(w io.Writer, results []policy.TestResult, verbose bool) bool {
	var pass, fail, errs, skip int
	file := ""
	printed := false
	for _, r := range results {
		outcome := "PASS"
		switch {
		case r.Skip:
			outcome, skip = "SKIPPED", skip+1
		case r.Err != nil:
			outcome, errs = "ERROR", errs+1
		case r.Fail:
			outcome, fail = "FAIL", fail+1
		default:
			pass++
		}
		if !verbose && (outcome == "PASS" || outcome == "SKIPPED") {
			continue
		}
		if r.File != file {
			if printed {
				fmt.Fprintln(w)
			}
			fmt.Fprintf(w, "%s:\n", r.File)
			file = r.File
		}
		printed = true
		fmt.Fprintf(w, "%s: %s\n", r.Name, outcome)
		if r.Err != nil {
			fmt.Fprintf(w, "  %v\n", r.Err)
		}
		if out := strings.TrimSpace(r.Output); out != "" && (verbose || outcome != "PASS") {
			for line := range strings.SplitSeq(out, "\n") {
				fmt.Fprintf(w, "  %s\n", line)
			}
		}
	}
	if printed {
		fmt.Fprintln(w, strings.Repeat("-", 80))
	}
	total := len(results)
	for _, c := range []struct {
		label string
		n     int
	}{{"PASS", pass}, {"FAIL", fail}, {"SKIPPED", skip}, {"ERROR", errs}} {
		if c.n > 0 {
			fmt.Fprintf(w, "%s: %d/%d\n", c.label, c.n, total)
		}
	}
	return fail == 0 && errs == 0
}
