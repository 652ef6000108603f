package storage

import (
	"regexp"
	"testing"
	"unicode/utf8"
)

// TestOrdinalPrefix checks the index key against the pattern it replaces,
// ^<template>-<statefulset>-\d+$, for every split of each name.
func TestOrdinalPrefix(t *testing.T) {
	names := []string{"data-db-0", "data-db-12", "data-db-1-0", "data-db-", "data-db-x", "db-0", "-0", "0", "data--3",
		"data-db-0a", "data-db-٣", "data-cache-0", "data", ""}
	for _, name := range names {
		prefix, ok := ordinalPrefix(name)
		for i := 0; i <= len(name); i++ {
			q := name[:i]
			if !utf8.ValidString(q) {
				continue // a split inside a character
			}
			re := regexp.MustCompile(`^` + regexp.QuoteMeta(q+"-") + `\d+$`)
			if want, got := re.MatchString(name), ok && prefix == q; want != got {
				t.Errorf("%q as a claim of prefix %q: pattern says %v, ordinalPrefix (%q, %v) says %v", name, q, want, prefix, ok, got)
			}
		}
	}
}
