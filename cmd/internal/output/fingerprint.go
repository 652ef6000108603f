package output

import (
	"crypto/sha256"
	"encoding/hex"
	"regexp"
	"strconv"

	"github.com/pvlint/pvlint/rules/lint"
)

// fingerprints returns one fingerprint per finding, unique within the report, for the
// formats whose consumers key alerts on it (SARIF partialFingerprints, GitLab Code
// Quality). lint.Fingerprint leaves line numbers out on purpose, so two findings can
// share one: a rule reporting two facts about the same field (a mode combination and
// a version gate on one accessModes list), one resource defined in two files, or two
// parse errors in one file. GitHub and GitLab would merge those into one alert, so
// every later occurrence is told apart — first by its message with numbers removed,
// then by the file it is in, then by its rank — which keeps the result stable across
// runs as long as the findings stay. The first occurrence keeps lint.Fingerprint
// itself, so it matches the JSON output and baselines.
func fingerprints(findings []lint.Finding) []string {
	out := make([]string, len(findings))
	seen := make(map[string]bool, len(findings))
	rank := map[string]int{} // the last rank used per fingerprint, so ranking stays linear
	for i, f := range findings {
		fp := lint.Fingerprint(f)
		if seen[fp] {
			fp = rehash(fp, numbers.ReplaceAllString(f.Message, "#"))
		}
		if seen[fp] {
			fp = rehash(fp, f.Range.File)
		}
		if seen[fp] {
			base := fp
			for n := rank[base] + 2; seen[fp]; n++ {
				fp = rehash(base, strconv.Itoa(n))
				rank[base] = n - 1
			}
		}
		seen[fp] = true
		out[i] = fp
	}
	return out
}

var numbers = regexp.MustCompile(`\d+`)

// rehash derives a new fingerprint of the same length from fp and a distinguishing
// part.
func rehash(fp, part string) string {
	h := sha256.Sum256([]byte(fp + "\x00" + part))
	return hex.EncodeToString(h[:])[:len(fp)]
}
