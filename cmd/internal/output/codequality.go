package output

import (
	"encoding/json"
	"io"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// The GitLab Code Quality report: a JSON array of Code Climate issues. GitLab reads
// description, check_name, fingerprint, severity, location.path and location.lines;
// type and categories make the same file a valid Code Climate report, and engine_name
// names pvlint in the merge-request widget.
type (
	cqIssue struct {
		Type        string     `json:"type"`
		EngineName  string     `json:"engine_name"`
		CheckName   string     `json:"check_name"`
		Description string     `json:"description"`
		Content     *cqContent `json:"content,omitempty"`
		Categories  []string   `json:"categories"`
		Fingerprint string     `json:"fingerprint"`
		Severity    string     `json:"severity"`
		Location    cqLocation `json:"location"`
	}
	cqContent struct {
		Body string `json:"body"`
	}
	cqLocation struct {
		Path  string  `json:"path"`
		Lines cqLines `json:"lines"`
	}
	cqLines struct {
		Begin int `json:"begin"`
		End   int `json:"end"`
	}
)

// WriteCodeQuality writes a GitLab Code Quality report (artifacts:reports:codequality).
// Paths are relative to the working directory, which in a GitLab job is the project
// directory GitLab resolves them against. Fingerprints are pvlint's line-independent
// ones, unique within the report, so GitLab's merge-request comparison sees a moved
// finding as the same issue. Suppressed findings are left out: Code Quality has no
// way to mark an issue as accepted. Severities map error → critical, warning → major,
// note → info; GitLab's minor and blocker are not used.
func WriteCodeQuality(w io.Writer, rep *Report) error {
	findings, _ := active(rep.Findings)
	fps := fingerprints(findings)
	issues := make([]cqIssue, 0, len(findings))
	for i, f := range findings {
		line := max(int(f.Range.Start.Line), 1)
		issue := cqIssue{
			Type:        "issue",
			EngineName:  rep.Tool.Name,
			CheckName:   ruleID(f) + " " + ruleName(f),
			Description: f.Message,
			Categories:  []string{"Bug Risk"},
			Fingerprint: fps[i],
			Severity:    cqSeverity(severity(f)),
			Location: cqLocation{
				Path:  relativePath(f.Range.File, rep.Dir),
				Lines: cqLines{Begin: line, End: max(int(f.Range.End.Line), line)},
			},
		}
		if v := variantTag(f); v != "" {
			issue.Description += " (" + v + ")"
		}
		if f.Rule != nil && f.Rule.Remediation != "" {
			issue.Content = &cqContent{Body: f.Rule.Remediation}
		}
		issues = append(issues, issue)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(issues)
}

func cqSeverity(s lint.Severity) string {
	switch s {
	case lint.Error:
		return "critical"
	case lint.Warning:
		return "major"
	}
	return "info"
}

// relativePath is a displayed file name relative to the working directory with
// forward slashes — what GitHub annotations and GitLab reports resolve against the
// checkout. Names that are already relative (or <stdin>) are kept; an absolute name
// with no relative form (another Windows drive) is kept as it is.
func relativePath(file, dir string) string {
	p := filepath.FromSlash(file)
	if !filepath.IsAbs(p) || dir == "" {
		return file
	}
	rel, err := filepath.Rel(dir, p)
	if err != nil {
		return file
	}
	return strings.TrimPrefix(filepath.ToSlash(rel), "./")
}
