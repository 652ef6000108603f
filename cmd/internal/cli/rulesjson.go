package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/pvlint/pvlint/rules/lint"
)

// rulesFormat takes --format (or -f) out of the arguments of `pvlint rules`, where
// it chooses the listing: text (a table) or json. It returns the other arguments.
func rulesFormat(args []string) (format string, rest []string, err error) {
	format = "text"
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			rest = append(rest, args[i:]...)
			break
		}
		name, value, hasValue := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(a, "-"), "-"), "=")
		if !strings.HasPrefix(a, "-") || name != "format" && name != "f" {
			rest = append(rest, a)
			continue
		}
		if !hasValue {
			if i+1 >= len(args) {
				return "", nil, errors.New("flag --format needs a value (text or json)")
			}
			i++
			value = args[i]
		}
		format = value
	}
	if format != "text" && format != "json" {
		return "", nil, fmt.Errorf("--format: unknown format %q for rules (want text or json)", format)
	}
	return format, rest, nil
}

// ruleJSON is one rule in `pvlint rules -f json`.
type ruleJSON struct {
	ID          string       `json:"id"`
	Name        string       `json:"name"`
	Severity    string       `json:"severity"`
	Summary     string       `json:"summary"`
	Description string       `json:"description,omitempty"`
	Remediation string       `json:"remediation,omitempty"`
	Tags        []string     `json:"tags,omitempty"`
	Kinds       []string     `json:"kinds,omitempty"`
	Options     []optionJSON `json:"options,omitempty"`
	// Policy is the file of a custom rule (--policy); absent for pvlint's own.
	Policy string `json:"policy,omitempty"`
}

type optionJSON struct {
	Name    string `json:"name"`
	Default string `json:"default"`
	Usage   string `json:"usage"`
}

// writeRulesJSON lists the catalogue as a JSON array, in catalogue order.
func writeRulesJSON(w io.Writer, all []*lint.Rule) error {
	out := make([]ruleJSON, 0, len(all))
	for _, r := range all {
		rj := ruleJSON{ID: r.ID, Name: r.Name, Severity: r.Severity.String(), Summary: r.Summary,
			Description: r.Description, Remediation: r.Remediation, Tags: r.Tags, Kinds: r.Kinds, Policy: r.Policy}
		for _, o := range r.Options {
			rj.Options = append(rj.Options, optionJSON{Name: o.Name, Default: o.Default, Usage: o.Usage})
		}
		out = append(out, rj)
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(out)
}
