package rules_test

import (
	"testing"

	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/linttest"
)

// TestUnknownsSpeakOnlyThroughPVL018 runs every rule over claims, classes, autoscalers
// and fields pvlint cannot know (issue 5: no rule fires on a resource whose claim,
// class or autoscaler is unknown unless its definition says so). The fixtures expect
// PVL018's findings only, so a rule that guesses an unknown fails as unexpected.
func TestUnknownsSpeakOnlyThroughPVL018(t *testing.T) {
	linttest.Run(t, "../testdata/unknowns", rules.All()...)
}
