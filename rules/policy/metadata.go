package policy

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/pvlint/pvlint/rules/lint"
)

// metadata is what a policy's METADATA block says about its rule.
type metadata struct {
	id, name           string
	title, description string
	remediation        string
	severity           lint.Severity // SeverityNone: by output rule name
	kinds, tags        []string
}

var (
	idPattern   = regexp.MustCompile(`^[A-Z][A-Z0-9]*[0-9]{3}$`)
	namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// metadataOf reads the METADATA block of a module that declares custom.id. ok is false
// for modules without one (helper libraries, or extra files of a policy's package).
func metadataOf(file string, mod *ast.Module) (m metadata, ok bool, err error) {
	for _, a := range mod.Annotations {
		if a.Custom["id"] == nil {
			continue
		}
		if ok {
			return m, false, fmt.Errorf("policy %s: more than one METADATA block declares custom.id", file)
		}
		ok = true
		if m, err = readMetadata(a); err != nil {
			return m, false, fmt.Errorf("policy %s: METADATA: %w", file, err)
		}
	}
	return m, ok, nil
}

func readMetadata(a *ast.Annotations) (metadata, error) {
	m := metadata{title: strings.TrimSpace(a.Title), description: strings.TrimSpace(a.Description)}
	var err error
	str := func(key string) string {
		v, present := a.Custom[key]
		s, isStr := v.(string)
		if present && !isStr && err == nil {
			err = fmt.Errorf("custom.%s must be a string, not %T", key, v)
		}
		return strings.TrimSpace(s)
	}
	list := func(key string) []string {
		v, present := a.Custom[key]
		if !present {
			return nil
		}
		items, isList := v.([]any)
		var out []string
		for _, it := range items {
			s, isStr := it.(string)
			if !isStr {
				isList = false
				break
			}
			out = append(out, s)
		}
		if !isList && err == nil {
			err = fmt.Errorf("custom.%s must be a list of strings", key)
		}
		return out
	}
	m.id, m.name, m.remediation = str("id"), str("name"), str("remediation")
	m.kinds, m.tags = list("kinds"), list("tags")
	sev := str("severity")
	if err != nil {
		return m, err
	}
	switch {
	case !idPattern.MatchString(m.id):
		return m, fmt.Errorf("custom.id %q must be letters then three digits, like PVL001", m.id)
	case !namePattern.MatchString(m.name):
		return m, fmt.Errorf("custom.name %q must be kebab-case, like immediate-binding", m.name)
	case m.title == "":
		return m, fmt.Errorf("%s has no title", m.id)
	}
	if sev != "" {
		if m.severity, err = lint.ParseSeverity(sev); err != nil {
			return m, fmt.Errorf("custom.severity: %w", err)
		}
	}
	return m, nil
}

// page is the explain page of a policy that has no hand-written one.
func (m metadata) page() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s %s\n\n%s\n", m.id, m.name, m.title)
	if m.description != "" {
		fmt.Fprintf(&b, "\n%s\n", m.description)
	}
	if m.remediation != "" {
		fmt.Fprintf(&b, "\n## How to fix\n\n%s\n", m.remediation)
	}
	return b.String()
}
