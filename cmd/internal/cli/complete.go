package cli

import (
	"fmt"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules"
)

// completionCmd is `pvlint completion bash|zsh|fish`: a completion script generated
// from the flag table (flagSpecs) and the subcommands, so it never lags behind them.
func (e *Env) completionCmd(args []string) int {
	if len(args) != 1 {
		return e.fail(fmt.Errorf("completion takes one shell: bash, zsh or fish"))
	}
	var script string
	switch args[0] {
	case "bash":
		script = bashCompletion()
	case "zsh":
		script = zshCompletion()
	case "fish":
		script = fishCompletion()
	default:
		return e.fail(fmt.Errorf("unknown shell %q%s (want bash, zsh or fish)", args[0], didYouMean(args[0], []string{"bash", "zsh", "fish"}, quoteFlag)))
	}
	return e.print([]byte(script))
}

// flagValues is what may follow a flag: a fixed list of words, or file names.
func flagValues(s flagSpec) (words []string, files bool) {
	switch s.Name {
	case "format":
		return strings.Split(formatNames(), ", "), false
	case "fail-on":
		return []string{"error", "warning", "note", "never"}, false
	case "color":
		return []string{"auto", "always", "never"}, false
	case "cluster":
		return graph.PlatformNames(), false
	case "context":
		return nil, true
	case "enable", "disable":
		for _, r := range rules.All() {
			words = append(words, r.ID, r.Name)
		}
		return words, false
	}
	return nil, s.Arg == "FILE" || s.Arg == "DIR"
}

// bashCompletion completes subcommands in first position, flags after a dash, the
// values of flags that have a fixed set, and file names everywhere else.
func bashCompletion() string {
	var b strings.Builder
	b.WriteString(`# bash completion for pvlint: source <(pvlint completion bash)
_pvlint() {
    local cur="${COMP_WORDS[COMP_CWORD]}" prev=""
    [[ $COMP_CWORD -gt 0 ]] && prev="${COMP_WORDS[COMP_CWORD-1]}"
    case "$prev" in
`)
	var all []string
	for _, s := range flagSpecs {
		names := "--" + s.Name
		all = append(all, "--"+s.Name)
		if s.Short != "" {
			names += "|-" + s.Short
			all = append(all, "-"+s.Short)
		}
		if s.Arg == "" {
			continue
		}
		words, files := flagValues(s)
		switch {
		case len(words) > 0:
			fmt.Fprintf(&b, "        %s) COMPREPLY=($(compgen -W %q -- \"$cur\")); return ;;\n", names, strings.Join(words, " "))
		case files:
			fmt.Fprintf(&b, "        %s) COMPREPLY=($(compgen -f -- \"$cur\")); return ;;\n", names)
		default:
			fmt.Fprintf(&b, "        %s) COMPREPLY=(); return ;;\n", names)
		}
	}
	fmt.Fprintf(&b, `    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur"))
    elif [[ $COMP_CWORD -eq 1 ]]; then
        COMPREPLY=($(compgen -W %q -- "$cur") $(compgen -f -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}
complete -o filenames -F _pvlint pvlint
`, strings.Join(all, " "), strings.Join(subcommandNames(), " "))
	return b.String()
}

// zshCompletion is a compsys function: _arguments with each flag's description and
// values.
func zshCompletion() string {
	var b strings.Builder
	b.WriteString("#compdef pvlint\n# zsh completion for pvlint: pvlint completion zsh > \"${fpath[1]}/_pvlint\"\n_pvlint() {\n    _arguments -s \\\n")
	for _, s := range flagSpecs {
		desc := zshEscape(s.Usage)
		names := "--" + s.Name
		if s.Short != "" {
			names = "{-" + s.Short + ",--" + s.Name + "}"
		}
		spec := "'[" + desc + "]"
		if s.Arg != "" {
			words, files := flagValues(s)
			action := " "
			switch {
			case len(words) > 0:
				action = "(" + strings.Join(words, " ") + ")"
			case files:
				action = "_files"
			}
			spec += ":" + zshEscape(s.Arg) + ":" + action
		}
		spec += "'"
		if s.Short != "" {
			fmt.Fprintf(&b, "        '(-%s --%s)'%s%s \\\n", s.Short, s.Name, names, spec)
		} else {
			fmt.Fprintf(&b, "        %s%s \\\n", names, spec)
		}
	}
	// The first argument is a command or a path.
	fmt.Fprintf(&b, "        '1: :{_alternative \"commands:command:(%s)\" \"files:file:_files\"}' \\\n        '*:file:_files'\n}\n_pvlint \"$@\"\n", strings.Join(subcommandNames(), " "))
	return b.String()
}

// zshEscape keeps a description inside _arguments' '[...]' and ':...:' fields.
func zshEscape(s string) string {
	return strings.NewReplacer("'", "", "[", "(", "]", ")", ":", " ", "\\", "").Replace(s)
}

// fishCompletion declares each flag with complete -c pvlint, and the subcommands
// for the first argument.
func fishCompletion() string {
	var b strings.Builder
	b.WriteString("# fish completion for pvlint: pvlint completion fish > ~/.config/fish/completions/pvlint.fish\n")
	fmt.Fprintf(&b, "complete -c pvlint -n __fish_use_subcommand -a %s\n", fishQuote(strings.Join(subcommandNames(), " ")))
	for _, s := range flagSpecs {
		line := "complete -c pvlint -l " + s.Name
		if s.Short != "" {
			line += " -s " + s.Short
		}
		if s.Arg != "" {
			words, files := flagValues(s)
			switch {
			case len(words) > 0:
				line += " -x -a " + fishQuote(strings.Join(words, " "))
			case files:
				line += " -r -F"
			default:
				line += " -x"
			}
		}
		line += " -d " + fishQuote(s.Usage)
		b.WriteString(line + "\n")
	}
	return b.String()
}

// fishQuote single-quotes s for fish, where only \ and ' are special inside.
func fishQuote(s string) string {
	return "'" + strings.NewReplacer(`\`, `\\`, `'`, `\'`).Replace(s) + "'"
}
