package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/storagegraph"
	"github.com/pvlint/pvlint/rules/lint"
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
// --new-from-rev, the findings that are not new. The exit code is 0 when the
// picture was written, whatever it shows.
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
	dir, err := os.Getwd()
	if err != nil {
		return e.fail(fmt.Errorf("working directory: %w", err))
	}
	// The drawing runs the rules too: custom policies in workers, as a lint run's.
	e.policyWorkers = e.newPolicyWorkers(c)
	defer e.policyWorkers.close()
	p, err := e.newPlan(c, dir)
	if err != nil {
		return e.fail(err)
	}
	c = p.c
	res := e.loadInputs(p)
	var worlds []storagegraph.World
	var findings []lint.Finding
	for w := range p.worlds(res) {
		for _, err := range w.Errs {
			fmt.Fprintf(e.Stderr, "pvlint: %s (its findings are not drawn)\n", firstLine(err))
		}
		findings = append(findings, w.Findings...)
		worlds = append(worlds, storagegraph.World{Name: w.Name, Graph: w.Graph})
	}
	acc, err := e.accept(p, findings, res, time.Now())
	if err != nil {
		return e.fail(err)
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
	var buf bytes.Buffer
	pic := storagegraph.Build(worlds, acc.reported())
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
		return ExitOK
	}
	if _, err := e.Stdout.Write(buf.Bytes()); err != nil {
		fmt.Fprintf(e.Stderr, "pvlint: write: %v\n", err)
		return ExitError
	}
	return ExitOK
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
