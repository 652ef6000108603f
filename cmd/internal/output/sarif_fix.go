package output

import (
	"github.com/owenrumney/go-sarif/v3/pkg/report/v210/sarif"
	"github.com/pvlint/pvlint/rules/lint"
)

// sarifFix is a result's proposed fix (SARIF §3.55): its description, and per file
// the exact replacements, each a deleted region (empty for an insertion) given both
// by line and column (code points, as the run's columnKind says) and by byte offset,
// and the inserted text (absent for a deletion); changes are the fix's resolved text
// changes (Report.Fixes). Fixes the CLI could not resolve to
// text (a Helm template, an unsafe fix not asked for) are not written.
func sarifFix(fix *lint.Fix, changes []lint.Change, dir string) *sarif.Fix {
	if fix == nil || len(changes) == 0 {
		return nil
	}
	out := sarif.NewFix().WithDescription(sarif.NewTextMessage(fix.Description))
	var change *sarif.ArtifactChange
	file := ""
	for _, c := range changes {
		if change == nil || c.Range.File != file {
			file = c.Range.File
			change = sarif.NewArtifactChange().WithArtifactLocation(artifactLocation(file, dir))
			out.AddArtifactChange(change)
		}
		s, e := c.Range.Start, c.Range.End
		region := sarif.NewRegion().
			WithStartLine(int(s.Line)).WithStartColumn(int(s.Column)).
			WithEndLine(int(e.Line)).WithEndColumn(int(e.Column)).
			WithByteOffset(int(s.Byte)).WithByteLength(int(e.Byte - s.Byte))
		r := sarif.NewReplacement().WithDeletedRegion(region)
		if c.Text != "" {
			r.WithInsertedContent(sarif.NewArtifactContent().WithText(c.Text))
		}
		change.AddReplacement(r)
	}
	return out
}
