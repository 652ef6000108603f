package cli

import (
	"github.com/pvlint/pvlint/cmd/internal/rewrite"
	"github.com/pvlint/pvlint/rules/lint"
)

// resolveFixes turns the edits of each finding's fix into exact text changes of the
// file it came from, from the content the run read, so reports propose exactly what
// `pvlint fix` would write. The result is keyed by fix; a fix that cannot be applied
// has no entry. The findings and their fixes, the rules' values, are not changed.
func resolveFixes(findings []lint.Finding, sources map[string][]byte, unsafe bool) map[*lint.Fix][]lint.Change {
	rv := rewrite.NewResolver(source(sources), unsafe)
	out := map[*lint.Fix][]lint.Change{}
	for _, f := range findings {
		if f.Fix == nil {
			continue
		}
		if res := rv.Resolve(f.Fix, f.Resource); len(res.Changes) > 0 {
			out[f.Fix] = res.Changes
		}
	}
	return out
}

// source reads a file's content the run read by its displayed name.
func source(sources map[string][]byte) func(file string) ([]byte, bool) {
	return func(file string) ([]byte, bool) {
		b, ok := sources[file]
		return b, ok
	}
}
