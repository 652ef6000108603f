package output

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// TestSARIFShape checks, on the decoded log, what code scanning relies on.
func TestSARIFShape(t *testing.T) {
	doc := decodeSARIF(t, sample())
	if doc["version"] != "2.1.0" {
		t.Errorf("version = %v", doc["version"])
	}
	run := get(doc, "runs", 0)
	checks := []struct {
		path []any
		want any
	}{
		{[]any{"automationDetails", "id"}, "pvlint/"},
		{[]any{"columnKind"}, "unicodeCodePoints"},
		{[]any{"tool", "driver", "name"}, "pvlint"},
		{[]any{"tool", "driver", "version"}, "1.2.3"},
		{[]any{"tool", "driver", "semanticVersion"}, "1.2.3"},
		{[]any{"tool", "driver", "rules", 1, "id"}, "PVL991"},
		{[]any{"tool", "driver", "rules", 1, "name"}, "test-claim"},
		{[]any{"tool", "driver", "rules", 1, "shortDescription", "text"}, "a claim rule for output tests"},
		{[]any{"tool", "driver", "rules", 1, "fullDescription", "text"}, "Reports claims."},
		{[]any{"tool", "driver", "rules", 1, "help", "text"}, "Reports claims.\n\nFix the claim."},
		{[]any{"tool", "driver", "rules", 1, "help", "markdown"}, testClaim.Doc},
		{[]any{"tool", "driver", "rules", 1, "defaultConfiguration", "level"}, "error"},
		{[]any{"tool", "driver", "rules", 1, "properties", "tags"}, []any{"storage", "test"}},
		// A rule without description or doc still has every text, from its summary.
		{[]any{"tool", "driver", "rules", 0, "fullDescription", "text"}, "a parse rule for output tests"},
		{[]any{"tool", "driver", "rules", 0, "help", "markdown"}, "a parse rule for output tests"},
		{[]any{"results", 0, "ruleId"}, "PVL991"},
		{[]any{"results", 0, "ruleIndex"}, 1.0},
		{[]any{"results", 0, "level"}, "error"},
		{[]any{"results", 0, "message", "text"}, "Deployment web (replicas 3) mounts PVC data (ReadWriteOnce); see [PVC data](1), [StorageClass gp3](2)"},
		{[]any{"results", 0, "properties", "variant"}, "ci/prod-values.yaml"},
		{[]any{"results", 0, "locations", 0, "physicalLocation"}, map[string]any{
			"artifactLocation": map[string]any{"uri": "k8s/web.yaml", "uriBaseId": "%SRCROOT%"},
			"region":           map[string]any{"startLine": 6.0, "startColumn": 3.0, "endLine": 6.0, "endColumn": 14.0},
		}},
		{[]any{"results", 0, "relatedLocations", 0, "id"}, 1.0},
		{[]any{"results", 0, "relatedLocations", 0, "message", "text"}, "PVC data"},
		{[]any{"results", 0, "relatedLocations", 0, "physicalLocation", "region", "endLine"}, 9.0},
		{[]any{"results", 0, "relatedLocations", 1, "id"}, 2.0},
		// Outside the working directory: still relative, with ../.
		{[]any{"results", 0, "relatedLocations", 1, "physicalLocation", "artifactLocation", "uri"}, "../../elsewhere/class.yaml"},
		// No end: one character.
		{[]any{"results", 0, "relatedLocations", 1, "physicalLocation", "region", "endColumn"}, 2.0},
		{[]any{"results", 1, "level"}, "note"},
		{[]any{"results", 1, "locations", 0, "physicalLocation", "artifactLocation", "uri"}, "%3Cstdin%3E"},
		{[]any{"results", 2, "ruleIndex"}, 0.0},
		{[]any{"results", 2, "level"}, "warning"},
		// No line: line 1, column 1 to 2, and a space escaped in the URI.
		{[]any{"results", 2, "locations", 0, "physicalLocation", "artifactLocation", "uri"}, "secret%20dir/x.yaml"},
		{[]any{"results", 2, "locations", 0, "physicalLocation", "region", "startLine"}, 1.0},
		{[]any{"results", 2, "locations", 0, "physicalLocation", "region", "startColumn"}, 1.0},
		{[]any{"results", 2, "locations", 0, "physicalLocation", "region", "endLine"}, 1.0},
		{[]any{"results", 2, "locations", 0, "physicalLocation", "region", "endColumn"}, 2.0},
	}
	for _, c := range checks {
		if d := cmp.Diff(c.want, get(run, c.path...)); d != "" {
			t.Errorf("%v (-want +got):\n%s", c.path, d)
		}
	}
	for i := range 3 {
		fp := get(run, "results", i, "partialFingerprints").(map[string]any)
		if _, ok := fp["primaryLocationLineHash"]; ok {
			t.Errorf("result %d carries a primaryLocationLineHash of pvlint's own", i)
		}
		if s, _ := fp[FingerprintKey].(string); len(s) != 32 {
			t.Errorf("result %d fingerprint = %q", i, s)
		}
	}
}

// TestSARIFNoIndexSentinel: no object keeps go-sarif's "index": -1, nor an empty
// array other than results.
func TestSARIFNoIndexSentinel(t *testing.T) {
	var b bytes.Buffer
	if err := WriteSARIF(&b, sample()); err != nil {
		t.Fatal(err)
	}
	for _, unset := range []string{`"index": -1`, `"byteOffset": -1`, `: []`, `: {}`} {
		if strings.Contains(b.String(), unset) {
			t.Errorf("SARIF contains %s:\n%s", unset, b.String())
		}
	}
}

// TestSARIFEmpty: a clean run still lists every rule and has an empty results array,
// which GitHub requires.
func TestSARIFEmpty(t *testing.T) {
	rep := sample()
	rep.Findings = nil
	run := get(decodeSARIF(t, rep), "runs", 0)
	if got, ok := get(run, "results").([]any); !ok || len(got) != 0 {
		t.Errorf("results = %#v, want []", get(run, "results"))
	}
	if got := len(get(run, "tool", "driver", "rules").([]any)); got != 2 {
		t.Errorf("%d rules, want 2", got)
	}
}

// TestSARIFUnlistedRule: a finding of a rule missing from Report.Rules gets a
// descriptor, so its ruleIndex is valid.
func TestSARIFUnlistedRule(t *testing.T) {
	rep := sample()
	rep.Rules = []*lint.Rule{testParse}
	run := get(decodeSARIF(t, rep), "runs", 0)
	if got := get(run, "tool", "driver", "rules", 1, "id"); got != "PVL991" {
		t.Errorf("added rule = %v", got)
	}
	if got := get(run, "results", 0, "ruleIndex"); got != 1.0 {
		t.Errorf("ruleIndex = %v, want 1", got)
	}
}

func TestSARIFVersion(t *testing.T) {
	tests := []struct {
		in, want string
		semantic bool
	}{
		{"v1.2.3", "1.2.3", true},
		{"v0.0.0-20250101120000-abcdef123456", "0.0.0-20250101120000-abcdef123456", true},
		{"1.4", "1.4", false},
		{"(devel)", "0.0.0-devel", true},
		{"", "0.0.0-devel", true},
	}
	for _, tt := range tests {
		got, sem := sarifVersion(tt.in)
		if got != tt.want || sem != tt.semantic {
			t.Errorf("sarifVersion(%q) = %q, %v; want %q, %v", tt.in, got, sem, tt.want, tt.semantic)
		}
	}
}

func TestArtifactURI(t *testing.T) {
	tests := []struct {
		file, dir, uri, base string
	}{
		{"k8s/web.yaml", "/repo", "k8s/web.yaml", SrcRoot},
		{"/repo/k8s/web.yaml", "/repo", "k8s/web.yaml", SrcRoot},
		{"/other/x.yaml", "/repo", "../other/x.yaml", SrcRoot},
		{"<stdin>", "/repo", "%3Cstdin%3E", SrcRoot},
		{"a:b.yaml", "/repo", "./a:b.yaml", SrcRoot},
		{"/abs/x.yaml", "", "file:///abs/x.yaml", ""},
	}
	for _, tt := range tests {
		loc := artifactLocation(tt.file, tt.dir)
		base := ""
		if loc.URIBaseID != nil {
			base = *loc.URIBaseID
		}
		if *loc.URI != tt.uri || base != tt.base {
			t.Errorf("artifactLocation(%q, %q) = %q base %q; want %q base %q", tt.file, tt.dir, *loc.URI, base, tt.uri, tt.base)
		}
	}
}

// TestSARIFRangeRepair: ends before starts and columns below 1 become a valid region.
func TestSARIFRangeRepair(t *testing.T) {
	tests := []struct {
		r    graph.Range
		want [4]int // startLine, startColumn, endLine, endColumn
	}{
		{graph.Range{File: "a", Start: graph.Pos{Line: 4, Column: 0}}, [4]int{4, 1, 4, 2}},
		{graph.Range{File: "a", Start: graph.Pos{Line: 4, Column: 5}, End: graph.Pos{Line: 3, Column: 9}}, [4]int{4, 5, 4, 6}},
		{graph.Range{File: "a", Start: graph.Pos{Line: 4, Column: 5}, End: graph.Pos{Line: 6, Column: 1}}, [4]int{4, 5, 6, 1}},
	}
	for _, tt := range tests {
		r := sarifLocation(tt.r, "/").PhysicalLocation.Region
		got := [4]int{*r.StartLine, *r.StartColumn, *r.EndLine, *r.EndColumn}
		if got != tt.want {
			t.Errorf("region of %+v = %v, want %v", tt.r, got, tt.want)
		}
	}
	if sarifLocation(graph.Range{}, "/") != nil {
		t.Error("a range without a file has a location")
	}
}
