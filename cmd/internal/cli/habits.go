package cli

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/config"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/load"
)

// checkInputs makes the inputs the command line names a usage error when they do not
// exist: a mistyped path would otherwise lint nothing, or report a PVL000 finding
// that a baseline could swallow. Paths are relative to dir, the working directory.
func checkInputs(c *Config, dir string) error {
	exists := func(p string) bool {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		_, err := os.Lstat(p)
		return !errors.Is(err, fs.ErrNotExist)
	}
	for _, p := range c.Paths {
		if p != "-" && !exists(p) {
			return missingPath("input", p)
		}
	}
	for _, f := range c.Helm.ValueFiles {
		if !exists(f) {
			return missingPath("--values", f)
		}
	}
	for _, f := range c.Context {
		if !exists(f) {
			return missingPath("--context", f)
		}
	}
	for _, v := range c.TerraformVars {
		if v.File != "" && !exists(v.File) {
			return missingPath("--var-file", v.File)
		}
	}
	// A chart cache that is not there would hold no charts: every release of a Helm
	// or OCI repository would be a note, as if the cache lacked them.
	for _, d := range c.Charts {
		if !exists(d) {
			return missingPath("--charts", d)
		}
		if !isDirAt(dir, d) {
			return fmt.Errorf("--charts %s: not a directory (a chart cache is a directory of NAME-VERSION.tgz archives or unpacked charts)", d)
		}
	}
	if c.NewFromPatch != "" && !exists(c.NewFromPatch) {
		return missingPath("--new-from-patch", c.NewFromPatch)
	}
	return nil
}

// isDirAt reports whether p (relative to dir unless absolute) is a directory.
func isDirAt(dir, p string) bool {
	if !filepath.IsAbs(p) {
		p = filepath.Join(dir, p)
	}
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// warnCharts says on standard error which `charts:` entries of the configuration
// are not directories: the run goes on (a cache filled only in CI is absent on a
// laptop), but not silently.
func warnCharts(w io.Writer, cfg *config.Config) {
	for _, f := range cfg.Files {
		if f.Key == "charts" && !isDirAt("", f.Path) {
			fmt.Fprintf(w, "pvlint: %s:%d:%d: charts entry %q is not a directory: no charts are read from it, and releases of its charts are PVL024 notes\n",
				cfg.File, f.Pos.Line, f.Pos.Column, f.Written)
		}
	}
}

// isPipe reports whether r is a pipe or a regular file (`pvlint < x.yaml`) rather
// than a terminal or /dev/null: standard input someone meant pvlint to read.
func isPipe(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && (info.Mode()&os.ModeNamedPipe != 0 || info.Mode().IsRegular())
}

// stdinHint is printed when a run lints the working directory by default while
// standard input is a pipe: `helm template . | pvlint` reads no standard input.
const stdinHint = "pvlint: linting the working directory; to lint standard input, pass `-`"

// objectCount is the number of Kubernetes objects a load produced, over the base
// and every world.
func objectCount(res *load.Result) int {
	n := len(res.Base)
	for _, v := range res.Variants {
		n += len(v.Resources)
	}
	return n
}

// noObjects says on standard error that a run read nothing to lint, and whether
// that fails it (--fail-if-no-objects). Standard input that was empty says so.
func (e *Env) noObjects(c *Config, res *load.Result) (fail bool) {
	if objectCount(res) > 0 {
		return false
	}
	msg := "pvlint: no Kubernetes object found in the inputs"
	for name, src := range res.Sources {
		if name == stdinName(c) && len(bytes.TrimSpace(src)) == 0 {
			msg = "pvlint: standard input is empty: no Kubernetes object found"
		}
	}
	if c.FailIfNoObjects {
		fmt.Fprintln(e.Stderr, msg+" (--fail-if-no-objects)")
		return true
	}
	if !c.Quiet {
		fmt.Fprintln(e.Stderr, msg)
	}
	return false
}

// stdinName is the name standard input is displayed with.
func stdinName(c *Config) string {
	if c.StdinFilename != "" {
		return c.StdinFilename
	}
	return "<stdin>"
}

// colorFor decides whether the text report on standard output is coloured: the
// flags first (--no-color, --color always|never), then FORCE_COLOR (set and not "0"
// or "false": colour even into a pipe, as CI logs that render ANSI want), then
// NO_COLOR and TERM=dumb, then whether standard output is a terminal.
func (e *Env) colorFor(c *Config) bool {
	switch {
	case c.NoColor || c.Color == "never":
		return false
	case c.Color == "always":
		return true
	}
	if f := e.Getenv("FORCE_COLOR"); f != "" && f != "0" && f != "false" {
		return true
	}
	return e.Getenv("NO_COLOR") == "" && e.Getenv("TERM") != "dumb" && e.IsTerminal(e.Stdout)
}

// stages records how long each stage of a run took, for --verbose.
type stages struct {
	last  time.Time
	names []string
	times []time.Duration
}

func newStages() *stages { return &stages{last: time.Now()} }

// done closes the stage called name.
func (s *stages) done(name string) {
	now := time.Now()
	s.names = append(s.names, name)
	s.times = append(s.times, now.Sub(s.last))
	s.last = now
}

func (s *stages) String() string {
	parts := make([]string, len(s.names))
	for i, n := range s.names {
		parts[i] = n + " " + s.times[i].Round(time.Microsecond).String()
	}
	return strings.Join(parts, ", ")
}

// verbose reports on standard error what a run used and read (--verbose): the
// configuration file, the inputs and objects per format, the worlds, and the time
// of each stage.
func (e *Env) verbose(c *Config, cfg *config.Config, res *load.Result, st *stages) {
	w := e.Stderr
	switch {
	case c.ConfigFile == "none":
		fmt.Fprintln(w, "pvlint: configuration: none (--config none)")
	case cfg == nil || cfg.File == "":
		fmt.Fprintln(w, "pvlint: configuration: no .pvlint.yaml found")
	default:
		fmt.Fprintf(w, "pvlint: configuration: %s\n", cfg.File)
	}
	files := map[graph.Format]map[string]bool{}
	objects := map[graph.Format]int{}
	count := func(rs []*graph.Resource) {
		for _, r := range rs {
			f := r.Origin.Format
			if files[f] == nil {
				files[f] = map[string]bool{}
			}
			files[f][r.Origin.File] = true
			objects[f]++
		}
	}
	count(res.Base)
	for _, v := range res.Variants {
		count(v.Resources)
	}
	formats := make([]string, 0, len(files))
	for f := range files {
		formats = append(formats, string(f))
	}
	sort.Strings(formats)
	var parts []string
	for _, f := range formats {
		parts = append(parts, fmt.Sprintf("%s %s, %s", f, countOf(len(files[graph.Format(f)]), "file"), countOf(objects[graph.Format(f)], "object")))
	}
	if len(parts) == 0 {
		parts = []string{"no objects"}
	}
	// The cluster context, by where it comes from; its files are not inputs.
	var labels []string
	byLabel := map[string]int{}
	contextFiles := map[string]bool{}
	for _, r := range res.Context {
		if byLabel[r.Origin.Context] == 0 {
			labels = append(labels, r.Origin.Context)
		}
		byLabel[r.Origin.Context]++
		if r.Range.File != "" {
			contextFiles[r.Range.File] = true
		}
	}
	fmt.Fprintf(w, "pvlint: read %s: %s; %s\n", countOf(len(res.Sources)-len(contextFiles), "input file"), strings.Join(parts, "; "), countOf(len(res.Diagnostics), "unreadable input"))
	if len(labels) > 0 {
		ctx := make([]string, len(labels))
		for i, l := range labels {
			ctx[i] = l + " (" + countOf(byLabel[l], "object") + ")"
		}
		fmt.Fprintf(w, "pvlint: cluster context: %s\n", strings.Join(ctx, "; "))
	}
	worlds := res.Worlds()
	var names []string
	for _, v := range worlds {
		if v.Name != "" {
			names = append(names, v.Name)
		}
	}
	line := countOf(len(worlds), "world")
	if len(names) > 0 {
		line += ": " + strings.Join(names, ", ")
	}
	fmt.Fprintf(w, "pvlint: linted %s\n", line)
	if ops := operatorSummary(res); ops != "" {
		fmt.Fprintf(w, "pvlint: operator resources: %s\n", ops)
	}
	fmt.Fprintf(w, "pvlint: time: %s\n", st)
}

// countOf reads "1 file" or "3 files".
func countOf(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// operatorSummary counts the custom resources of the kinds pvlint maps to what their
// operators create (docs/operators.md), by operator and kind, and those of a modelled
// kind whose apiVersion is not modelled (PVL028): "3 mapped (CloudNativePG Cluster 2,
// ECK Elasticsearch 1); 1 of an unmodelled version". "" when there are none.
func operatorSummary(res *load.Result) string {
	mapped, unknown := map[string]int{}, 0
	var order []string
	seen := map[*graph.Resource]bool{}
	count := func(rs []*graph.Resource) {
		for _, r := range rs {
			k, ok := graph.OperatorOf(r)
			if !ok || seen[r] {
				continue
			}
			seen[r] = true
			if !k.Modelled {
				unknown++
				continue
			}
			key := k.Operator + " " + r.Kind
			if mapped[key] == 0 {
				order = append(order, key)
			}
			mapped[key]++
		}
	}
	count(res.Base)
	for _, v := range res.Variants {
		count(v.Resources)
	}
	if len(order) == 0 && unknown == 0 {
		return ""
	}
	sort.Strings(order)
	total := 0
	parts := make([]string, len(order))
	for i, k := range order {
		parts[i] = fmt.Sprintf("%s %d", k, mapped[k])
		total += mapped[k]
	}
	out := fmt.Sprintf("%d mapped", total)
	if len(parts) > 0 {
		out += " (" + strings.Join(parts, ", ") + ")"
	}
	if unknown > 0 {
		out += fmt.Sprintf("; %d of an unmodelled version, not mapped (PVL028)", unknown)
	}
	return out
}
