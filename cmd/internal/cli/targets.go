// The reports a run writes: --format and --output resolved into targets.

package cli

import (
	"errors"
	"fmt"
	"strings"

	"github.com/pvlint/pvlint/cmd/internal/output"
)

// Target is one report of a run: a format and the file it is written to.
type Target struct {
	Format output.Format
	File   string // "" is standard output
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

func formatNames() string {
	var names []string
	for _, f := range output.Formats() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
