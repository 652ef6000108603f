package output

import (
	"encoding/json"
	"io"

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
		Summary  jsonSummary   `json:"summary"`
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
		// Fingerprint is lint.Fingerprint: stable across edits that move lines.
		Fingerprint string `json:"fingerprint"`
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
		Total    int `json:"total"`
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
		Notes    int `json:"notes"`
	}
)

// WriteJSON writes the findings as one indented JSON document.
func WriteJSON(w io.Writer, rep *Report) error {
	doc := jsonReport{Version: JSONVersion, Findings: make([]jsonFinding, 0, len(rep.Findings))}
	for _, f := range rep.Findings {
		jf := jsonFinding{
			RuleID:   ruleID(f),
			RuleName: ruleName(f),
			Severity: severity(f).String(),
			Message:  f.Message,
			Location: jsonLoc(f.Range),
			Related:  make([]jsonRelated, 0, len(f.Related)),
			Variant:  f.Variant,

			Fingerprint: lint.Fingerprint(f),
		}
		for _, rel := range f.Related {
			jf.Related = append(jf.Related, jsonRelated{Message: rel.Message, Location: jsonLoc(rel.Range)})
		}
		if r := f.Resource; r != nil {
			jf.Resource = &jsonResource{APIVersion: r.APIVersion, Kind: r.Kind, Namespace: r.Namespace, Name: r.Name}
		}
		doc.Findings = append(doc.Findings, jf)
	}
	c := Count(rep.Findings)
	doc.Summary = jsonSummary{Total: c.Total(), Errors: c.Errors, Warnings: c.Warnings, Notes: c.Notes}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(doc)
}

// jsonLoc copies a range; unknown positions stay 0, as the README says.
func jsonLoc(r graph.Range) jsonLocation {
	return jsonLocation{File: r.File, StartLine: r.Start.Line, StartColumn: r.Start.Column, EndLine: r.End.Line, EndColumn: r.End.Column}
}
