// Parsing a command line against a flag table (flags.go declares the tables).

package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/lint"
)

// appendNames appends the entries of a comma-separated list of rule IDs or names.
func appendNames(dst []string, list string) []string {
	for s := range strings.SplitSeq(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			dst = append(dst, s)
		}
	}
	return dst
}

// resolveRules looks each name of --flag up in the catalogue.
func resolveRules(catalogue []*lint.Rule, flag string, names []string) ([]*lint.Rule, error) {
	out := make([]*lint.Rule, 0, len(names))
	for _, n := range names {
		r := rules.Lookup(catalogue, n)
		if r == nil {
			return nil, fmt.Errorf("--%s: unknown rule %q%s (see `pvlint rules`)", flag, n, didYouMean(n, ruleNames(catalogue), strconv.Quote))
		}
		out = append(out, r)
	}
	return out, nil
}

// errHelp is returned by parseFlags for -h and --help.
var errHelp = errors.New("help requested")

// parseFlags reads the command line of a lint run against flagSpecs (parseArgs),
// then settles its reports (resolveTargets).
func parseFlags(args []string) (*Config, error) {
	c, err := parseArgs(flagSpecs, args)
	if err != nil {
		return nil, err
	}
	if err := c.resolveTargets(); err != nil {
		return nil, err
	}
	return c, nil
}

// parseArgs reads flags of the table specs and paths in any order: flags may follow
// paths, "--" ends the flags, and "-" alone is the path of standard input. A flag is
// written --name or -name, its value as the next argument or after "=".
func parseArgs(specs []flagSpec, args []string) (*Config, error) {
	c := &Config{Explicit: map[string]bool{}}
	for _, s := range specs {
		if s.Default != "" {
			if err := s.Set(c, s.Default); err != nil {
				return nil, fmt.Errorf("default of --%s: %w", s.Name, err)
			}
		}
	}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			c.Paths = append(c.Paths, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			c.Paths = append(c.Paths, a)
			continue
		}
		name := strings.TrimPrefix(a[1:], "-")
		name, value, hasValue := strings.Cut(name, "=")
		if name == "h" || name == "help" {
			return nil, errHelp
		}
		s := lookupFlag(specs, name)
		// A short flag with its value attached, as other linters take it: -fjson,
		// -osarif.json (a long name wins: -format is --format).
		if sh := lookupFlag(specs, a[1:2]); s == nil && a[1] != '-' && len(a) > 2 && sh != nil && sh.Short == a[1:2] && sh.Arg != "" {
			s, value, hasValue = sh, a[2:], true
		}
		if s == nil {
			return nil, fmt.Errorf("unknown flag %s%s (see `pvlint --help`)", a, didYouMean("--"+name, flagNames(specs), quoteFlag))
		}
		switch {
		case s.Arg == "" && !hasValue:
			value = "true"
		case s.Arg != "" && !hasValue:
			if i+1 >= len(args) {
				return nil, fmt.Errorf("flag --%s needs a value (%s)", s.Name, s.Arg)
			}
			i++
			value = args[i]
		}
		if err := s.Set(c, value); err != nil {
			return nil, fmt.Errorf("--%s: %w", s.Name, err)
		}
		c.Explicit[s.Name] = true
	}
	return c, nil
}

func lookupFlag(specs []flagSpec, name string) *flagSpec {
	for i := range specs {
		if s := &specs[i]; s.Name == name || s.Short != "" && s.Short == name {
			return s
		}
	}
	return nil
}
