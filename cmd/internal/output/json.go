package output

import (
	"encoding/json"
	"io"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// JSONVersion is the version of the JSON schema below. It changes only when a field
// is removed or changes meaning; new fields may appear without a new version.
const JSONVersion = 1

// The JSON document. README.md documents it field by field; every field is always
// present (empty arrays, zero numbers, null resource) so consumers need no guards.
type (
	jsonReport struct {
		Version  int           `json:"version"`
		Findings []jsonFinding `json:"findings"`
		// Suppressed are accepted findings, apart so that counting findings needs
		// no filter.
		Suppressed []jsonFinding `json:"suppressed"`
		Summary    jsonSummary   `json:"summary"`
	}
	jsonFinding struct {
		RuleID   string        `json:"ruleId"`
		RuleName string        `json:"ruleName"`
		Severity string        `json:"severity"`
		Message  string        `json:"message"`
		Location jsonLocation  `json:"location"`
		Related  []jsonRelated `json:"related"`
		Resource *jsonResource `json:"resource"`
		Variant  string        `json:"variant"`
		// Variants lists every variant the finding holds in, when more than one.
		Variants []string `json:"variants,omitempty"`
		// Fingerprint is lint.Fingerprint: stable across edits that move lines.
		Fingerprint string `json:"fingerprint"`
		// Suppression is null in findings, set in suppressed.
		Suppression *jsonSuppression `json:"suppression"`
	}
	jsonSuppression struct {
		Kind          string       `json:"kind"` // inSource or external, as in SARIF
		Justification string       `json:"justification"`
		Expires       string       `json:"expires"` // YYYY-MM-DD, "" for never
		Location      jsonLocation `json:"location"`
	}
	jsonLocation struct {
		File        string `json:"file"`
		StartLine   int    `json:"startLine"`
		StartColumn int    `json:"startColumn"`
		EndLine     int    `json:"endLine"`
		EndColumn   int    `json:"endColumn"`
	}
	jsonRelated struct {
		Message  string       `json:"message"`
		Location jsonLocation `json:"location"`
	}
	jsonResource struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
		Namespace  string `json:"namespace"`
		Name       string `json:"name"`
	}
	jsonSummary struct {
		Total      int `json:"total"`
		Errors     int `json:"errors"`
		Warnings   int `json:"warnings"`
		Notes      int `json:"notes"`
		Suppressed int `json:"suppressed"`
		// Baselined and StaleBaseline are Baseline.Matched and Baseline.Stale.
		Baselined     int `json:"baselined"`
		StaleBaseline int `json:"staleBaseline"`
	}
)

// WriteJSON writes the findings as one indented JSON document.
func WriteJSON(w io.Writer, rep *Report) error {
	var findings, suppressed []lint.Finding
	for _, f := range rep.Findings {
		if f.Suppression != nil {
			suppressed = append(suppressed, f)
		} else {
			findings = append(findings, f)
		}
	}
	doc := jsonReport{Version: JSONVersion, Findings: jsonFindings(findings), Suppressed: jsonFindings(suppressed)}
	c := Count(findings)
	doc.Summary = jsonSummary{Total: c.Total(), Errors: c.Errors, Warnings: c.Warnings, Notes: c.Notes, Suppressed: len(suppressed)}
	if b := rep.Baseline; b != nil {
		doc.Summary.Baselined, doc.Summary.StaleBaseline = b.Matched, b.Stale
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

func jsonFindings(fs []lint.Finding) []jsonFinding {
	out := make([]jsonFinding, 0, len(fs))
	for _, f := range fs {
		jf := jsonFinding{
			RuleID:   ruleID(f),
			RuleName: ruleName(f),
			Severity: severity(f).String(),
			Message:  f.Message,
			Location: jsonLoc(f.Range),
			Related:  make([]jsonRelated, 0, len(f.Related)),
			Variant:  f.Variant,
			Variants: variantsIfMany(f),

			Fingerprint: lint.Fingerprint(f),
		}
		for _, rel := range f.Related {
			jf.Related = append(jf.Related, jsonRelated{Message: rel.Message, Location: jsonLoc(rel.Range)})
		}
		if r := f.Resource; r != nil {
			jf.Resource = &jsonResource{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
		}
		if s := f.Suppression; s != nil {
			jf.Suppression = &jsonSuppression{Kind: s.Kind.String(), Justification: s.Justification, Location: jsonLoc(s.Location)}
			if !s.Expires.IsZero() {
				jf.Suppression.Expires = s.Expires.Format(time.DateOnly)
			}
		}
		out = append(out, jf)
	}
	return out
}

// jsonLoc copies a range; unknown positions stay 0, as the README says.
func jsonLoc(r graph.Range) jsonLocation {
	return jsonLocation{File: r.File, StartLine: int(r.Start.Line), StartColumn: int(r.Start.Column), EndLine: int(r.End.Line), EndColumn: int(r.End.Column)}
}
