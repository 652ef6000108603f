package cli

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// chartsCmd prints the helm pull lines that fill the chart cache with the charts the
// GitOps releases of the paths need and the cache (--charts, charts:) lacks: one line
// per chart and version, for a trusted CI step to run before pvlint lints the pull
// request offline (docs/gitops.md). It reads the inputs as a lint run does (the same
// flags and configuration) and reports nothing else.
func (e *Env) chartsCmd(args []string) int {
	c, err := parseFlags(args)
	if errors.Is(err, errHelp) {
		fmt.Fprint(e.Stdout, subcommandHelp["chart-pulls"])
		return ExitOK
	}
	if err != nil {
		return e.fail(err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return e.fail(fmt.Errorf("working directory: %w", err))
	}
	p, err := e.newPlan(c, dir)
	if err != nil {
		return e.fail(err)
	}
	res := e.loadInputs(p)
	rs := res.Releases
	into := "" // the first cache directory, as the user wrote it
	if len(p.c.Charts) > 0 {
		into = p.c.Charts[0]
		if rel, err := filepath.Rel(dir, into); err == nil && filepath.IsLocal(rel) {
			into = filepath.ToSlash(rel)
		}
	}
	fmt.Fprintf(e.Stdout, "# pvlint chart-pulls: GitOps releases: %d rendered, %d not rendered; %d charts to pull into the chart cache\n",
		rs.Rendered, rs.Unrendered, len(rs.Pulls))
	for _, pl := range rs.Pulls {
		fmt.Fprintln(e.Stdout, pl.LineInto(into))
	}
	return ExitOK
}
