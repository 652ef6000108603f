package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/pvlint/pvlint/cmd/internal/storagegraph"
)

// graphFormats are the pictures `pvlint graph --format` draws.
var graphFormats = map[string]func(io.Writer, *storagegraph.Picture) error{
	"mermaid": storagegraph.Mermaid,
	"dot":     storagegraph.DOT,
}

// graphCmd is `pvlint graph [flags] [PATH ...]`: a lint run whose report is the
// storage graph with the findings marked on it. Every flag of a lint run applies
// (graphFlagSpecs) except --format, which here names the picture: mermaid (default) or
// dot. Suppressed and baselined findings are not drawn, nor, with --new-from-patch or
// --new-from-rev, the findings that are not new. The run is a lint run's analysis
// (analyze), under the same run budget (--limit run-time): the exit code is 0 when
// the picture was written, whatever it shows, and 3 when the budget was spent before
// every input was linted (the picture shows what was).
func (e *Env) graphCmd(args []string) int {
	c, err := parseArgs(graphFlagSpecs, args)
	if errors.Is(err, errHelp) {
		fmt.Fprint(e.Stdout, graphHelp)
		return ExitOK
	}
	if err != nil {
		return e.fail(err)
	}
	draw, findingsOnly := graphFormats[c.Picture], c.FindingsOnly
	e.keepWorlds = true
	an, err := e.analyze(c)
	if err != nil {
		return e.fail(err)
	}
	p, acc := an.plan, an.acc
	c = p.c
	for _, err := range an.internal {
		fmt.Fprintf(e.Stderr, "pvlint: %s (its findings are not drawn)\n", firstLine(err))
	}
	// --new-from-patch and --new-from-rev mark only the new findings, as the lint run
	// with the same flags reports only them.
	if c.NewFromPatch != "" {
		if err := keepNew(c.NewFromPatch, p.dir, acc); err != nil {
			return e.fail(err)
		}
	}
	if c.NewFromRev != "" {
		if err := e.keepNewSinceRev(c, p.dir, acc); err != nil {
			return e.fail(err)
		}
	}
	if e.backstop != nil {
		e.backstop.Stop() // the analyses are done: what is left is drawing
	}
	code := ExitOK
	if an.unfinished > 0 {
		fmt.Fprintf(e.Stderr, "pvlint: the run's time budget of %s (--limit run-time) was spent: %d input%s not linted; the graph is incomplete\n",
			runTime(c.Limits), an.unfinished, plural(an.unfinished))
		code = ExitIncomplete
	}
	var buf bytes.Buffer
	pic := storagegraph.Build(an.worlds, acc.reported())
	if findingsOnly {
		pic = pic.FindingsOnly()
	}
	// --findings-only with nothing found draws nothing: an empty output, so that a
	// script (the GitHub Action's job summary) can test for a picture.
	if !findingsOnly || len(pic.Subgraphs) > 0 {
		if err := draw(&buf, pic); err != nil {
			return e.fail(fmt.Errorf("draw graph: %w", err))
		}
	}
	if c.Output != "" && c.Output != "-" {
		if err := os.WriteFile(c.Output, buf.Bytes(), 0o644); err != nil {
			return e.fail(fmt.Errorf("write graph: %w", err))
		}
		return code
	}
	if _, err := e.Stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
		return ExitError
	}
	return code
}

const graphHelp = `Usage: pvlint graph [flags] [PATH ...]

Prints the storage graph of the manifests — workloads that mount claims, with their
replicas and autoscalers, the claims and their access modes, the StorageClasses with
provisioner and binding mode, pre-bound PVs — with the IDs of the rules that found
something marked in red on the edges (or on a node when one node is involved). One
subgraph per Helm values variant or Kustomize build when there are several.

  -f, --format FORMAT  mermaid (default; GitHub and GitLab render it in Markdown) or dot (Graphviz)
  -o, --output FILE    write the graph to FILE instead of standard output
  --findings-only      draw only the connected parts with a finding (a workload with its
                       claims, classes, PVs and autoscalers); nothing at all when none has

Every flag of a lint run (pvlint --help) applies as well: --namespace, --var,
--enable, --config... With --new-from-rev or --new-from-patch only the new findings
are marked (and drawn with --findings-only), as the lint run reports only them.
`
