package suppress_test

import (
	"strings"
	"testing"
	"time"

	"github.com/pvlint/pvlint/rules/suppress"
)

// TestMatchPathManyDoubleStars is issue 27's exclude glob of 16 "**" segments in a
// committed .pvlint.yaml, against a path 40 directories deep that it does not match
// (it asks for a last segment "z"): trying every split of the path for each "**"
// is some 10^12 steps; deciding each pair of positions once is 17·41. The deadline
// is a hang guard only, far above what the bounded matcher needs.
func TestMatchPathManyDoubleStars(t *testing.T) {
	pattern := strings.Repeat("**/", 16) + "z"
	name := strings.Repeat("d/", 40) + "app.yaml"
	done := make(chan bool, 1)
	go func() { done <- suppress.MatchPath(pattern, name) }()
	select {
	case got := <-done:
		if got {
			t.Errorf("MatchPath(%q, %q) = true, want false", pattern, name)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("MatchPath did not finish within 30 s: the matcher is exponential in the number of ** segments")
	}
	if !suppress.MatchPath(pattern, strings.Repeat("d/", 40)+"z/app.yaml") {
		t.Error("the pattern does not match a path with a z directory")
	}
}
