package lint

import (
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
)

// SuppressionKind says where a suppression was written. The values are SARIF's
// suppression kinds, so code-scanning tools can tell an ignore committed next to the
// code from one kept in the linter's configuration.
type SuppressionKind int

// Suppression kinds.
const (
	// InSource is a `# pvlint:ignore` comment or an `ignore.pvlint.io/...` annotation
	// in the linted input itself.
	InSource SuppressionKind = iota + 1
	// External is an `ignore:` entry of the configuration file.
	External
)

func (k SuppressionKind) String() string {
	switch k {
	case InSource:
		return "inSource"
	case External:
		return "external"
	}
	return "none"
}

// Suppression records why a finding was accepted on purpose. A suppressed finding
// stays in reports that can show it (SARIF suppressions, JSON) and in summary counts,
// and never fails a run.
type Suppression struct {
	Kind SuppressionKind
	// Justification is the reason the user wrote; every suppression has one.
	Justification string
	// Expires is the last day the suppression applies; zero means it does not expire.
	Expires time.Time
	// Location is where the suppression is written: the comment, the annotation key
	// or the configuration entry.
	Location graph.Range
}
