package cli

import (
	"github.com/pvlint/pvlint/cmd/internal/rewrite"
	"github.com/pvlint/pvlint/rules/lint"
)

// resolveFixes turns the edits of each finding's fix into exact text changes of the
// file it came from (or the reason it cannot be changed), from the content the run
// read, so reports propose exactly what `pvlint fix` would write.
func resolveFixes(findings []lint.Finding, sources map[string][]byte, unsafe bool) {
	src := func(file string) ([]byte, bool) {
		b, ok := sources[file]
		return b, ok
	}
	rv := rewrite.NewResolver(src, unsafe)
	for _, f := range findings {
		if f.Fix != nil {
			rv.Resolve(f.Fix, f.Resource)
		}
	}
}
