package promql_test

import (
	"path/filepath"
	"testing"

	"github.com/pvlint/pvlint/rules/linttest"
	"github.com/pvlint/pvlint/rules/promql"
)

// The fixtures under testdata/rules/PVL021 run with every rule's in package rules'
// TestRules.

// TestPvlintAlertsAreQuiet runs PVL021 over what `pvlint alerts` prints (the golden
// files, a PrometheusRule and a plain rules file): the generated alerts must pass the
// rule that judges everyone else's.
func TestPvlintAlertsAreQuiet(t *testing.T) {
	linttest.Run(t, filepath.Join("..", "..", "testdata", "alerts"), promql.AlertNeverFires)
}
