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

// policyPages document what a custom Rego policy sees and returns, one page per
// topic, named after the document it describes (input.md, data.inventory.md).
//
//go:embed policies/*.md
var policyPages embed.FS

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

// PolicyTopics lists the custom-policy pages (`pvlint explain TOPIC`): the input
// documents first, in the order a policy author meets them, then the rest sorted.
func PolicyTopics() []string {
	entries, _ := policyPages.ReadDir("policies")
	var out []string
	for _, e := range entries {
		out = append(out, strings.TrimSuffix(e.Name(), ".md"))
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := topicRank(out[i]), topicRank(out[j])
		if a != b {
			return a < b
		}
		return out[i] < out[j]
	})
	return out
}

// topicRank puts input, then data documents, before the other topics.
func topicRank(topic string) int {
	switch {
	case topic == "input":
		return 0
	case strings.HasPrefix(topic, "data."):
		return 1
	}
	return 2
}

// PolicyPage returns the custom-policy page of a topic, or "" when there is none.
func PolicyPage(topic string) string {
	if strings.ContainsAny(topic, "/\\") {
		return ""
	}
	b, err := policyPages.ReadFile("policies/" + topic + ".md")
	if err != nil {
		return ""
	}
	return string(b)
}
