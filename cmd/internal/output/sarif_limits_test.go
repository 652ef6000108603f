package output

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestSARIFGitHubProperties: rules carry a precision and their tags (capped), only
// rules tagged "security" a security-severity, and the invocation says whether the
// run succeeded, with each rule failure as an error notification.
func TestSARIFGitHubProperties(t *testing.T) {
	rep := sample()
	sec := &lint.Rule{ID: "PVL993", Name: "sec", Severity: lint.Warning, Summary: "s",
		Tags: []string{"security", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11"}}
	rep.Rules = append(rep.Rules, sec)
	rep.InternalErrors = []string{"internal error in rule PVL997 boom: boom"}
	run := get(decodeSARIF(t, rep), "runs", 0)
	rules := get(run, "tool", "driver", "rules").([]any)
	for i, r := range rules {
		if p := get(r, "properties", "precision"); p != "high" {
			t.Errorf("rule %d precision = %v", i, p)
		}
	}
	if s := get(rules[1], "properties", "security-severity"); s != nil {
		t.Errorf("untagged rule has security-severity %v", s)
	}
	if s := get(rules[2], "properties", "security-severity"); s != "5.0" {
		t.Errorf("security rule: security-severity = %v, want 5.0", s)
	}
	if tags := get(rules[2], "properties", "tags").([]any); len(tags) != SARIFTagLimit || tags[0] != "security" {
		t.Errorf("tags = %v", tags)
	}
	inv := get(run, "invocations", 0)
	want := map[string]any{"executionSuccessful": false, "level": "error", "text": "internal error in rule PVL997 boom: boom"}
	got := map[string]any{
		"executionSuccessful": get(inv, "executionSuccessful"),
		"level":               get(inv, "toolExecutionNotifications", 0, "level"),
		"text":                get(inv, "toolExecutionNotifications", 0, "message", "text"),
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("invocation (-want +got):\n%s", d)
	}
	if ok := get(decodeSARIF(t, sample()), "runs", 0, "invocations", 0, "executionSuccessful"); ok != true {
		t.Errorf("a run without rule failures: executionSuccessful = %v", ok)
	}
}

// TestSARIFResultLimit: past GitHub's limit the most severe results are kept, listed
// errors first (past the 5,000 GitHub stores), and notifications say how many were
// left out and how many GitHub will drop.
func TestSARIFResultLimit(t *testing.T) {
	rule := &lint.Rule{ID: "PVL990", Name: "x", Severity: lint.Note, Summary: "s"}
	rep := &Report{Tool: Tool{Name: "pvlint"}, Rules: []*lint.Rule{rule}, Dir: "/repo"}
	for i := range SARIFResultLimit + 2 {
		sev := lint.Note
		if i%1000 == 7 || i == SARIFResultLimit+1 {
			sev = lint.Error
		}
		rep.Findings = append(rep.Findings, lint.Finding{Rule: rule, Severity: sev, Message: fmt.Sprint(i),
			Range: graph.Range{File: "a.yaml", Start: graph.Pos{Line: int32(i + 1), Column: 1}}})
	}
	run := get(decodeSARIF(t, rep), "runs", 0)
	results := get(run, "results").([]any)
	if len(results) != SARIFResultLimit {
		t.Fatalf("%d results, want %d", len(results), SARIFResultLimit)
	}
	// All 26 errors first, in report order (the last finding among them); then the
	// notes in report order, without the last two.
	for i := range 26 {
		want := fmt.Sprint(i*1000 + 7)
		if i == 25 {
			want = fmt.Sprint(SARIFResultLimit + 1)
		}
		if get(results[i], "level") != "error" || get(results[i], "message", "text") != want {
			t.Fatalf("result %d = %v %v, want the error %s", i, get(results[i], "level"), get(results[i], "message", "text"), want)
		}
	}
	if first := get(results[26], "message", "text"); first != "0" {
		t.Errorf("first note = %v", first)
	}
	if last := get(results[len(results)-1], "message", "text"); last != fmt.Sprint(SARIFResultLimit-2) {
		t.Errorf("last kept note = %v", last)
	}
	notes := get(run, "invocations", 0, "toolExecutionNotifications").([]any)
	want := []any{
		map[string]any{"level": "warning", "message": map[string]any{"text": "25002 findings, more than the 25000 results GitHub code scanning accepts in a run: the 2 least severe are left out of this report; the json format lists them all"}},
		map[string]any{"level": "note", "message": map[string]any{"text": "25000 results, more than the 5000 GitHub code scanning stores from a run: the results are listed errors first, so the 20000 it drops are the least severe"}},
	}
	if d := cmp.Diff(want, notes); d != "" {
		t.Errorf("notifications (-want +got):\n%s", d)
	}
}

// TestSARIFDisplayLimit: up to GitHub's 5,000 stored results the report keeps its
// order; one more, and errors come first with a note saying so.
func TestSARIFDisplayLimit(t *testing.T) {
	rule := &lint.Rule{ID: "PVL990", Name: "x", Severity: lint.Note, Summary: "s"}
	build := func(n int) *Report {
		rep := &Report{Tool: Tool{Name: "pvlint"}, Rules: []*lint.Rule{rule}, Dir: "/repo"}
		for i := range n {
			sev := lint.Note
			if i == n-1 {
				sev = lint.Error
			}
			rep.Findings = append(rep.Findings, lint.Finding{Rule: rule, Severity: sev, Message: fmt.Sprint(i),
				Range: graph.Range{File: "a.yaml", Start: graph.Pos{Line: int32(i + 1), Column: 1}}})
		}
		return rep
	}
	run := get(decodeSARIF(t, build(SARIFDisplayLimit)), "runs", 0)
	if first := get(run, "results", 0, "message", "text"); first != "0" {
		t.Errorf("at the limit: first result %v, want report order", first)
	}
	if n := get(run, "invocations", 0, "toolExecutionNotifications"); n != nil {
		t.Errorf("at the limit: notifications %v", n)
	}
	run = get(decodeSARIF(t, build(SARIFDisplayLimit+1)), "runs", 0)
	if first := get(run, "results", 0); get(first, "level") != "error" || get(first, "message", "text") != fmt.Sprint(SARIFDisplayLimit) {
		t.Errorf("past the limit: first result %v, want the error", first)
	}
	if second := get(run, "results", 1, "message", "text"); second != "0" {
		t.Errorf("past the limit: second result %v, want the first note", second)
	}
	if n := get(run, "invocations", 0, "toolExecutionNotifications", 0, "message", "text"); n != "5001 results, more than the 5000 GitHub code scanning stores from a run: the results are listed errors first, so the 1 it drops are the least severe" {
		t.Errorf("past the limit: notification %v", n)
	}
}

func TestMostSevere(t *testing.T) {
	f := func(s lint.Severity, m string) lint.Finding { return lint.Finding{Severity: s, Message: m} }
	in := []lint.Finding{f(lint.Note, "n1"), f(lint.Error, "e1"), f(lint.Warning, "w1"), f(lint.Note, "n2"), f(lint.Error, "e2")}
	got, dropped := mostSevere(in, 3)
	var msgs []string
	for _, x := range got {
		msgs = append(msgs, x.Message)
	}
	if d := cmp.Diff([]string{"e1", "w1", "e2"}, msgs); d != "" || dropped != 2 {
		t.Errorf("mostSevere: dropped %d (-want +got):\n%s", dropped, d)
	}
	if got, dropped := mostSevere(in, 5); len(got) != 5 || dropped != 0 {
		t.Errorf("under the limit: %d kept, %d dropped", len(got), dropped)
	}
}

// TestSARIFRelatedLimit: a result keeps GitHub's 1,000 related locations, the first
// ones, links the first few in its message, and says how many were not linked and
// how many were left out; brackets from the inputs are escaped around the links.
func TestSARIFRelatedLimit(t *testing.T) {
	rule := &lint.Rule{ID: "PVL990", Name: "x", Severity: lint.Warning, Summary: "s"}
	f := lint.Finding{Rule: rule, Message: "PVC [data] is shared",
		Range: graph.Range{File: "a.yaml", Start: graph.Pos{Line: 1, Column: 1}}}
	for i := range SARIFRelatedLimit + 5 {
		f.Related = append(f.Related, lint.Related{Message: fmt.Sprintf("Pod p%d", i),
			Range: graph.Range{File: "a.yaml", Start: graph.Pos{Line: int32(i + 2), Column: 1}}})
	}
	f.Related[0].Message = `Pod [x]\y`
	rep := &Report{Tool: Tool{Name: "pvlint"}, Rules: []*lint.Rule{rule}, Findings: []lint.Finding{f}, Dir: "/repo"}
	res := get(decodeSARIF(t, rep), "runs", 0, "results", 0)
	rel := get(res, "relatedLocations").([]any)
	if len(rel) != SARIFRelatedLimit || get(rel[0], "id") != 1.0 || get(rel[len(rel)-1], "id") != float64(SARIFRelatedLimit) {
		t.Errorf("%d related locations, first id %v, last id %v", len(rel), get(rel[0], "id"), get(rel[len(rel)-1], "id"))
	}
	want := `PVC \[data\] is shared; see [Pod \[x\]\\y](1), [Pod p1](2), [Pod p2](3), [Pod p3](4), [Pod p4](5), [Pod p5](6), [Pod p6](7), [Pod p7](8), [Pod p8](9), [Pod p9](10)` +
		` and 990 more related locations (5 more left out: code scanning accepts at most 1000 locations per result)`
	if got := get(res, "message", "text"); got != want {
		t.Errorf("message\n got %q\nwant %q", got, want)
	}
	// Without related locations the message is the finding's, unescaped.
	f.Related = nil
	rep.Findings = []lint.Finding{f}
	if got := get(decodeSARIF(t, rep), "runs", 0, "results", 0, "message", "text"); got != "PVC [data] is shared" {
		t.Errorf("message without links = %q", got)
	}
}
