package output

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestFingerprintsUnique: findings that lint.Fingerprint cannot tell apart get
// distinct fingerprints; the first keeps lint.Fingerprint (the JSON and baseline
// value); the result does not depend on line numbers and is the same on every run.
func TestFingerprintsUnique(t *testing.T) {
	web := &graph.Resource{Kind: "Deployment", Namespace: "shop", Name: "web"}
	at := func(file string, line int32) graph.Range {
		return graph.Range{File: file, Start: graph.Pos{Line: line, Column: 3}}
	}
	fs := []lint.Finding{
		{Rule: testClaim, Resource: web, Path: []string{"spec", "replicas"}, Message: "mode combination", Range: at("a.yaml", 6)},
		{Rule: testClaim, Resource: web, Path: []string{"spec", "replicas"}, Message: "version gate", Range: at("a.yaml", 6)},
		{Rule: testClaim, Resource: web, Path: []string{"spec", "replicas"}, Message: "version gate", Range: at("b.yaml", 6)},
		{Rule: testClaim, Resource: web, Path: []string{"spec", "replicas"}, Message: "version gate", Range: at("b.yaml", 9)},
		{Rule: testParse, Message: "line 3: bad", Range: at("c.yaml", 3)},
		{Rule: testParse, Message: "line 4: bad", Range: at("c.yaml", 4)},
	}
	got := fingerprints(fs)
	if got[0] != lint.Fingerprint(fs[0]) || got[4] != lint.Fingerprint(fs[4]) {
		t.Errorf("first occurrences changed: %v", got)
	}
	seen := map[string]int{}
	for i, fp := range got {
		if len(fp) != 32 {
			t.Errorf("fingerprint %d = %q, want 32 hex digits", i, fp)
		}
		if j, ok := seen[fp]; ok {
			t.Errorf("findings %d and %d share fingerprint %s", j, i, fp)
		}
		seen[fp] = i
	}
	// Moving every finding down by ten lines changes nothing.
	moved := append([]lint.Finding(nil), fs...)
	for i := range moved {
		moved[i].Range.Start.Line += 10
	}
	again := fingerprints(moved)
	for i := range got {
		if got[i] != again[i] {
			t.Errorf("finding %d: fingerprint %s became %s when lines moved", i, got[i], again[i])
		}
	}
}
