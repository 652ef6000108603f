// Package helm renders Helm charts in-process, the way `helm template` would, and
// maps every rendered node back to the template line that produced it. It also reads
// the "# Source:" comments of `helm template` output given as a file or on stdin.
//
// Rendering never touches a cluster or the network: `lookup` returns nothing, DNS
// lookups are off, subcharts come only from the chart's charts/ directory, values
// schemas (which may reference URLs) are not fetched, and `.Files` sees only the
// chart's own files. Every values variant of a chart (its defaults and each
// chart-testing ci/*-values.yaml) is rendered and linted as its own world
// (docs/rules.md#decision-12), so findings name the variant they were seen in.
package helm

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/strvals"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// Defaults for Options fields left empty.
const (
	// DefaultReleaseName is what `helm template` calls a release when not told.
	DefaultReleaseName = "release-name"
	// DefaultNamespace is the release namespace when not told (docs/rules.md#decision-9).
	DefaultNamespace = "default"
	// DefaultKubeVersion is the Kubernetes version the helm v3.22.0 binary reports
	// (it is built against client-go v0.37); the library's own default is 1.20, which
	// would make charts pick long-removed APIs.
	DefaultKubeVersion = "v1.37.0"
	// DefaultTimeout bounds one render of one variant.
	DefaultTimeout = 20 * time.Second
	// DefaultMaxOutput bounds the rendered bytes of one variant.
	DefaultMaxOutput = 32 << 20
)

// Options are the user's choices for rendering charts, as `helm template` takes them.
// The zero value renders every chart with its defaults and each ci/*-values.yaml.
type Options struct {
	// ValueFiles are --values files, merged in order over the chart's values.yaml.
	ValueFiles []string
	// Set and SetString are --set and --set-string assignments (key=value[,key=value]),
	// applied after the values files.
	Set       []string
	SetString []string
	// ReleaseName is .Release.Name (DefaultReleaseName when empty).
	ReleaseName string
	// Namespace is .Release.Namespace (DefaultNamespace when empty).
	Namespace string
	// KubeVersion is .Capabilities.KubeVersion (DefaultKubeVersion when empty).
	KubeVersion string
	// IncludeTests keeps resources annotated helm.sh/hook: test; they are dropped
	// otherwise, since they are not part of a running release.
	IncludeTests bool
	// Timeout bounds the rendering of one variant (DefaultTimeout when zero).
	Timeout time.Duration
	// MaxOutput bounds the rendered bytes of one variant (DefaultMaxOutput when zero).
	MaxOutput int64
	// Explore, when not nil, also renders the chart with the switches its values.yaml
	// documents (explore.go), within its budgets; not with the user's values.
	Explore *Explore
	// ChartValues adds to each chart's first variant a synthetic pvlint.io/v1
	// ChartValues resource naming the persistence values its values.yaml lacks
	// (knobs.go, read by PVL030); --explore-values sets it.
	ChartValues bool
	// Values are YAML values documents given as text (a GitOps release's own values,
	// its valuesFrom entries), merged in order after ValueFiles and before Set.
	Values []Values
	// Variant, when set, names the one variant rendered with the options' values
	// ("HelmRelease media/plex") instead of the chart's name and the values files.
	Variant string
}

// Values is one values document given as text: Name says where it came from (a
// release's file, a ConfigMap) in messages.
type Values struct {
	Name string
	Data []byte
}

// userValues reports whether the user chose values; then each chart is rendered once
// with them instead of with its defaults and ci files.
func (o Options) userValues() bool {
	return len(o.ValueFiles) > 0 || len(o.Set) > 0 || len(o.SetString) > 0 || len(o.Values) > 0 || o.Variant != ""
}

// Check validates the options that do not depend on a chart (--set syntax, the
// Kubernetes version, the release name), so that a command line can refuse bad flags before loading.
func (o Options) Check() error {
	for _, s := range o.Set {
		if err := strvals.ParseInto(s, map[string]any{}); err != nil {
			return fmt.Errorf("invalid --set %q: %w", s, err)
		}
	}
	for _, s := range o.SetString {
		if err := strvals.ParseIntoString(s, map[string]any{}); err != nil {
			return fmt.Errorf("invalid --set-string %q: %w", s, err)
		}
	}
	if _, err := o.capabilities(); err != nil {
		return err
	}
	if o.ReleaseName != "" {
		if err := chartutil.ValidateReleaseName(o.ReleaseName); err != nil {
			return fmt.Errorf("invalid release name %q (want a lowercase DNS name of at most 53 characters)", o.ReleaseName)
		}
	}
	return nil
}

func (o Options) capabilities() (*chartutil.Capabilities, error) {
	v := o.KubeVersion
	if v == "" {
		v = DefaultKubeVersion
	}
	kv, err := chartutil.ParseKubeVersion(v)
	if err != nil {
		return nil, fmt.Errorf("invalid Kubernetes version %q: %w", o.KubeVersion, err)
	}
	caps := chartutil.DefaultCapabilities.Copy()
	caps.KubeVersion = *kv
	return caps, nil
}

func (o Options) withDefaults() Options {
	if o.ReleaseName == "" {
		o.ReleaseName = DefaultReleaseName
	}
	if o.Namespace == "" {
		o.Namespace = DefaultNamespace
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxOutput <= 0 {
		o.MaxOutput = DefaultMaxOutput
	}
	return o
}

// Env is what the caller (the loader) decides about files: how paths are shown,
// where symlinks may lead, and how large a file may be.
type Env struct {
	// Display returns the name users see for a path.
	Display func(path string) string
	// Inside reports whether an absolute, symlink-free path is within what the user
	// asked to lint; symlinks leading elsewhere are not followed.
	Inside func(path string) bool
	// MaxFileSize bounds every file read (32 MiB when zero).
	MaxFileSize int64
	// Limits bound the parsing of rendered YAML.
	Limits manifest.Limits
	// SkipConfigData leaves ConfigMap and Secret data of rendered manifests unread
	// (manifest.Options.SkipConfigData).
	SkipConfigData bool
}

func (e Env) display(p string) string {
	if e.Display == nil {
		return filepath.ToSlash(p)
	}
	return e.Display(p)
}

func (e Env) inside(p string) bool { return e.Inside == nil || e.Inside(p) }

func (e Env) maxFileSize() int64 {
	if e.MaxFileSize <= 0 {
		return 32 << 20
	}
	return e.MaxFileSize
}

// Variant is one rendering of a chart: a separate world for the rules.
type Variant struct {
	// Name says which values were used: "mychart", "mychart (ci/persistence-values.yaml)".
	Name      string
	Resources []*graph.Resource
	// Explore is the combination of switches an explored variant sets; nil for the
	// defaults, the ci/ files and the user's values.
	Explore *Combo
}

// Result is everything rendering one chart produced.
type Result struct {
	Variants []Variant
	// Exploration is what exploring the chart's values did; nil when not explored.
	Exploration *Exploration
	// Diagnostics are load and render failures, at the file and line they name.
	Diagnostics []graph.Diagnostic
	// Sources maps displayed names to content: the chart's templates, values files,
	// and each variant's rendered output under a virtual name (see RenderedName).
	Sources map[string][]byte
}

// RenderedName is the virtual file name under which a variant's rendered output is
// kept in Result.Sources and referred to by related locations: the chart's displayed
// path, "#rendered", and the variant's values in parentheses when not the defaults.
func RenderedName(chartDisplay, values string) string {
	if values == "" {
		return chartDisplay + "#rendered"
	}
	return chartDisplay + "#rendered(" + values + ")"
}

// IsArchive reports whether path names a chart archive as `helm pull` writes it
// (NAME-VERSION.tgz), which Render reads like a chart directory.
func IsArchive(path string) bool { return strings.HasSuffix(path, ".tgz") }

// IsChart reports whether dir holds a Helm chart (a Chart.yaml file).
func IsChart(dir string) bool {
	info, err := os.Stat(filepath.Join(dir, "Chart.yaml"))
	return err == nil && info.Mode().IsRegular()
}

// Render renders the chart in dir once per values variant: with the user's values
// when given (Options.ValueFiles, Set, SetString), otherwise with the chart's
// defaults and with each ci/*-values.yaml. A chart or variant that fails to load or
// render is a diagnostic; the other variants are still rendered. It is RenderText
// followed by Parse.
func Render(dir string, opts Options, env Env) *Result {
	return RenderText(dir, opts, env).Parse(opts, env)
}

// Rendered is a chart rendered to text, before its output is parsed: what a worker
// process that renders charts sends back (plain values, cheap to encode), and what
// Parse turns into resources mapped onto the templates. Parsing needs no part of
// Helm: it reads the output and the templates' text, both in Sources.
type Rendered struct {
	Variants []RenderedVariant
	// Diagnostics are the load and render failures; each variant's parse failures go
	// in at its DiagAt, where an in-process render would have put them.
	Diagnostics []graph.Diagnostic
	// Sources are Result.Sources: the chart's files, the templates, and each variant's
	// output under its virtual name.
	Sources map[string][]byte
	// ChartFile is the displayed Chart.yaml of the chart, where a failure to parse a
	// variant is reported.
	ChartFile string
	// Exploration is Result.Exploration.
	Exploration *Exploration
	// Knobs are the persistence values the chart's values.yaml lacks, when
	// Options.ChartValues asks and it lacks any.
	Knobs *Knobs
}

// RenderedVariant is one variant's output: the stream of rendered templates, each
// after a "# Source:" comment, and the templates that could have produced it.
type RenderedVariant struct {
	Name string // the variant's name (Variant.Name)
	// Stream is the output's virtual name (RenderedName), its key in Sources.
	Stream string
	// Sections are the stream's templates, in order: the line of each one's comment
	// and its last line.
	Sections []Section
	// Templates are the chart tree's templates (partials too, for their defines), in
	// the order the tree is walked.
	Templates []Template
	// DiagAt is how many of Rendered.Diagnostics precede this variant's parse failures.
	DiagAt int
	// Explore is Variant.Explore.
	Explore *Combo
	// Values are the displayed values files the variant was rendered with, the
	// highest precedence first and the chart's values.yaml last: where positions in
	// a library's or a dependency's templates are moved (foreign.go).
	Values []string
}

// Template is a template of a chart tree by its rendered name (chart/templates/x.yaml,
// the name in a "# Source:" comment) and its displayed path, its key in Sources.
type Template struct {
	Name, Display string
}

// RenderText renders the chart in dir like Render but stops before parsing the output.
func RenderText(dir string, opts Options, env Env) *Rendered {
	res, explore := RenderPhases(dir, opts, env)
	if explore != nil {
		explore()
	}
	return res
}

// RenderPhases is RenderText in two steps: it renders the chart's defaults, ci/
// files or the user's values, and returns with them a function that adds the
// explored variants (Options.Explore) to the same Rendered; nil when there is nothing
// to explore. A worker renders every chart of a batch before it explores any, so that
// exploring one chart never delays another's own renders.
func RenderPhases(dir string, opts Options, env Env) (res *Rendered, explore func()) {
	opts = opts.withDefaults()
	res = &Rendered{Sources: map[string][]byte{}}
	rd := &reader{env: env}
	display := env.display(dir)
	var files, ci []*loader.BufferedFile
	if IsArchive(dir) {
		if files = rd.readArchive(dir); files == nil {
			res.Diagnostics = append(res.Diagnostics, rd.diags...)
			return res, nil
		}
	} else {
		files, ci = rd.readDir(dir)
	}
	root := rd.split(display, files, 0)
	if !IsArchive(dir) {
		rd.localDeps(dir, root)
	}
	res.ChartFile = root.display("Chart.yaml")
	res.Diagnostics = append(res.Diagnostics, rd.diags...)
	for _, f := range files {
		if isText(f.Name) {
			res.Sources[root.display(f.Name)] = f.Data
		}
	}
	for _, f := range ci {
		res.Sources[root.display(f.Name)] = f.Data
	}
	caps, err := opts.capabilities()
	if err != nil {
		res.Diagnostics = append(res.Diagnostics, chartDiag(root, "Chart.yaml", 1, 1, err.Error(), ""))
		return res, nil
	}
	r := &renderer{opts: opts, env: env, root: root, caps: caps, res: res}
	name := r.chartName()
	if name == "" {
		return res, nil
	}
	if opts.ChartValues {
		res.Knobs = findKnobs(name, root.display("values.yaml"), root.file("values.yaml"))
	}
	if opts.userValues() {
		vals, ok := r.userValues()
		if ok {
			vname := variantName(name, opts, env)
			rendered := r.variant(vname, "user", vals)
			if opts.Explore != nil && rendered != nil {
				// Explored over the user's values, which charts that require some
				// (a secret, a host name) need to render at all.
				explore = func() { r.explore(vname, rendered, vals) }
			}
		}
		return res, explore
	}
	defaults := r.variant(name, "", map[string]any{})
	if opts.Explore != nil && defaults != nil {
		explore = func() { r.explore(name, defaults, nil) }
	}
	for _, f := range ci {
		vals, err := chartutil.ReadValues(f.Data)
		vname := name + " (" + f.Name + ")"
		if err != nil {
			line, msg := yamlErrorLine(err)
			res.Diagnostics = append(res.Diagnostics, chartDiag(root, f.Name, line, 1, "invalid values file: "+msg, vname))
			continue
		}
		r.variant(vname, f.Name, vals)
	}
	return res, explore
}

// variantName names the variant rendered with the user's values.
func variantName(chart string, o Options, env Env) string {
	if o.Variant != "" {
		return o.Variant
	}
	var parts []string
	for _, f := range o.ValueFiles {
		parts = append(parts, env.display(f))
	}
	if len(o.Set) > 0 || len(o.SetString) > 0 {
		parts = append(parts, "--set")
	}
	return chart + " (" + strings.Join(parts, ", ") + ")"
}

// isText reports whether a chart file is worth keeping as a source (templates and
// YAML, not archives or images).
func isText(name string) bool {
	switch strings.ToLower(filepath.Ext(name)) {
	case ".yaml", ".yml", ".tpl", ".txt", ".json", "":
		return true
	}
	return strings.HasPrefix(name, "templates/")
}
