package output

import (
	"fmt"
	"io"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// SrcRoot is the uriBaseId of every relative location: the working directory, which
// code-scanning uploads map to the checkout.
const SrcRoot = "%SRCROOT%"

// AutomationID names pvlint's runs so that code scanning keeps their alerts apart from
// other tools' (SARIF §3.17.3: the part before the last slash is the category).
const AutomationID = "pvlint/"

// FingerprintKey is the partialFingerprints key of lint.Fingerprint, which survives
// edits that move lines. GitHub computes its own primaryLocationLineHash on upload.
const FingerprintKey = "pvlintFingerprint/v1"

// GitHub code scanning's limits on one SARIF run: results beyond SARIFResultLimit make
// the upload fail, and only SARIFTagLimit tags of a rule are kept.
const (
	SARIFResultLimit = 25000
	SARIFTagLimit    = 10
	// SARIFRelatedLimit is GitHub's limit on the locations of one result: past it the
	// upload is refused (and only the first 100 are displayed).
	SARIFRelatedLimit = 1000
	// SARIFDisplayLimit is how many results of a run GitHub code scanning stores and
	// displays; past it the rest are dropped on ingestion. Its documentation says the
	// most severe are kept, but users report they are not chosen by severity
	// (github/docs#38085), so a run with more results lists them errors first.
	SARIFDisplayLimit = 5000
	// sarifLinkLimit is how many related locations a result's message links to: the
	// chain is clickable in the alert view without the message becoming a list.
	sarifLinkLimit = 10
)

// WriteSARIF writes one SARIF 2.1.0 run: the whole catalogue in tool.driver.rules (a
// rule with no result is still described, so services can show it as passing) and one
// result per finding, its chain as related locations. Columns count Unicode code
// points, as graph.Pos does, and say so in run.columnKind. Results carry pvlint's
// line-independent fingerprint, unique within the run, but no primaryLocationLineHash:
// the upload action computes GitHub's own from the file contents.
//
// The run is shaped for GitHub's ingestion: at most SARIFResultLimit results (the most
// severe are kept and a notification says how many were left out), rule tags capped at
// SARIFTagLimit, a precision on every rule, a security-severity on rules tagged
// "security", and one invocation whose executionSuccessful is false when a rule failed.
func WriteSARIF(w io.Writer, rep *Report) error {
	return newSARIFLog(rep).write(w)
}

// sarifLog is a log as go-sarif models it, but for its results: a report of thousands
// of findings would hold each as a tree of a few dozen objects, and the JSON of all of
// them at once, so each result is built and written in turn (see write).
type sarifLog struct {
	report  *sarif.Report
	run     *sarif.Run // the report's one run, its results left empty
	results int
	result  func(k int) *sarif.Result // the kth result of the run
}

// newSARIFLog models rep's run: the rules, the invocation, and how to build each result.
func newSARIFLog(rep *Report) *sarifLog {
	run := sarif.NewRunWithInformationURI(rep.Tool.Name, rep.Tool.InformationURI)
	version, semantic := sarifVersion(rep.Tool.Version)
	run.Tool.Driver.Version = &version
	if semantic {
		run.Tool.Driver.SemanticVersion = &version
	}
	run.WithColumnKind("unicodeCodePoints")
	run.WithAutomationDetails(sarif.NewRunAutomationDetails().WithID(AutomationID))
	index := map[string]int{}
	add := func(r *lint.Rule) int {
		index[r.ID] = len(run.Tool.Driver.Rules)
		run.Tool.Driver.Rules = append(run.Tool.Driver.Rules, sarifRule(r))
		return index[r.ID]
	}
	for _, r := range rep.Rules {
		add(r)
	}
	findings, dropped := mostSevere(rep.Findings, SARIFResultLimit)
	if len(findings) > SARIFDisplayLimit {
		findings = severityOrder(findings)
	}
	// Every rule is described before the first result is built: a finding's rule
	// missing from Report.Rules is added when first met.
	ruleIndex := make([]int, len(findings))
	for k, f := range findings {
		i, ok := index[ruleID(f)]
		switch {
		case !ok && f.Rule != nil:
			i = add(f.Rule)
		case !ok:
			i = -1 // SARIF's "no rule descriptor"
		}
		ruleIndex[k] = i
	}
	run.AddInvocation(sarifInvocation(rep, len(rep.Findings), len(findings), dropped))
	fps := fingerprints(findings)
	result := func(k int) *sarif.Result {
		f := findings[k]
		res := sarif.NewRuleResult(ruleID(f)).
			WithRuleIndex(ruleIndex[k]).
			WithLevel(sarifLevel(severity(f))).
			WithPartialFingerprints(map[string]string{FingerprintKey: fps[k]})
		if loc := sarifLocation(f.Range, rep.Dir); loc != nil {
			res.AddLocation(loc)
		}
		var links []string
		kept, left := 0, 0
		for j, rel := range f.Related {
			if rendered(rel.Range.File) {
				// A chart's rendered output or a kustomize build is no file: its
				// name ("charts/app#rendered", ".#rendered" from inside the chart)
				// would be a URI that does not resolve.
				continue
			}
			loc := sarifLocation(rel.Range, rep.Dir)
			if loc == nil {
				continue
			}
			if kept == SARIFRelatedLimit {
				left++
				continue
			}
			kept++
			res.AddRelatedLocation(loc.WithID(j + 1).WithMessage(sarif.NewTextMessage(rel.Message)))
			if len(links) < sarifLinkLimit {
				links = append(links, "["+sarifEscape(rel.Message)+"]("+strconv.Itoa(j+1)+")")
			}
		}
		res.WithMessage(sarif.NewTextMessage(sarifMessage(f.Message, links, kept, left)))
		if f.Variant != "" {
			props := sarif.NewPropertyBag().Add("variant", f.Variant)
			if len(f.AlsoIn) > 0 {
				props.Add("variants", f.Variants())
			}
			res.WithProperties(props)
		}
		if s := f.Suppression; s != nil {
			res.AddSuppression(sarifSuppression(s, rep.Dir))
		}
		if fix := sarifFix(f.Fix, rep.Fixes[f.Fix], rep.Dir); fix != nil {
			res.AddFixe(fix)
		}
		return res
	}
	return &sarifLog{report: sarif.NewReport().AddRun(run), run: run, results: len(findings), result: result}
}

// sarifSuppression marks an accepted result (SARIF §3.35): where the suppression is
// kept (inSource for comments and annotations, external for the configuration file),
// accepted, with the user's reason and the suppression's own location. Viewers such as
// code scanning show the result as suppressed instead of as an open alert.
func sarifSuppression(s *lint.Suppression, dir string) *sarif.Suppression {
	out := sarif.NewSuppression().WithKind(s.Kind.String()).WithStatus("accepted").WithJustification(s.Justification)
	if loc := sarifLocation(s.Location, dir); loc != nil {
		out.WithLocation(loc)
	}
	if !s.Expires.IsZero() {
		out.WithProperties(sarif.NewPropertyBag().Add("expires", s.Expires.Format(time.DateOnly)))
	}
	return out
}

// sarifRule describes a rule: its summary as shortDescription, its paragraph as
// fullDescription, and its explain page (Doc) as help, with a plain-text help for
// viewers that do not render Markdown. A user's custom rule is described the same way,
// from its METADATA, in tool.driver.rules: pvlint is the tool that ran it, and the
// driver's rules are what every SARIF consumer, GitHub included, reads for help text
// (tool.extensions would need a toolComponent reference on every result).
func sarifRule(r *lint.Rule) *sarif.ReportingDescriptor {
	text := strings.TrimSpace(r.Description + "\n\n" + r.Remediation)
	markdown := r.Doc
	if strings.TrimSpace(markdown) == "" {
		markdown = text
	}
	d := sarif.NewRule(r.ID).
		WithName(r.Name).
		WithShortDescription(sarif.NewMultiformatMessageString().WithText(r.Summary)).
		WithFullDescription(sarif.NewMultiformatMessageString().WithText(nonEmpty(r.Description, r.Summary))).
		WithHelp(sarif.NewMultiformatMessageString().WithText(nonEmpty(text, r.Summary)).WithMarkdown(nonEmpty(markdown, r.Summary))).
		WithDefaultConfiguration(sarif.NewReportingConfiguration().WithLevel(sarifLevel(r.Severity)))
	tags := append([]string{}, r.Tags...)
	if r.Policy != "" {
		// A user's policy: tagged so code scanning can filter on it.
		tags = append([]string{"custom"}, tags...)
	}
	if len(tags) > SARIFTagLimit {
		tags = tags[:SARIFTagLimit]
	}
	props := sarif.NewPropertyBag().WithTags(tags).
		// pvlint reasons over what the inputs declare and reports no guesses.
		Add("precision", "high")
	if r.Policy != "" {
		props.Add("policy", r.Policy)
	}
	if slices.Contains(r.Tags, "security") {
		props.Add("security-severity", securitySeverity(r.Severity))
	}
	return d.WithProperties(props)
}

// securitySeverity is the CVSS-like score GitHub ranks security alerts by (critical
// from 9.0, high from 7.0, medium from 4.0, low below). pvlint's hazards are outages
// and data loss rather than vulnerabilities, so only rules tagged "security" get one:
// a finding in GitHub's security view must be one a security team would act on.
func securitySeverity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "7.5"
	case lint.Warning:
		return "5.0"
	}
	return "2.0"
}

// resultRank orders results for GitHub: errors, warnings, notes, then suppressed ones.
func resultRank(f lint.Finding) lint.Severity {
	if f.Suppression != nil {
		return lint.SeverityNone
	}
	return severity(f)
}

// severityOrder returns findings errors first, then warnings, notes and suppressed
// findings, each level in report order.
func severityOrder(findings []lint.Finding) []lint.Finding {
	out := slices.Clone(findings)
	slices.SortStableFunc(out, func(a, b lint.Finding) int { return int(resultRank(b)) - int(resultRank(a)) })
	return out
}

// mostSevere keeps at most limit findings: errors before warnings before notes before
// suppressed findings, each level in report order, and the kept ones in their original order. It also returns
// how many were left out.
func mostSevere(findings []lint.Finding, limit int) ([]lint.Finding, int) {
	if len(findings) <= limit {
		return findings, 0
	}
	order := make([]int, len(findings))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return resultRank(findings[order[a]]) > resultRank(findings[order[b]]) })
	keep := order[:limit]
	sort.Ints(keep)
	out := make([]lint.Finding, 0, limit)
	for _, i := range keep {
		out = append(out, findings[i])
	}
	return out, len(findings) - limit
}

// sarifInvocation records how the run went: unsuccessful when a rule failed (each
// failure an error notification), a warning notification when results were left out
// to stay within GitHub's limit, and a note when GitHub will store only some of them.
func sarifInvocation(rep *Report, total, results, dropped int) *sarif.Invocation {
	inv := sarif.NewInvocation().WithExecutionSuccessful(len(rep.InternalErrors) == 0)
	for _, msg := range rep.InternalErrors {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel(sarif.LevelError).
			WithMessage(sarif.NewTextMessage(msg)))
	}
	if dropped > 0 {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel(sarif.LevelWarning).
			WithMessage(sarif.NewTextMessage(fmt.Sprintf(
				"%d findings, more than the %d results GitHub code scanning accepts in a run: the %d least severe are left out of this report; the json format lists them all",
				total, SARIFResultLimit, dropped))))
	}
	if results > SARIFDisplayLimit {
		inv.AddToolExecutionNotification(sarif.NewNotification().WithLevel(sarif.LevelNote).
			WithMessage(sarif.NewTextMessage(fmt.Sprintf(
				"%d results, more than the %d GitHub code scanning stores from a run: the results are listed errors first, so the %d it drops are the least severe",
				results, SARIFDisplayLimit, results-SARIFDisplayLimit))))
	}
	return inv
}

func nonEmpty(s, fallback string) string {
	if strings.TrimSpace(s) == "" {
		return fallback
	}
	return s
}

func sarifLevel(s lint.Severity) string {
	switch s {
	case lint.Error:
		return sarif.LevelError
	case lint.Warning:
		return sarif.LevelWarning
	}
	return sarif.LevelNote
}

// sarifLocation is a physical location with a full region. A range without a line
// (an unreadable file) points at line 1, column 1: code scanning rejects a result
// whose region has no start line. A range without a file has no location at all.
func sarifLocation(r graph.Range, dir string) *sarif.Location {
	if r.File == "" {
		return nil
	}
	start := r.Start
	if start.Line < 1 {
		start = graph.Pos{Line: 1, Column: 1}
	}
	if start.Column < 1 {
		start.Column = 1
	}
	end := r.End
	if end.Line < start.Line || end.Line == start.Line && end.Column <= start.Column || end.Column < 1 {
		end = graph.Pos{Line: start.Line, Column: start.Column + 1}
	}
	region := sarif.NewRegion().
		WithStartLine(int(start.Line)).WithStartColumn(int(start.Column)).
		WithEndLine(int(end.Line)).WithEndColumn(int(end.Column))
	return sarif.NewLocation().WithPhysicalLocation(
		sarif.NewPhysicalLocation().WithArtifactLocation(artifactLocation(r.File, dir)).WithRegion(region))
}

// artifactLocation turns a displayed file name into a URI reference relative to the
// working directory (with ../ for files outside it, so that every location keeps the
// same base); only when no relative form exists (another Windows drive) is it an
// absolute file URI.
func artifactLocation(file, dir string) *sarif.ArtifactLocation {
	p := filepath.FromSlash(file)
	if filepath.IsAbs(p) {
		rel, err := filepath.Rel(dir, p)
		if dir == "" || err != nil {
			abs := filepath.ToSlash(p)
			if !strings.HasPrefix(abs, "/") {
				abs = "/" + abs
			}
			return sarif.NewArtifactLocation().WithURI((&url.URL{Scheme: "file", Path: abs}).String())
		}
		file = filepath.ToSlash(rel)
	}
	return sarif.NewArtifactLocation().WithURI((&url.URL{Path: file}).String()).WithURIBaseID(SrcRoot)
}

// sarifVersion is the tool version as SARIF wants it: starting with a digit (no "v"
// prefix), and also the semantic version when it is one. A source build has no
// version ("(devel)"); it is written 0.0.0-devel so that consumers can still compare.
func sarifVersion(v string) (version string, semantic bool) {
	v = strings.TrimPrefix(v, "v")
	if v == "" || v[0] < '0' || v[0] > '9' {
		return "0.0.0-devel", true
	}
	return v, semver.MatchString(v)
}

// semver is the grammar of semver.org 2.0.0 (without the "v" Go module versions add).
var semver = regexp.MustCompile(`^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// rendered matches the names the loader gives outputs that exist only in memory: a
// chart variant's rendered output ("app#rendered", "app#rendered(ci/x-values.yaml)")
// and a kustomization's build ("overlay#built").
var renderedName = regexp.MustCompile(`#(rendered|built)(\(.*\))?$`)

func rendered(file string) bool { return renderedName.MatchString(file) }

// sarifMessage is a result's message text with its related locations linked
// ("; see [PVC data](1), [StorageClass gp3](2)"), so that code scanning's alert view
// makes the chain clickable, and how many were not linked or not listed at all
// (past SARIFRelatedLimit). Brackets of the message itself are escaped, as SARIF
// requires where a message has links.
func sarifMessage(msg string, links []string, kept, left int) string {
	if len(links) == 0 && left == 0 {
		return msg
	}
	out := sarifEscape(msg)
	if len(links) > 0 {
		out += "; see " + strings.Join(links, ", ")
	}
	if more := kept - len(links); more > 0 {
		out += fmt.Sprintf(" and %d more related location%s", more, pluralS(more))
	}
	if left > 0 {
		out += fmt.Sprintf(" (%d more left out: code scanning accepts at most %d locations per result)", left, SARIFRelatedLimit)
	}
	return out
}

// sarifEscape escapes the square brackets of plain text in a message with links
// (SARIF 2.1.0 §3.11.6), and the backslashes that would escape them.
func sarifEscape(s string) string {
	return sarifEscaper.Replace(s)
}

// sarifEscaper is built once: building a Replacer allocates its lookup tables (tens of
// kilobytes), which per message was most of the memory a large log's writing took.
var sarifEscaper = strings.NewReplacer(`\`, `\\`, "[", `\[`, "]", `\]`)

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
