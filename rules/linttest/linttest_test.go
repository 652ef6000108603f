package linttest

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

// seen reports every ConfigMap at its name: a rule whose findings the fixtures predict.
var seen = &lint.Rule{
	ID: "TST001", Name: "configmap-seen", Severity: lint.Warning,
	Check: func(p *lint.Pass) {
		for _, r := range p.Graph.ByKind("ConfigMap") {
			p.Report(r, r.Locate("metadata", "name"), lint.SeverityNone, "ConfigMap "+r.Name+" seen")
		}
	},
}

func TestCheck(t *testing.T) {
	tests := []struct {
		dir   string
		rules []*lint.Rule
		want  []string
	}{
		{"testdata/ok", []*lint.Rule{seen}, nil},
		// Expectations in a Helm template, not in its rendered copy.
		{"testdata/chart", []*lint.Rule{seen}, nil},
		{"testdata/missing", []*lint.Rule{seen}, []string{
			`configmaps.yaml:9: missing finding matching "Secret s seen"`,
		}},
		{"testdata/unexpected", []*lint.Rule{seen}, []string{
			`configmaps.yaml:4: unexpected TST001 warning: ConfigMap b seen`,
			`configmaps.yaml:9: missing finding matching "ConfigMap z seen"`,
			`configmaps.yaml:9: unexpected TST001 warning: ConfigMap c seen`,
		}},
		// Load diagnostics fail a fixture unless PVL000 is a checked rule.
		{"testdata/broken", []*lint.Rule{seen}, []string{
			`bad.yaml:3: fixture does not load: invalid YAML: did not find expected ',' or ']'`,
			`bad.yaml:3: missing finding matching "invalid YAML: did not find expected"`,
		}},
		{"testdata/broken", []*lint.Rule{rules.ParseError}, nil},
		// Only the checked rules' findings count: here no rule is checked.
		{"testdata/ok", nil, []string{
			`configmap.json:5: missing finding matching "ConfigMap third seen"`,
			`configmaps.yaml:4: missing finding matching "ConfigMap first seen"`,
			"configmaps.yaml:14: missing finding matching `^warning: ConfigMap second seen$`",
		}},
	}
	for _, tt := range tests {
		got, err := Check(tt.dir, tt.rules...)
		if err != nil {
			t.Errorf("%s: %v", tt.dir, err)
			continue
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Check(%s, %v) (-want +got):\n%s", tt.dir, ids(tt.rules), diff)
		}
	}
}

func ids(rs []*lint.Rule) []string {
	var out []string
	for _, r := range rs {
		out = append(out, r.ID)
	}
	return out
}

// recorder is a testing.TB that records failures instead of failing the test.
type recorder struct {
	testing.TB
	failures []string
}

func (r *recorder) Helper() {}

func (r *recorder) Errorf(format string, args ...any) {
	r.failures = append(r.failures, fmt.Sprintf(format, args...))
}

func (r *recorder) Fatalf(format string, args ...any) { r.Errorf(format, args...) }

func TestRunFails(t *testing.T) {
	for dir, want := range map[string]string{
		"testdata/ok":         "",
		"testdata/missing":    "missing finding",
		"testdata/unexpected": "unexpected TST001",
		"testdata/absent":     "does not exist",
	} {
		rec := &recorder{TB: t}
		Run(rec, dir, seen)
		got := strings.Join(rec.failures, "\n")
		if want == "" && got != "" || want != "" && !strings.Contains(got, want) {
			t.Errorf("Run(%s) failures = %q, want one mentioning %q", dir, got, want)
		}
	}
}

func TestBadExpectations(t *testing.T) {
	ws := &wantSet{byLine: map[lineKey][]*want{}}
	for _, src := range []string{
		"a: 1 # want unquoted",
		`a: 1 # want "("`,
		"a: 1 # want ",
	} {
		if err := ws.parseComments("f.yaml", src); err == nil {
			t.Errorf("parseComments(%q) succeeded, want an error", src)
		}
	}
	for _, src := range []string{`x "re"`, `0 "re"`, `3 re`} {
		if err := ws.parseSidecar("f.json", "f.json.want", src); err == nil {
			t.Errorf("parseSidecar(%q) succeeded, want an error", src)
		}
	}
}

// targeted reports every ConfigMap with the target version it was run for.
var targeted = &lint.Rule{
	ID: "TST002", Name: "configmap-target", Severity: lint.Note,
	Check: func(p *lint.Pass) {
		for _, r := range p.Graph.ByKind("ConfigMap") {
			p.Report(r, r.Locate("metadata", "name"), lint.SeverityNone, "ConfigMap "+r.Name+" at "+p.Target.String())
		}
	},
}

// TestCheckAt checks that the target version reaches the rules: testdata/target
// expects 1.24, so the default target leaves its expectations unmet.
func TestCheckAt(t *testing.T) {
	got, err := CheckAt("testdata/target", lint.Version{Major: 1, Minor: 24}, targeted)
	if err != nil || got != nil {
		t.Errorf("CheckAt(1.24) = %q, %v; want no problems", got, err)
	}
	got, err = Check("testdata/target", targeted)
	want := []string{
		`configmap.yaml:4: missing finding matching "ConfigMap old at 1\\.24"`,
		"configmap.yaml:4: unexpected TST002 note: ConfigMap old at " + lint.NewestKnown.String(),
	}
	if diff := cmp.Diff(want, got); err != nil || diff != "" {
		t.Errorf("Check at the default target (-want +got):\n%s%v", diff, err)
	}
}
