package docs

import (
	"regexp"
	"strings"
	"testing"
)

// TestPagesHaveTheSections checks every explain page has what `pvlint explain` promises:
// a title naming the rule, what happens, why, how to fix with a before/after example,
// and sources.
func TestPagesHaveTheSections(t *testing.T) {
	ids := IDs()
	if len(ids) == 0 {
		t.Fatal("no pages embedded")
	}
	title := regexp.MustCompile(`^# PVL\d{3} [a-z0-9-]+\n`)
	for _, id := range ids {
		page := Page(id)
		if !title.MatchString(page) || !strings.HasPrefix(page, "# "+id+" ") {
			t.Errorf("%s.md does not start with `# %s <name>`", id, id)
		}
		for _, s := range []string{"\n## What happens", "\n## Why\n", "\n## How to fix\n", "\n## Sources\n", "\nBefore", "\nAfter", "```yaml\n"} {
			if !strings.Contains(page, s) {
				t.Errorf("%s.md lacks %q", id, strings.TrimSpace(s))
			}
		}
	}
	if Page("PVL999") != "" {
		t.Error("Page of an unknown ID is not empty")
	}
}

// TestPolicyPages: each custom-policy page is titled after its topic, and topics
// name no file outside the pages.
func TestPolicyPages(t *testing.T) {
	topics := PolicyTopics()
	if len(topics) == 0 || topics[0] != "input" {
		t.Fatalf("topics = %v, want input first", topics)
	}
	for _, topic := range topics {
		page := PolicyPage(topic)
		if !strings.HasPrefix(page, "# "+topic+": ") || !strings.Contains(page, "\n## Example\n") {
			t.Errorf("%s.md does not start with `# %s: ` or has no Example section", topic, topic)
		}
	}
	for _, bad := range []string{"", "PVL001", "../PVL001", "policies/input", "nope"} {
		if PolicyPage(bad) != "" {
			t.Errorf("PolicyPage(%q) is not empty", bad)
		}
	}
}
