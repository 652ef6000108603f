// The reports a run writes: --format and --output resolved into targets.

package cli

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/output"
	"github.com/pvlint/pvlint/cmd/internal/storagegraph"
)

// Target is one report of a run: a format and the file it is written to.
type Target struct {
	Format output.Format
	File   string // "" is standard output
	// Draw is set for the picture formats (mermaid, dot: graphFormats), which draw
	// the storage graph of the findings' parts instead of writing Format's report;
	// Format then only names it.
	Draw func(io.Writer, *storagegraph.Picture) error
}

// resolveTargets settles what --format and --output asked for. The default format is
// applied like a given one, so a --format on the command line replaces it; --output
// becomes the file of the one format given without =FILE; two reports never share
// standard output or a file.
func (c *Config) resolveTargets() error {
	if len(c.Targets) > 1 {
		c.Targets = c.Targets[1:]
	}
	var toStdout []string
	for _, t := range c.Targets {
		if t.File == "" {
			toStdout = append(toStdout, t.Format.Name)
		}
	}
	if n := len(toStdout); n > 1 {
		both := "both"
		if n > 2 {
			both = "all"
		}
		return fmt.Errorf("formats %s and %s %s write to standard output; give all but one its own file, e.g. --format %s=FILE",
			strings.Join(toStdout[:n-1], ", "), toStdout[n-1], both, toStdout[0])
	}
	if c.Output != "" {
		if len(toStdout) == 0 {
			return errors.New("--output names no report: every --format has its own =FILE")
		}
		for i := range c.Targets {
			if c.Targets[i].File == "" && c.Output != "-" {
				c.Targets[i].File = c.Output
			}
		}
	}
	files := map[string]string{}
	for _, t := range c.Targets {
		if other, ok := files[t.File]; ok && t.File != "" {
			return fmt.Errorf("formats %s and %s both write to %q", other, t.Format.Name, t.File)
		}
		files[t.File] = t.Format.Name
	}
	return nil
}

// formatNames lists the report formats of --format: package output's, then the
// pictures of the findings' storage graph.
func formatNames() string {
	var names []string
	for _, f := range output.Formats() {
		names = append(names, f.Name)
	}
	names = append(names, "mermaid", "dot")
	return strings.Join(names, ", ")
}

// drawsGraph reports whether a report of targets is a picture of the storage graph,
// for which the run keeps its worlds' graphs.
func drawsGraph(targets []Target) bool {
	return slices.ContainsFunc(targets, func(t Target) bool { return t.Draw != nil })
}
