package cli

import (
	"errors"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/pvlint/pvlint/rules"
	"github.com/pvlint/pvlint/rules/docs"
	"github.com/pvlint/pvlint/rules/lint"
)

// subcommands maps the first argument to its command. A directory with one of these
// names is linted as ./rules, ./version...
func subcommands() map[string]func(e *Env, args []string) int {
	return map[string]func(e *Env, args []string) int{
		"rules":       (*Env).rulesCmd,
		"graph":       (*Env).graphCmd,
		"fix":         (*Env).fixCmd,
		"explain":     (*Env).explainCmd,
		"alerts":      (*Env).alertsCmd,
		"chart-pulls": (*Env).chartsCmd,
		"config":      (*Env).configCmd,
		"test":        (*Env).testCmd,
		"version":     (*Env).versionCmd,
		"help":        (*Env).helpCmd,
		"completion":  (*Env).completionCmd,
	}
}

// subcommandFlags parses the arguments of a subcommand that takes some of the lint
// flags (allowed, by long name) and positional arguments.
func subcommandFlags(cmd string, args []string, allowed ...string) (*Config, error) {
	c, err := parseFlags(args)
	if err != nil {
		return nil, err
	}
	for name := range c.Explicit {
		if !slices.Contains(allowed, name) {
			return nil, fmt.Errorf("%s does not take --%s", cmd, name)
		}
	}
	return c, nil
}

// subcommandCatalogue is the catalogue a lint run in the working directory would
// use, custom policies of --policy and the configuration file included.
func (e *Env) subcommandCatalogue(c *Config) ([]*lint.Rule, error) {
	dir, err := os.Getwd()
	if err != nil {
		return nil, fmt.Errorf("working directory: %w", err)
	}
	cfg, err := readConfig(c, dir)
	if err != nil {
		return nil, err
	}
	return e.catalogue(c, cfg, dir)
}

// rulesCmd prints the catalogue as a table, then the custom rules of --policy
// paths as a second table naming each rule's file.
func (e *Env) rulesCmd(args []string) int {
	format, args, err := rulesFormat(args)
	if err != nil {
		return e.fail(err)
	}
	c, err := subcommandFlags("rules", args, "policy", "config")
	if errors.Is(err, errHelp) {
		e.usage(e.Stdout)
		return ExitOK
	}
	if err != nil {
		return e.fail(err)
	}
	if len(c.Paths) > 0 {
		return e.fail(fmt.Errorf("rules takes no arguments, got %q", c.Paths[0]))
	}
	all, err := e.subcommandCatalogue(c)
	if err != nil {
		return e.fail(err)
	}
	if format == "json" {
		if err := writeRulesJSON(e.Stdout, all); err != nil {
			fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
			return ExitError
		}
		return ExitOK
	}
	tw := tabwriter.NewWriter(e.Stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tSUMMARY")
	var custom []*lint.Rule
	for _, r := range all {
		if r.Policy != "" {
			custom = append(custom, r)
			continue
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Summary)
	}
	if err := tw.Flush(); err != nil {
		fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
		return ExitError
	}
	if len(custom) > 0 {
		fmt.Fprint(e.Stdout, "\nCustom rules (--policy):\n")
		fmt.Fprintln(tw, "ID\tNAME\tSEVERITY\tSUMMARY\tPOLICY")
		for _, r := range custom {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Name, r.Severity, r.Summary, r.Policy)
		}
		if err := tw.Flush(); err != nil {
			fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
			return ExitError
		}
	}
	return ExitOK
}

// explainCmd prints one rule's page: a header with what users configure and fix,
// then its Doc (or its description when it has no page yet). A custom-policy topic
// (input, data.inventory...) prints that page instead.
func (e *Env) explainCmd(args []string) int {
	c, err := subcommandFlags("explain", args, "policy", "config")
	if errors.Is(err, errHelp) {
		e.usage(e.Stdout)
		return ExitOK
	}
	if err != nil {
		return e.fail(err)
	}
	if len(c.Paths) != 1 {
		return e.fail(fmt.Errorf("explain takes one rule ID or name, e.g. `pvlint explain PVL003`, or a topic: clusters, context, %s", strings.Join(docs.PolicyTopics(), ", ")))
	}
	if page := clusterTopics[c.Paths[0]]; page != nil {
		fmt.Fprint(e.Stdout, page())
		return ExitOK
	}
	if page := docs.PolicyPage(c.Paths[0]); page != "" {
		fmt.Fprint(e.Stdout, page)
		return ExitOK
	}
	all, err := e.subcommandCatalogue(c)
	if err != nil {
		return e.fail(err)
	}
	r := rules.Lookup(all, c.Paths[0])
	if r == nil {
		return e.fail(fmt.Errorf("unknown rule %q%s (see `pvlint rules`)", c.Paths[0], didYouMean(c.Paths[0], ruleNames(all), strconv.Quote)))
	}
	fmt.Fprint(e.Stdout, explain(r))
	return ExitOK
}

// explain renders a rule's page as Markdown, readable as plain text: the page's own
// title (or "# ID name"), a header with what users configure and fix, then the page
// (or the rule's description when it has no page).
func explain(r *lint.Rule) string {
	title := "# " + r.ID + " " + r.Name
	body := strings.TrimSpace(r.Doc)
	if first, rest, _ := strings.Cut(body, "\n"); strings.HasPrefix(first, "# ") {
		title, body = first, strings.TrimSpace(rest)
	}
	if body == "" {
		body = strings.TrimSpace(r.Description)
	}
	var b strings.Builder
	b.WriteString(title + "\n\n")
	fmt.Fprintf(&b, "ID: %s\nName: %s\nSeverity: %s\nSummary: %s\n", r.ID, r.Name, r.Severity, r.Summary)
	if r.Policy != "" {
		fmt.Fprintf(&b, "Policy: %s (custom)\n", r.Policy)
	}
	if r.Remediation != "" {
		fmt.Fprintf(&b, "Remediation: %s\n", r.Remediation)
	}
	if len(r.Tags) > 0 {
		fmt.Fprintf(&b, "Tags: %s\n", strings.Join(r.Tags, ", "))
	}
	if body != "" {
		b.WriteString("\n" + body + "\n")
	}
	return b.String()
}

// versionCmd prints the version, the commit when the build recorded one, and the Go
// toolchain.
func (e *Env) versionCmd(args []string) int {
	if len(args) > 0 {
		return e.fail(fmt.Errorf("version takes no arguments, got %q", args[0]))
	}
	var line strings.Builder
	line.WriteString("pvlint " + Version())
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, s := range bi.Settings {
			if s.Key == "vcs.revision" && s.Value != "" {
				line.WriteString(" " + s.Value)
			}
		}
	}
	fmt.Fprintf(e.Stdout, "%s %s %s/%s\n", line.String(), runtime.Version(), runtime.GOOS, runtime.GOARCH)
	return ExitOK
}
