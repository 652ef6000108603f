package suppress_test

import (
	"testing"

	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/linttest"
)

// TestCatalogue lints the fixtures of testdata/suppress/yaml with the real catalogue
// and checks every rule: a finding its suppression should hide fails the test as
// unexpected, and each suppression problem must be wanted.
func TestCatalogue(t *testing.T) {
	for _, dir := range []string{"yaml", "terraform", "helm"} {
		t.Run(dir, func(t *testing.T) {
			linttest.Run(t, "../../testdata/suppress/"+dir, rules.All()...)
		})
	}
}
