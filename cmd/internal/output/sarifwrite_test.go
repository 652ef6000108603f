package output

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// referenceSARIF is how WriteSARIF wrote a log before it wrote a result at a time:
// the whole model, results included, through go-sarif's Report.Write, then decoded
// into map[string]any, compacted and re-encoded (referenceCompact).
func referenceSARIF(rep *Report) ([]byte, error) {
	l := newSARIFLog(rep)
	for k := range l.results {
		l.run.AddResult(l.result(k))
	}
	var raw bytes.Buffer
	if err := l.report.Write(&raw); err != nil {
		return nil, err
	}
	return referenceCompact(raw.Bytes())
}

// checkSARIF compares WriteSARIF with the reference on rep.
func checkSARIF(t *testing.T, name string, rep *Report) {
	t.Helper()
	want, err := referenceSARIF(rep)
	if err != nil {
		t.Fatalf("%s: reference: %v", name, err)
	}
	var got bytes.Buffer
	if err := WriteSARIF(&got, rep); err != nil {
		t.Fatalf("%s: WriteSARIF: %v", name, err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		g, w := got.String(), string(want)
		i := 0
		for i < len(g) && i < len(w) && g[i] == w[i] {
			i++
		}
		t.Errorf("%s: WriteSARIF differs from the reference at byte %d of %d:\n got: %q\nwant: %q",
			name, i, len(w), g[max(0, i-200):min(len(g), i+200)], w[max(0, i-200):min(len(w), i+200)])
	}
}

// tricky are texts that encoders treat differently: HTML characters (escaped by
// go-sarif's json.Marshal, literal in pvlint's log), quotes, control characters,
// U+2028, non-ASCII, invalid UTF-8 (written as U+FFFD) and an escaped U+FFFD.
var tricky = []string{
	"Deployment web (replicas 3) mounts PVC data (ReadWriteOnce)",
	`a <b> & "c" \ d`, "tab\there\nnew line\r\x01\x1f", "line\u2028sep\u2029", "été ☃ 😀",
	"bad \xff\xfe utf-8", "\ufffd already", "", " ", "%SRCROOT%/x", "-1",
}

// variedReport is a report of n findings in every shape WriteSARIF writes: rules
// with and without docs, capped tags, security and custom-policy rules, findings of
// unlisted rules and without a rule, every severity, related locations in and out
// of the working directory, variants, suppressions of both kinds, fixes over two
// files, locations without a file or a line, and rule failures.
func variedReport(n int, seed uint64) *Report {
	rng := rand.New(rand.NewPCG(seed, 1))
	text := func() string { return tricky[rng.IntN(len(tricky))] + fmt.Sprint(rng.IntN(100)) }
	many := []string{"security", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8", "t9", "t10", "t11"}
	var listed, unlisted []*lint.Rule
	for i := range 12 {
		r := &lint.Rule{ID: fmt.Sprintf("PVL%03d", 100+i), Name: fmt.Sprintf("rule-%d", i),
			Severity: lint.Severity(i % 4), Summary: text(), Tags: many[i%2 : max(i, i%2)]}
		if i%2 == 0 {
			r.Description, r.Remediation, r.Doc = text(), text(), "# "+r.ID+"\n\n"+text()
		}
		if i%5 == 4 {
			r.ID, r.Policy = "custom.labels."+r.Name, "policies/labels.rego"
		}
		if i < 9 {
			listed = append(listed, r)
		} else {
			unlisted = append(unlisted, r)
		}
	}
	file := func() string {
		return []string{"k8s/web.yaml", "/work/repo/abs dir/x.yaml", "/elsewhere/class.yaml", "<stdin>", "", "chart/<b>&.yaml"}[rng.IntN(6)]
	}
	pos := func() graph.Pos {
		return graph.Pos{Line: int32(rng.IntN(40)), Column: int32(rng.IntN(30)), Byte: int32(rng.IntN(2000))}
	}
	rng2 := func() graph.Range { return graph.Range{File: file(), Start: pos(), End: pos()} }
	rep := &Report{Tool: Tool{Name: "pvlint", Version: []string{"v1.2.3", "(devel)", "1.2"}[seed%3], InformationURI: "https://pvlint.io/?a=1&b=<2>"},
		Rules: listed, Dir: "/work/repo", InternalErrors: []string{"internal error in rule PVL997 <boom>: boom"}[:seed%2]}
	for k := range n {
		f := lint.Finding{Severity: lint.Severity(rng.IntN(4)), Message: text(), Range: rng2()}
		switch x := rng.IntN(20); {
		case x == 0:
		case x < 3:
			f.Rule = unlisted[rng.IntN(len(unlisted))]
		default:
			f.Rule = listed[rng.IntN(len(listed))]
		}
		for range rng.IntN(4) {
			f.Related = append(f.Related, lint.Related{Range: rng2(), Message: text()})
		}
		if rng.IntN(4) == 0 {
			f.Variant = text()
		}
		if rng.IntN(5) == 0 {
			s := &lint.Suppression{Kind: lint.SuppressionKind(1 + rng.IntN(2)), Justification: text(), Location: rng2()}
			if rng.IntN(2) == 0 {
				s.Expires = time.Date(2030, 1, 2+k%20, 0, 0, 0, 0, time.UTC)
			}
			f.Suppression = s
		}
		if rng.IntN(4) == 0 {
			fix := &lint.Fix{Description: text()}
			if rep.Fixes == nil {
				rep.Fixes = map[*lint.Fix][]lint.Change{}
			}
			for range 1 + rng.IntN(3) {
				rep.Fixes[fix] = append(rep.Fixes[fix], lint.Change{Range: rng2(), Text: text()})
			}
			f.Fix = fix
		}
		rep.Findings = append(rep.Findings, f)
	}
	return rep
}

// TestWriteSARIFReference: WriteSARIF writes, byte for byte, what the whole model
// through go-sarif and a map-based compaction writes.
func TestWriteSARIFReference(t *testing.T) {
	checkSARIF(t, "sample", sample())
	empty := sample()
	empty.Findings = nil
	checkSARIF(t, "no findings", empty)
	checkSARIF(t, "no rules", &Report{Tool: Tool{Name: "pvlint"}})
	for seed := range uint64(4) {
		checkSARIF(t, fmt.Sprintf("varied %d", seed), variedReport(500+int(seed)*500, seed))
	}
}

// FuzzWriteSARIF compares WriteSARIF with the reference on a report whose texts and
// positions come from the fuzzer.
func FuzzWriteSARIF(f *testing.F) {
	for i, s := range tricky {
		f.Add(s, tricky[(i+1)%len(tricky)], "k8s/web.yaml", i, i+3)
	}
	f.Fuzz(func(t *testing.T, msg, other, file string, line, col int) {
		rep := variedReport(3, uint64(len(msg)))
		rule := rep.Rules[line&3]
		rule.Summary, rule.Doc, rule.Tags = other, msg, []string{msg, other}
		at, c := int32(line), int32(col)
		r := graph.Range{File: file, Start: graph.Pos{Line: at, Column: c, Byte: c}, End: graph.Pos{Line: c, Column: at}}
		fix := &lint.Fix{Description: msg}
		if rep.Fixes == nil {
			rep.Fixes = map[*lint.Fix][]lint.Change{}
		}
		rep.Fixes[fix] = []lint.Change{{Range: r, Text: other}}
		rep.Findings = append(rep.Findings, lint.Finding{Rule: rule, Message: msg, Range: r, Variant: other,
			Related:     []lint.Related{{Range: r, Message: other}},
			Suppression: &lint.Suppression{Kind: lint.InSource, Justification: other, Location: r},
			Fix:         fix})
		rep.InternalErrors = []string{other}
		checkSARIF(t, "fuzzed", rep)
	})
}

// failAfter accepts n bytes, then fails every write.
type failAfter struct{ n int }

var errFull = errors.New("disk full")

func (w *failAfter) Write(p []byte) (int, error) {
	if len(p) > w.n {
		k := w.n
		w.n = 0
		return k, errFull
	}
	w.n -= len(p)
	return len(p), nil
}

// TestWriteSARIFWriteError: a failed write ends the log with its error, wherever it
// happens.
func TestWriteSARIFWriteError(t *testing.T) {
	rep := variedReport(2000, 7)
	var full bytes.Buffer
	if err := WriteSARIF(&full, rep); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{0, 100, outBlock, full.Len() - 1} {
		if err := WriteSARIF(&failAfter{n: n}, rep); !errors.Is(err, errFull) {
			t.Errorf("failing after %d of %d bytes: error %v, want %v", n, full.Len(), err, errFull)
		}
	}
}

// TestCompactorPath finds values by key and index, and nothing where the path leads
// nowhere.
func TestCompactorPath(t *testing.T) {
	c := compactor{}
	if err := c.parse([]byte(`{"runs":[{"a":1},{"results":[],"index":-1,"b":[true,{"c":"d"}]}],"x":{}}`)); err != nil {
		t.Fatal(err)
	}
	for _, p := range []struct {
		path []any
		want string
	}{
		{[]any{"runs", 1, "results"}, "[]"},
		{[]any{"runs", 1, "b", 1, "c"}, `"d"`},
		{[]any{"runs", 0}, `{"a":1}`},
		{[]any{"runs", 2}, ""},
		{[]any{"runs", -1}, ""},
		{[]any{"runs", 1, "index"}, ""}, // compacted away
		{[]any{"x"}, ""},                // compacted away
		{[]any{"runs", "a"}, ""},
		{[]any{"runs", 0, 0}, ""},
	} {
		got := ""
		if n := c.path(p.path...); n >= 0 {
			got = string(c.src[c.tape[n].start:c.tape[n].end])
		}
		if got != p.want {
			t.Errorf("path %v = %q, want %q", p.path, got, p.want)
		}
	}
}
