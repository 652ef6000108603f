package rules

import "github.com/pvlint/pvlint/rules/lint"

// catalogue is the one explicit list of rules with a Check, besides PVL000. Every rule
// listed here works in every input format; tests validate the list.
var catalogue = []*lint.Rule{}
