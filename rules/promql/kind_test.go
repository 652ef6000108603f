package promql

import (
	"testing"

	"github.com/pvlint/pvlint/parsers/promrules"
)

// TestRulesFileKind keeps the rule's copy of the synthetic type equal to the parser's.
func TestRulesFileKind(t *testing.T) {
	if rulesFileAPIVersion != promrules.APIVersion || rulesFileKind != promrules.Kind {
		t.Errorf("rule looks for %s %s, parser makes %s %s", rulesFileAPIVersion, rulesFileKind, promrules.APIVersion, promrules.Kind)
	}
}
