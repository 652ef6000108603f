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
	links              []string // related_resources, listed on the generated page
	at                 *ast.Location
}

var (
	// idPattern is the shape of pvlint's own IDs.
	idPattern = regexp.MustCompile(`^[A-Z][A-Z0-9]*[0-9]{3}$`)
	// customIDPattern is what a user's custom.id may be: letters and digits in words
	// joined by dots, dashes or underscores, at most 63 characters, so that it also
	// works in an ignore.pvlint.io/ID annotation key.
	customIDPattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9]*([._-][A-Za-z0-9]+)*$`)
	// reservedID are IDs a user's policy may not take: PVL followed by a digit is
	// pvlint's catalogue, today's and tomorrow's.
	reservedID  = regexp.MustCompile(`(?i)^PVL[0-9]`)
	namePattern = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
)

// CustomIDPrefix starts the ID of a user's policy that declares no custom.id: the
// package path follows (package main is user.main). The dot keeps it apart from
// pvlint's IDs, which are letters and digits only.
const CustomIDPrefix = "user."

// metadataOf reads the METADATA block of a module that describes its package's rule:
// the block that declares custom.id, or else, for a user's policy, a block of package
// or subpackages scope. ok is false for modules without one (helper libraries, or
// extra files of a policy's package).
func metadataOf(file string, mod *ast.Module, custom bool) (m metadata, ok bool, err error) {
	var chosen *ast.Annotations
	for _, a := range mod.Annotations {
		if a.Custom["id"] == nil {
			continue
		}
		if chosen != nil {
			return m, false, problemAt(a.Location, file, "more than one METADATA block declares custom.id")
		}
		chosen = a
	}
	if chosen == nil && custom {
		for _, a := range mod.Annotations {
			if a.Scope == "package" || a.Scope == "subpackages" {
				chosen = a
				break
			}
		}
	}
	if chosen == nil {
		return m, false, nil
	}
	if m, err = readMetadata(chosen, custom); err != nil {
		return m, false, problemAt(chosen.Location, file, "METADATA: %v", err)
	}
	return m, true, nil
}

func readMetadata(a *ast.Annotations, custom bool) (metadata, error) {
	m := metadata{title: strings.TrimSpace(a.Title), description: strings.TrimSpace(a.Description), at: a.Location}
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
	for _, r := range a.RelatedResources {
		if r.Ref.String() != "" {
			m.links = append(m.links, r.Ref.String())
		}
	}
	if sev != "" {
		if m.severity, err = lint.ParseSeverity(sev); err != nil {
			return m, fmt.Errorf("custom.severity: %w", err)
		}
	}
	if custom {
		return m, checkCustom(m)
	}
	switch {
	case !idPattern.MatchString(m.id):
		return m, fmt.Errorf("custom.id %q must be letters then three digits, like PVL001", m.id)
	case !namePattern.MatchString(m.name):
		return m, fmt.Errorf("custom.name %q must be kebab-case, like immediate-binding", m.name)
	case m.title == "":
		return m, fmt.Errorf("%s has no title", m.id)
	}
	return m, nil
}

// checkCustom validates what a user's METADATA sets; everything is optional.
func checkCustom(m metadata) error {
	switch {
	case m.id != "" && (!customIDPattern.MatchString(m.id) || len(m.id) > 63):
		return fmt.Errorf("custom.id %q must be letters and digits, in words joined by '.', '-' or '_', at most 63 characters (like ACME001 or team.labels)", m.id)
	case reservedID.MatchString(m.id):
		return fmt.Errorf("custom.id %q is reserved: IDs starting with PVL and a digit are pvlint's own rules", m.id)
	case m.name != "" && !namePattern.MatchString(m.name):
		return fmt.Errorf("custom.name %q must be kebab-case, like require-owner-label", m.name)
	}
	return nil
}

// derive fills what a user's policy left out from its package path (without the
// data. prefix): the ID CustomIDPrefix+path, the name path in kebab-case, a title
// naming the package.
func (m *metadata) derive(file, pkg string) error {
	path := strings.TrimPrefix(pkg, "data.")
	if m.id == "" {
		m.id = CustomIDPrefix + path
		if !customIDPattern.MatchString(m.id) || len(m.id) > 63 {
			return problemAt(nil, file, "cannot make a rule ID from package %s; set custom.id in its METADATA block", path)
		}
	}
	if m.name == "" {
		m.name = strings.ToLower(strings.NewReplacer(".", "-", "_", "-").Replace(path))
		if !namePattern.MatchString(m.name) {
			return problemAt(nil, file, "cannot make a rule name from package %s; set custom.name in its METADATA block", path)
		}
	}
	if m.title == "" {
		m.title = "custom policy " + path
	}
	return nil
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
	if len(m.links) > 0 {
		b.WriteString("\n## See also\n\n")
		for _, l := range m.links {
			fmt.Fprintf(&b, "- %s\n", l)
		}
	}
	return b.String()
}
