// Package docs holds the explain pages of pvlint's rules: Markdown files named after
// rule IDs (PVL002.md), embedded in the binary so `pvlint explain` and SARIF help work
// offline. Rules fill their Doc field from Page; tests check that every rule in the
// catalogue has a page.
package docs

import (
	"embed"
	"sort"
	"strings"
)

//go:embed PVL*.md
var pages embed.FS

// Page returns the explain page of the rule with the given ID, or "" when it has none.
func Page(id string) string {
	b, err := pages.ReadFile(id + ".md")
	if err != nil {
		return ""
	}
	return string(b)
}

// IDs lists the rule IDs that have a page, sorted.
func IDs() []string {
	entries, _ := pages.ReadDir(".")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".md"))
	}
	sort.Strings(out)
	return out
}
