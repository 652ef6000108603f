// Package output writes a run's findings in the formats users and machines read:
// text for terminals, JSON for scripts, SARIF for code-scanning services, and the
// native reports of CI systems (GitHub annotations, GitLab Code Quality, JUnit,
// Markdown job summaries). Every format takes the catalogue and the findings as
// arguments, so it never imports a rule package other than rules/lint and a new rule
// needs no change here.
package output

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// Report is everything a format writes about one run.
type Report struct {
	// Tool names the program in SARIF and is shown by nothing else.
	Tool Tool
	// Rules is the whole catalogue: SARIF lists every rule, findings or not.
	Rules []*lint.Rule
	// Findings are deduplicated and sorted by the caller; formats keep their order.
	// A finding with Suppression set was accepted on purpose: formats that can mark a
	// result as suppressed (SARIF, JSON, JUnit) show it so, the others count it.
	Findings []lint.Finding
	// Baseline says what --baseline or --write-baseline filtered out (those findings
	// are not in Findings); nil without a baseline.
	Baseline *Baseline
	// Sources maps the displayed file names of Findings to their content, for the
	// source excerpts of the text format. A missing file only loses its excerpt.
	Sources map[string][]byte
	// Fixes are the text changes each finding's fix resolves to against Sources
	// (SARIF fixes); a fix without an entry could not be resolved and is not written.
	Fixes map[*lint.Fix][]lint.Change
	// Dir is the absolute working directory. SARIF writes file locations relative to
	// it, which is what code-scanning services resolve against the checkout.
	Dir string
	// InternalErrors are the failures the run survived (a rule that panicked), one
	// message each, first line first. SARIF reports them as tool execution
	// notifications of an unsuccessful invocation, JUnit as errors.
	InternalErrors []string
	// Color turns on ANSI colours in the text format. The caller decides (terminal,
	// NO_COLOR, --no-color); formats never look at the environment.
	Color bool
	// Quiet leaves the summary line out of the text format (--quiet): only the
	// findings are printed.
	Quiet bool
	// Explored completes the text format's summary with what --explore-values did
	// ("explored 3 charts: 41 combinations rendered"); "" when it was not asked for.
	Explored string
	// Releases counts the GitOps releases of the inputs (docs/gitops.md); nil when
	// there were none. The summary line says how many were rendered.
	Releases *Releases
}

// Releases counts the GitOps releases of a run: rendered (or linted as files of the
// repository) and not rendered (PVL024 notes, PVL000 refusals).
type Releases struct {
	Rendered, Unrendered int
}

// releasesNote completes the summary with the GitOps releases:
// "; GitOps releases: 3 rendered, 2 not rendered". A run whose releases were skipped
// never reads as a bare "no findings".
func releasesNote(r *Releases) string {
	if r == nil || r.Rendered+r.Unrendered == 0 {
		return ""
	}
	s := "; GitOps releases: " + strconv.Itoa(r.Rendered) + " rendered"
	if r.Unrendered > 0 {
		s += ", " + strconv.Itoa(r.Unrendered) + " not rendered (PVL024)"
	}
	return s
}

// Baseline is what a baseline file did to a run.
type Baseline struct {
	File    string // as the user named it
	Matched int    // findings it accepted, not reported
	Stale   int    // entries no finding matched any more
}

// Tool identifies pvlint in machine-readable output.
type Tool struct {
	Name           string // "pvlint"
	Version        string // module version, "(devel)" for a source build
	InformationURI string // the project's home page
}

// Format is one output format, chosen with --format by its Name.
type Format struct {
	Name  string
	Write func(w io.Writer, rep *Report) error
}

// Formats returns every output format in the order --help lists them. Adding a
// format is one file with its Write function and one line here.
func Formats() []Format {
	return []Format{
		{Name: "text", Write: WriteText},
		{Name: "json", Write: WriteJSON},
		{Name: "sarif", Write: WriteSARIF},
		{Name: "github", Write: WriteGitHub},
		{Name: "codequality", Write: WriteCodeQuality},
		{Name: "junit", Write: WriteJUnit},
		{Name: "markdown", Write: WriteMarkdown},
		{Name: "checkstyle", Write: WriteCheckstyle},
		{Name: "rdjson", Write: WriteRDJSON},
	}
}

// aliases are the names users bring from other tools for a format: GitLab's Code
// Quality report is Code Climate's format.
var aliases = map[string]string{"gitlab": "codequality", "codeclimate": "codequality"}

// Lookup returns the format called name (or one of its aliases).
func Lookup(name string) (Format, error) {
	if a, ok := aliases[name]; ok {
		name = a
	}
	var names []string
	for _, f := range Formats() {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return Format{}, fmt.Errorf("unknown format %q (want %s)", name, strings.Join(names, ", "))
}

// Counts are the number of findings per severity.
type Counts struct {
	Errors, Warnings, Notes int
}

// Total is the number of findings counted.
func (c Counts) Total() int { return c.Errors + c.Warnings + c.Notes }

// Count tallies findings by severity; a finding without a severity counts as its
// rule's default, as the driver would have reported it.
func Count(findings []lint.Finding) Counts {
	var c Counts
	for _, f := range findings {
		switch severity(f) {
		case lint.Error:
			c.Errors++
		case lint.Warning:
			c.Warnings++
		default:
			c.Notes++
		}
	}
	return c
}

// severity is the finding's level, falling back to its rule's default and then to
// note, so that no format ever prints "none".
func severity(f lint.Finding) lint.Severity {
	if f.Severity != lint.SeverityNone {
		return f.Severity
	}
	if f.Rule != nil && f.Rule.Severity != lint.SeverityNone {
		return f.Rule.Severity
	}
	return lint.Note
}

// ruleID and ruleName tolerate a finding without a rule (never produced by the driver,
// but a format must not panic on it).
func ruleID(f lint.Finding) string {
	if f.Rule == nil {
		return "PVL000"
	}
	return f.Rule.ID
}

func ruleName(f lint.Finding) string {
	if f.Rule == nil {
		return "parse-error"
	}
	return f.Rule.Name
}

// active returns the findings no suppression accepted, and how many were suppressed.
// Reports with no way to mark a finding as accepted (annotations, Code Quality, the
// Markdown table) show only the active ones and mention the others' count.
func active(findings []lint.Finding) (out []lint.Finding, suppressed int) {
	out = make([]lint.Finding, 0, len(findings))
	for _, f := range findings {
		if f.Suppression != nil {
			suppressed++
			continue
		}
		out = append(out, f)
	}
	return out, suppressed
}

// suppressedNote is ", 2 suppressed" or "".
func suppressedNote(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" (%d suppressed, not shown)", n)
}
