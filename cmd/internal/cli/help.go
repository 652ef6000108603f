package cli

import (
	"fmt"

	"sort"
	"strings"
)

// wantsHelp reports whether a subcommand's arguments ask for help: -h, -help or
// --help before any "--". Every subcommand answers it the same way, before reading
// its other arguments, so `pvlint config init --help` never writes a file.
func wantsHelp(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "-h", "-help", "--help":
			return true
		}
	}
	return false
}

// subcommandUsage prints the help of the subcommand called name.
func subcommandUsage(e *Env, name string) {
	switch name {
	case "fix":
		e.fixUsage(e.Stdout)
	case "graph":
		fmt.Fprint(e.Stdout, graphHelp)
	case "test":
		fmt.Fprint(e.Stdout, testUsage)
	case "alerts":
		alertsUsage(e.Stdout)
	case "help":
		e.usage(e.Stdout)
	default:
		fmt.Fprint(e.Stdout, subcommandHelp[name])
	}
}

// subcommandHelp is the help of the subcommands that have no flag table of their own.
var subcommandHelp = map[string]string{
	"rules": `Usage: pvlint rules [-f text|json] [--policy DIR] [-c FILE]

Lists the rules: ID, name, default severity and summary, then the custom rules of
--policy and of the configuration file with the policy each comes from.

  -f, --format FORMAT  text (a table, the default) or json (an array of rules, with
                       their tags, options and documentation address)
  --policy DIR         also list the custom Rego policies of DIR (repeatable)
  -c, --config FILE    read custom policies from FILE instead of the nearest .pvlint.yaml
`,
	"explain": `Usage: pvlint explain RULE|TOPIC [--policy DIR] [-c FILE]

Prints a rule's page: what it finds, why it matters, how to fix or configure it.
RULE is an ID (PVL003) or a name (rwo-multi-replica), custom rules included; TOPIC
is a page about writing custom policies (pvlint explain input).

  --policy DIR       also know the custom Rego policies of DIR (repeatable)
  -c, --config FILE  read custom policies from FILE instead of the nearest .pvlint.yaml
`,
	"config": `Usage: pvlint config init [FILE]
       pvlint config schema

init writes a commented starter .pvlint.yaml (or FILE; "-" prints it), never over an
existing file. schema prints the JSON Schema editors validate the file with.
`,
	"chart-pulls": `Usage: pvlint chart-pulls [flags] [PATH ...]

Prints the helm pull lines that fill the chart cache with the charts the GitOps
releases of PATH (Flux HelmReleases, Argo CD Applications) take from Helm and OCI
repositories and the cache (--charts DIR, charts: in .pvlint.yaml) does not hold yet:
one line per chart and version, writing into the first --charts directory. pvlint
never downloads: run the lines in a trusted step, then lint offline with --charts DIR
(docs/gitops.md). It takes the flags of a lint run.
`,
	"version": `Usage: pvlint version (or pvlint --version)

Prints pvlint's version, the commit it was built from when known, the Go toolchain
and the platform.
`,
	"completion": `Usage: pvlint completion bash|zsh|fish

Prints a shell completion script for pvlint's commands, flags and their values.

  bash: source <(pvlint completion bash)        (in ~/.bashrc)
  zsh:  pvlint completion zsh > "${fpath[1]}/_pvlint"
  fish: pvlint completion fish > ~/.config/fish/completions/pvlint.fish
`,
}

// helpCmd is `pvlint help [COMMAND]`.
func (e *Env) helpCmd(args []string) int {
	if len(args) == 0 {
		e.usage(e.Stdout)
		return ExitOK
	}
	if _, ok := subcommands()[args[0]]; !ok {
		names := subcommandNames()
		return e.fail(fmt.Errorf("no help for %q%s (commands: %s)", args[0], didYouMean(args[0], names, quoteBacktick), strings.Join(names, ", ")))
	}
	subcommandUsage(e, args[0])
	return ExitOK
}

// subcommandNames lists the subcommands, sorted.
func subcommandNames() []string {
	names := make([]string, 0, len(subcommands()))
	for name := range subcommands() {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}
