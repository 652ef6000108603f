package suppress_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
	"github.com/pvlint/pvlint/rules/suppress"
)

// at is a finding of rule r on line line of file, without a resource.
func at(r *lint.Rule, file string, line int32) lint.Finding {
	return lint.Finding{Rule: r, Severity: r.Severity, Message: "m", Range: graph.Range{File: file, Start: graph.Pos{Line: line, Column: 3}}}
}

// TestCommentForms checks every comment syntax and what may stand between a
// directive and the line it covers, in HCL and Helm templates as in YAML.
func TestCommentForms(t *testing.T) {
	tests := []struct {
		name, src string
		line      int32  // the finding's line
		want      string // its justification, "" when not suppressed
	}{
		{"hash", "# pvlint:ignore T001 why\nx", 2, "why"},
		{"hcl slashes", "  // pvlint:ignore T001 why\n  replicas = 3", 2, "why"},
		{"hcl block comment", "/* pvlint:ignore T001 why */\nresource \"a\" \"b\" {", 2, "why"},
		{"template comment", "{{/* pvlint:ignore T001 why */}}\nreplicas: 3", 2, "why"},
		{"trimmed template comment", "{{- /* pvlint:ignore T001 why */ -}}\nreplicas: 3", 2, "why"},
		{"over template actions", "# pvlint:ignore T001 why\n{{- if .Values.on }}\n{{ with .Values.x }}\nreplicas: 3", 4, "why"},
		{"over other comments", "# pvlint:ignore T001 why\n# more context\n\t# and more\nreplicas: 3", 4, "why"},
		{"rule by name", "# pvlint:ignore replicas why\nx", 2, "why"},
		{"rule id in lower case", "# pvlint:ignore t001 why\nx", 2, "why"},
		{"crlf", "# pvlint:ignore T001 why\r\nx\r\n", 2, "why"},
		{"not above", "# pvlint:ignore T001 why\nx\ny", 3, ""},
		{"blank line between", "# pvlint:ignore T001 why\n\nx", 3, ""},
		{"other rule", "# pvlint:ignore T002 why\nx", 2, ""},
		{"trailing comment is not a directive", "x: 1 # pvlint:ignore T001 why\ny", 2, ""},
		{"prefix only", "# pvlint:ignored T001 why\nx", 2, ""},
		{"mention in prose", "# see pvlint:ignore T001 docs\nx", 2, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := at(replicas, "f", tc.line)
			out := suppress.Apply([]lint.Finding{f}, nil, map[string][]byte{"f": []byte(tc.src)}, suppress.Options{Rules: catalogue, Today: today, Inline: true})
			got := ""
			if s := out[0].Suppression; s != nil {
				got = s.Justification
			}
			if got != tc.want {
				t.Errorf("justification %q, want %q (all: %v)", got, tc.want, render(out))
			}
		})
	}
}

// TestDirectiveRange checks where a comment's PVL900 is reported: from
// "pvlint:ignore" to the end of the comment text, in characters.
func TestDirectiveRange(t *testing.T) {
	src := "a: 1\n  /* pvlint:ignore T001 é */\nx\n"
	out := suppress.Apply([]lint.Finding{at(rolling, "f", 9)}, nil, map[string][]byte{"f": []byte(src)}, suppress.Options{Rules: catalogue, Today: today, Inline: true})
	want := graph.Range{File: "f", Start: graph.Pos{Line: 2, Column: 6, Byte: 10}, End: graph.Pos{Line: 2, Column: 26, Byte: 31}}
	if len(out) != 2 || out[1].Rule != suppress.Problem {
		t.Fatalf("want one finding and one PVL900, got %v", render(out))
	}
	if diff := cmp.Diff(want, out[1].Range); diff != "" {
		t.Errorf("range (-want +got):\n%s", diff)
	}
	if out[1].Message != "pvlint:ignore T001 matches no finding" {
		t.Errorf("message %q", out[1].Message)
	}
}

// TestNoInline checks --no-inline-suppressions: nothing inline applies or is reported.
func TestNoInline(t *testing.T) {
	in := load(t, "../../testdata/suppress/directives/comments.yaml", "../../testdata/suppress/directives/annotations.yaml")
	out := suppress.Apply(in.findings, in.resources, in.sources, suppress.Options{Rules: catalogue, Today: today})
	if len(out) != len(in.findings) {
		t.Errorf("%d findings in, %d out", len(in.findings), len(out))
	}
	for _, f := range out {
		if f.Suppression != nil || f.Rule == suppress.Problem {
			t.Errorf("inline suppression applied: %v", render([]lint.Finding{f}))
		}
	}
}

// TestRulesThatDidNotRun checks that a suppression of a disabled rule is not unused,
// that "all" is not unused when some rule was disabled, and that disabling PVL900
// silences every problem.
func TestRulesThatDidNotRun(t *testing.T) {
	src := []byte("# pvlint:ignore T002 disabled today\nx\n# pvlint:ignore all every rule\ny\n# pvlint:ignore T001\nz\nw\n")
	sources := map[string][]byte{"f": src}
	findings := []lint.Finding{at(replicas, "f", 7)}
	only := func(rs ...*lint.Rule) func(*lint.Rule) bool {
		return func(r *lint.Rule) bool {
			return slices.Contains(rs, r)
		}
	}
	out := suppress.Apply(findings, nil, sources, suppress.Options{Rules: catalogue, Today: today, Inline: true, Ran: only(replicas, suppress.Problem)})
	want := []string{"5:3 PVL900 pvlint:ignore T001 has no reason, so it does not apply", "7:3 T001 m"}
	if diff := cmp.Diff(want, render(out)); diff != "" {
		t.Errorf("T002 disabled (-want +got):\n%s", diff)
	}
	out = suppress.Apply(findings, nil, sources, suppress.Options{Rules: catalogue, Today: today, Inline: true, Ran: only(replicas, rolling)})
	if len(out) != 1 {
		t.Errorf("PVL900 disabled, got %v", render(out))
	}
	out = suppress.Apply(findings, nil, sources, suppress.Options{Rules: catalogue, Today: today, Inline: true})
	want = []string{
		"1:3 PVL900 pvlint:ignore T002 matches no finding",
		"3:3 PVL900 pvlint:ignore all matches no finding",
		"5:3 PVL900 pvlint:ignore T001 has no reason, so it does not apply",
		"7:3 T001 m",
	}
	if diff := cmp.Diff(want, render(out)); diff != "" {
		t.Errorf("every rule ran (-want +got):\n%s", diff)
	}
}

// TestVariants checks that one annotation rendered in two worlds (a Helm template
// under two values files) is one suppression: used when either rendering is, and
// reported once when neither is.
func TestVariants(t *testing.T) {
	file := "../../testdata/suppress/directives/annotations.yaml"
	a, b := load(t, file), load(t, file)
	findings := append(a.findings, b.findings...)
	resources := append(a.resources, b.resources...)
	out := suppress.Apply(findings, resources, a.sources, suppress.Options{Rules: catalogue, Today: today, Inline: true})
	var problems []string
	for _, s := range render(out) {
		if strings.Contains(s, " PVL900 ") {
			problems = append(problems, s)
		}
	}
	want := []string{
		"49:5 PVL900 annotation ignore.pvlint.io/T001 has no reason, so it does not apply",
		"50:5 PVL900 annotation ignore.pvlint.io/T999 names unknown rule \"T999\"",
		"51:5 PVL900 annotation ignore.pvlint.io/T002 expired on 2025-12-31 and no longer applies",
		"52:5 PVL900 annotation ignore.pvlint.io/ names no rule, so it does not apply",
		"62:5 PVL900 annotation ignore.pvlint.io/T002 matches no finding",
	}
	if diff := cmp.Diff(want, problems); diff != "" {
		t.Errorf("problems (-want +got):\n%s", diff)
	}
}

// TestIgnores checks configuration entries: by rule, by path glob relative to the
// configuration's directory, by resource, expired, and that inline wins.
func TestIgnores(t *testing.T) {
	dir := t.TempDir()
	in := load(t, "../../testdata/suppress/directives/comments.yaml")
	// The findings' files are relative to the package directory, the working directory.
	wd, _ := os.Getwd()
	root := filepath.Join(wd, "../../testdata")
	cfg := graph.Range{File: ".pvlint.yaml", Start: graph.Pos{Line: 7, Column: 5}}
	ignores := []suppress.Ignore{
		{Rule: replicas, Resources: []string{"Deployment/default/expired", "Deployment/detached"}, Reason: "by resource", Location: cfg},
		{Rule: rolling, Paths: []string{"suppress/**/*.yaml"}, Root: root, Reason: "by path", Location: cfg},
		{Rule: replicas, Paths: []string{"suppress"}, Root: dir, Reason: "outside the root: never matches", Location: cfg},
		{Rule: nil, Resources: []string{"Deployment/*/no-*"}, Reason: "every rule", Expires: time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC), Location: cfg},
		{Rule: replicas, Resources: []string{"Deployment/bad-date"}, Reason: "expired", Expires: time.Date(2026, 2, 28, 0, 0, 0, 0, time.UTC), Location: cfg},
	}
	out := suppress.Apply(in.findings, in.resources, in.sources, suppress.Options{Rules: catalogue, Today: today, Inline: true, Ignores: ignores, Dir: wd})
	got := map[string]string{}
	for _, f := range out {
		if f.Rule == suppress.Problem && f.Range.File == ".pvlint.yaml" {
			got["config"] = f.Message
			continue
		}
		if f.Resource == nil {
			continue
		}
		s := "-"
		if f.Suppression != nil {
			s = f.Suppression.Kind.String() + ": " + f.Suppression.Justification
		}
		got[f.Rule.ID+" "+f.Resource.Name] = s
	}
	want := map[string]string{
		"T002 above-resource": "inSource: rollouts are paused by the operator",
		"T001 above-line":     "inSource: scaled down to one pod by the operator at night",
		"T001 above-block":    "inSource: until the StatefulSet migration ships",
		"T001 expired":        "external: by resource",
		"T001 no-reason":      "external: every rule",
		"T001 bad-date":       "-",
		"T001 unknown-rule":   "inSource: typo in the first rule",
		"T001 list":           "inSource: two rules, written with a space",
		"T002 list":           "inSource: two rules, written with a space",
		"T001 detached":       "external: by resource",
		"T001 all":            "inSource: legacy object, owned by another team",
		"T002 all":            "inSource: legacy object, owned by another team",
		"T001 half-used":      "inSource: only one of the two rules fires here",
		"config":              "ignore entry for T001 expired on 2026-02-28 and no longer applies",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// A rolling finding not suppressed inline is caught by the path glob.
	var f lint.Finding
	for _, x := range in.findings {
		if x.Rule == rolling {
			f = x
			break
		}
	}
	f.Resource = nil
	out = suppress.Apply([]lint.Finding{f}, nil, nil, suppress.Options{Rules: catalogue, Today: today, Ignores: ignores, Dir: wd})
	if s := out[0].Suppression; s == nil || s.Justification != "by path" || s.Kind != lint.External || s.Location != cfg {
		t.Errorf("path ignore: %+v", s)
	}
	// A PVL900 of an inline directive can be ignored by configuration, here for a
	// vendored file.
	sources := map[string][]byte{"vendor/x.yaml": []byte("# pvlint:ignore T001 vendored\nx\n\ny\n")}
	vendor := []suppress.Ignore{{Rule: suppress.Problem, Paths: []string{"vendor"}, Root: dir, Reason: "vendored"}}
	out = suppress.Apply([]lint.Finding{at(rolling, "vendor/x.yaml", 4)}, nil, sources, suppress.Options{Rules: catalogue, Today: today, Inline: true, Dir: dir, Ignores: vendor})
	if len(out) != 2 || out[1].Rule != suppress.Problem || out[1].Suppression == nil || out[1].Suppression.Justification != "vendored" {
		t.Errorf("ignored PVL900: %v", render(out))
	}
	// Comments are read only in files where a resource or a finding lives.
	out = suppress.Apply(nil, nil, sources, suppress.Options{Rules: catalogue, Today: today, Inline: true})
	if len(out) != 0 {
		t.Errorf("a directive in a file with no resource or finding was read: %v", render(out))
	}
}
