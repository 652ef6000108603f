package output

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// The catalogue of these tests: two rules written for them, so that the goldens do not
// change when the real catalogue grows.
var (
	testClaim = &lint.Rule{ID: "PVL991", Name: "test-claim", Severity: lint.Error,
		Summary: "a claim rule for output tests", Description: "Reports claims.", Remediation: "Fix the claim.",
		Doc: "# Test claim\n\nBefore:\n\n```yaml\naccessModes: [ReadWriteOnce]\n```\n", Tags: []string{"storage", "test"}}
	testParse = &lint.Rule{ID: "PVL990", Name: "test-parse", Severity: lint.Error, Summary: "a parse rule for output tests"}
)

const webYAML = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 3\n"

// sample is a report with every shape a format must handle: related locations, a
// variant, a resource-less finding, a file outside the working directory, standard
// input, a range without a line and one without an end.
func sample() *Report {
	web := &graph.Resource{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "shop", Name: "web",
		Range: graph.Range{File: "k8s/web.yaml", Start: graph.Pos{Line: 1, Column: 1}, End: graph.Pos{Line: 7, Column: 1}}}
	return &Report{
		Tool:  Tool{Name: "pvlint", Version: "v1.2.3", InformationURI: "https://github.com/pvlint/pvlint"},
		Rules: []*lint.Rule{testParse, testClaim},
		Findings: []lint.Finding{
			{Rule: testClaim, Severity: lint.Error, Message: "Deployment web (replicas 3) mounts PVC data (ReadWriteOnce)", Resource: web,
				Range: graph.Range{File: "k8s/web.yaml", Start: graph.Pos{Line: 6, Column: 3}, End: graph.Pos{Line: 6, Column: 14}},
				Related: []lint.Related{
					{Range: graph.Range{File: "k8s/pvc.yaml", Start: graph.Pos{Line: 1, Column: 1}, End: graph.Pos{Line: 9, Column: 1}}, Message: "PVC data"},
					{Range: graph.Range{File: "/elsewhere/class.yaml", Start: graph.Pos{Line: 3, Column: 1}}, Message: "StorageClass gp3"},
				},
				Variant: "ci/prod-values.yaml", AlsoIn: []string{"ci/ha-values.yaml"}},
			{Rule: testClaim, Severity: lint.Note, Message: "a note from standard input", Resource: web,
				Range: graph.Range{File: "<stdin>", Start: graph.Pos{Line: 2, Column: 1}}},
			{Rule: testParse, Severity: lint.Warning, Message: "cannot read: permission denied", Range: graph.Range{File: "secret dir/x.yaml"}},
		},
		Sources: map[string][]byte{"k8s/web.yaml": []byte(webYAML), "<stdin>": []byte("a: 1\nb: 2\n")},
		Dir:     "/work/repo",
	}
}

// TestFormatsGolden compares each format's rendering of the sample with
// testdata/sample.<format> (-update rewrites them).
func TestFormatsGolden(t *testing.T) {
	for _, f := range Formats() {
		t.Run(f.Name, func(t *testing.T) {
			var b bytes.Buffer
			if err := f.Write(&b, sample()); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", "sample."+f.Name)
			if *update {
				if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("read golden (run make golden): %v", err)
			}
			if d := cmp.Diff(string(want), b.String()); d != "" {
				t.Errorf("%s differs (-want +got):\n%s", path, d)
			}
		})
	}
}

func TestTextColor(t *testing.T) {
	rep := sample()
	rep.Color = true
	var b bytes.Buffer
	if err := WriteText(&b, rep); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{"\x1b[1mk8s/web.yaml:6:3\x1b[0m", "\x1b[1;31merror\x1b[0m", "\x1b[1;36mnote\x1b[0m", "\x1b[1;33mwarning\x1b[0m", "\x1b[1;31m^~~~~~~~~~~\x1b[0m"} {
		if !strings.Contains(out, want) {
			t.Errorf("coloured text lacks %q:\n%s", want, out)
		}
	}
}

func TestJSONEmpty(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, &Report{}); err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"version\": 1,\n  \"findings\": [],\n  \"suppressed\": [],\n  \"summary\": {\n    \"total\": 0,\n    \"errors\": 0,\n    \"warnings\": 0,\n    \"notes\": 0,\n    \"suppressed\": 0,\n    \"baselined\": 0,\n    \"staleBaseline\": 0\n  }\n}\n"
	if d := cmp.Diff(want, b.String()); d != "" {
		t.Errorf("empty JSON (-want +got):\n%s", d)
	}
}

func TestLookup(t *testing.T) {
	if f, err := Lookup("sarif"); err != nil || f.Name != "sarif" {
		t.Errorf("Lookup(sarif) = %v, %v", f.Name, err)
	}
	_, err := Lookup("xml")
	if err == nil || err.Error() != `unknown format "xml" (want text, json, sarif, github, codequality, junit, markdown, checkstyle, rdjson)` {
		t.Errorf("Lookup(xml) error = %v", err)
	}
}

func TestCount(t *testing.T) {
	fs := []lint.Finding{{Rule: testClaim, Severity: lint.Error}, {Rule: testClaim}, {Severity: lint.Warning}, {Rule: testParse, Severity: lint.Note}}
	if got, want := Count(fs), (Counts{Errors: 2, Warnings: 1, Notes: 1}); got != want {
		t.Errorf("Count = %+v, want %+v (a finding without severity counts as its rule's)", got, want)
	}
}

// decodeSARIF writes rep as SARIF and decodes it generically.
func decodeSARIF(t *testing.T, rep *Report) map[string]any {
	t.Helper()
	var b bytes.Buffer
	if err := WriteSARIF(&b, rep); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("SARIF is not JSON: %v", err)
	}
	return doc
}

// get walks a decoded JSON document by keys and indexes.
func get(v any, path ...any) any {
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, _ := v.(map[string]any)
			v = m[k]
		case int:
			l, _ := v.([]any)
			if k >= len(l) {
				return nil
			}
			v = l[k]
		}
	}
	return v
}

// TestSARIFSkipsRenderedOutputs: a chart's rendered output and a kustomize build are
// no files, so SARIF gives no related location there (".#rendered" when linting from
// inside the chart would be a URI that does not resolve); text output keeps them.
func TestSARIFSkipsRenderedOutputs(t *testing.T) {
	rep := sample()
	f := &rep.Findings[0]
	for _, name := range []string{".#rendered", "charts/app#rendered(ci/ha-values.yaml)", "overlays/prod#built"} {
		f.Related = append(f.Related, lint.Related{Range: graph.Range{File: name, Start: graph.Pos{Line: 4, Column: 1}}, Message: "rendered " + name})
	}
	var sarifOut, textOut strings.Builder
	if err := WriteSARIF(&sarifOut, rep); err != nil {
		t.Fatal(err)
	}
	if err := WriteText(&textOut, rep); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"#rendered", "#built"} {
		if strings.Contains(sarifOut.String(), s) {
			t.Errorf("SARIF names %s", s)
		}
		if !strings.Contains(textOut.String(), s) {
			t.Errorf("text does not name %s", s)
		}
	}
	if !strings.Contains(sarifOut.String(), "k8s/pvc.yaml") {
		t.Error("SARIF lost the other related locations")
	}
}
