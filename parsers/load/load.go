// Package load turns the paths a user names into resources: it walks directories,
// decides what each file or directory is (plain manifests, a Helm chart, a Kustomize
// build, a Terraform module, a plan), parses them in parallel and groups the result
// into the worlds the rules run over (docs/rules.md#decision-12, #decision-13).
package load

import (
	"fmt"
	"io"
	"io/fs"
	"iter"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/pvlint/pvlint/parsers/load/scan"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/parsers/promrules"
	"github.com/pvlint/pvlint/parsers/terraform"
	"github.com/pvlint/pvlint/parsers/worker"
)

// Options configure a load.
type Options struct {
	// Dir is the working directory: relative paths are resolved against it and
	// displayed paths are relative to it.
	Dir string
	// Stdin is read for the path "-", displayed as StdinName ("<stdin>" when empty).
	Stdin     io.Reader
	StdinName string
	// MaxFileSize bounds every file read (DefaultMaxFileSize when zero).
	MaxFileSize int64
	// Limits bound YAML parsing.
	Limits manifest.Limits
	// Terraform configures Terraform module evaluation (variables, limits).
	Terraform terraform.Options
	// Exclude, when set, is asked about every file and directory met while walking a
	// directory (absolute paths); those it reports are not read. Paths the user
	// names are always read.
	Exclude func(path string) bool
	// Helm configures chart rendering (values, release, Kubernetes version).
	Helm helm.Options
	// MaxKustomizeOutput bounds the bytes of one kustomize build
	// (kustomize.DefaultMaxOutput when zero).
	MaxKustomizeOutput int64
	// HelmFor, when set, gives the options of the chart in an absolute directory in
	// place of Helm: per-chart settings such as the configuration file's.
	HelmFor func(dir string) helm.Options
	// BeforeParse, when set, is called once with the total size of the plain manifest
	// files about to be read and parsed, before any is, and the function it returns
	// (when not nil) once they are parsed: the command line prepares the process's heap
	// for what they will become.
	BeforeParse func(bytes int64) (after func())
	// NoGitignore walks the paths .gitignore files ignore too (gitignore.go).
	NoGitignore bool
	// SkipConfigData leaves the embedded files of ConfigMaps and Secrets unread in
	// plain manifests, Helm charts and Kustomize builds (manifest.Options.SkipConfigData):
	// set it when no custom policy, the only reader of that data, is loaded.
	SkipConfigData bool
	// Workers, when set, renders charts and evaluates Terraform modules in worker
	// processes under its budgets (package worker): one that runs out of memory or
	// time is a diagnostic at its input. Nil evaluates in-process.
	Workers *worker.Pool
	// Budgets are the evaluation budgets a caller gives the workers it creates
	// (DefaultBudgets; the command line's --limit eval-memory, eval-time, run-memory).
	Budgets Budgets
	// Context are files and directories describing the cluster the inputs are applied
	// to (context.go): what kubectl get -o yaml prints, or any manifests. Their
	// resources join every world to resolve references and are never reported on.
	Context []string
	// Profiles are platform profiles whose default StorageClasses join every world
	// as context, after the Context files' resources (graph.Platform).
	Profiles []*graph.Platform
	// World, when set, is asked about the directories (absolute paths) that hold the
	// inputs and those above them up to Dir; each it reports is linted as a world of
	// its own, as directories that define the same resources are (worlds.go).
	World func(dir string) bool
	// Deadline, when set, ends the run's time budget (budget.go): evaluations start
	// only before it and are stopped at it; what it leaves unread is a diagnostic each.
	Deadline time.Time
	// Charts are the chart cache directories (absolute; --charts, charts:): charts of
	// Helm and OCI repositories that GitOps releases name, as helm pull writes them.
	// The walk does not lint them as the repository's charts.
	Charts []string
	// Repositories are URLs that name the linted repository besides the remotes of
	// its .git/config (gitops.repositories): GitOps sources with these URLs are read
	// from the checkout.
	Repositories []string
	// Progress, when set, counts what the load has done while it runs.
	Progress *Progress
}

// Budgets bound evaluations of untrusted code in worker processes.
type Budgets struct {
	// Eval bounds one chart render or Terraform evaluation: memory and wall time.
	Eval worker.Budget
	// Run bounds the memory of every worker of the run together: it caps how many
	// run at once.
	Run int64
}

// DefaultBudgets fit a hosted CI runner (7 GiB of memory, 2 to 4 processors): two
// workers of 1 GiB each and pvlint's own process stay well inside 4 GiB, and no real
// chart or module comes near either budget (a chart rendering to the 32 MiB output
// limit needs a few hundred MiB).
var DefaultBudgets = Budgets{Eval: worker.DefaultBudget, Run: 4 << 30}

// DefaultMaxFileSize is the largest file pvlint reads unless told otherwise.
const DefaultMaxFileSize = 32 << 20

// Variant is one Helm values variant or Kustomize build: a separate world.
type Variant struct {
	Name      string
	Resources []*graph.Resource
	// Explore is the combination of a chart's switches an explored variant sets
	// (helm.Options.Explore); nil for every other variant.
	Explore *helm.Combo
	// Chart is the displayed directory of the chart a Helm variant was rendered from.
	Chart string
}

// Result is everything read from the inputs.
type Result struct {
	// Base holds plain manifests and Terraform resources; they join every world.
	Base []*graph.Resource
	// Variants are Helm and Kustomize outputs, each linted with Base but not with each other.
	Variants []Variant
	// Diagnostics are inputs that could not be read or parsed.
	Diagnostics []graph.Diagnostic
	// Sources maps displayed file names to their content, for source excerpts and
	// comment suppressions.
	Sources map[string][]byte
	// Internal are panics recovered while reading an input, each naming the input:
	// bugs in pvlint, which the CLI reports as internal errors (exit 2).
	Internal []error
	// Context are the cluster context resources (Options.Context, then
	// Options.Profiles): every world holds them after its own resources, and
	// graph.Resource.IsContext tells them apart. Other consumers of the cluster's
	// state (a policy's data.inventory) read them here too.
	Context []*graph.Resource
	// Unfinished counts the inputs the run's time budget (Options.Deadline) stopped
	// or never started, each also a diagnostic: when not zero, the result is
	// incomplete.
	Unfinished int
	// Explorations are what exploring each chart's values did, in chart order
	// (helm.Options.Explore).
	Explorations []*helm.Exploration
	// Releases is what the run made of the GitOps objects of the inputs.
	Releases Releases
	// split, when not nil, divides Base into directory worlds (worlds.go).
	split *split
	// roots are the Terraform root modules' worlds when there are several
	// (roots.go); their resources, in Base, are in inRoot.
	roots  []*rootWorld
	inRoot map[*graph.Resource]bool
}

// Worlds returns the resource sets to lint: Base alone when there are no variants,
// otherwise Base joined with each variant; when directories are alternatives, one
// world per directory (worlds.go). Every world ends with the cluster context.
func (r *Result) Worlds() []Variant {
	ws := r.worldsOf()
	if len(r.Context) == 0 {
		return ws
	}
	for i := range ws {
		ws[i].Resources = append(ws[i].Resources[:len(ws[i].Resources):len(ws[i].Resources)], r.Context...)
	}
	return ws
}

// EachWorld is Worlds as a sequence of each world's name and resources, which the
// rules' driver (rules.RunWorlds) reads.
func (r *Result) EachWorld() iter.Seq2[string, []*graph.Resource] {
	return func(yield func(string, []*graph.Resource) bool) {
		for _, w := range r.Worlds() {
			if !yield(w.Name, w.Resources) {
				return
			}
		}
	}
}

// worldsOf is Worlds without the cluster context.
func (r *Result) worldsOf() []Variant {
	if len(r.roots) == 0 {
		return r.baseWorlds()
	}
	var out []Variant
	if len(r.Base) > len(r.inRoot) || len(r.Variants) > 0 {
		out = r.baseWorlds()
	}
	for _, w := range r.roots {
		out = append(out, Variant{Name: w.dir, Resources: w.resources})
	}
	return out
}

// baseWorlds are the worlds of Base and the variants.
func (r *Result) baseWorlds() []Variant {
	base := r.base()
	if r.split != nil {
		return r.worlds()
	}
	if len(r.Variants) == 0 {
		return []Variant{{Resources: base}}
	}
	out := make([]Variant, 0, len(r.Variants))
	for _, v := range r.Variants {
		rs := make([]*graph.Resource, 0, len(base)+len(v.Resources))
		rs = append(rs, base...)
		rs = append(rs, v.Resources...)
		out = append(out, Variant{Name: v.Name, Resources: rs})
	}
	return out
}

// loader carries one load's state.
type loader struct {
	opts    Options
	mu      sync.Mutex
	res     Result
	yamls   []yamlFile // plain manifest files, in walk order
	visited map[string]bool
	tfDirs  []terraform.Dir // Terraform module directories, in walk order
	tfSeen  map[string]bool
	tfRoot  string // where reads for the path being walked must stay
	// contextPaths are the absolute, cleaned context paths (Options.Context): the
	// walk does not lint them, they are read as context.
	contextPaths map[string]bool
	// chartDefaults names the variant of each chart's defaults by the chart's
	// absolute directory: a GitOps release that renders the chart replaces it.
	chartDefaults map[string]string
	// named are the absolute directories named on the command line (rootOf).
	named []string
	// charts and kustomizations are the directories found, in walk order.
	charts, kustomizations []rootedDir
}

// Load reads every path ("-" is standard input). Nothing stops on a bad input: each
// problem becomes a diagnostic and the rest is still read.
func Load(paths []string, opts Options) *Result {
	if opts.MaxFileSize == 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if opts.Dir == "" {
		opts.Dir, _ = os.Getwd()
	}
	l := &loader{opts: opts, visited: map[string]bool{}, contextPaths: map[string]bool{}}
	for _, p := range opts.Context {
		if !filepath.IsAbs(p) {
			p = filepath.Join(opts.Dir, p)
		}
		l.contextPaths[filepath.Clean(p)] = true
	}
	l.res.Sources = map[string][]byte{}
	if opts.Workers != nil && !opts.Deadline.IsZero() {
		opts.Workers.SetDeadline(opts.Deadline)
	}
	for _, p := range paths {
		if p == "-" {
			l.stdin()
			continue
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(opts.Dir, p)
		}
		l.tfRoot = l.readRoot(p)
		if isDir(p) {
			l.named = append(l.named, filepath.Clean(p))
		}
		l.walk(p)
	}
	if pr := opts.Progress; pr != nil {
		// Totals known once the walk is done; the kustomizations' builds and the plain
		// files left to parse are counted when their stage begins.
		pr.Files.Store(int64(len(l.yamls)))
		pr.Charts.Store(int64(len(unique(l.charts))))
		pr.Modules.Store(int64(len(l.tfDirs)))
	}
	l.guard("the kustomizations", l.buildKustomizations)
	l.guard("the Helm charts", l.renderCharts)
	l.parseYAML()
	l.guard("the GitOps releases", l.renderReleases)
	l.guard("the Terraform modules "+l.tfNames(), l.loadTerraform)
	l.guard("the patch fragments", l.dropFragments)
	l.guard("the Terraform root modules", l.splitRoots)
	l.guard("the directory worlds", l.splitWorlds)
	l.guard("the cluster context", l.loadContext)
	l.checkBounds()
	return &l.res
}

// checkBounds reports the values too large for the rules to read, in every format's
// resources: storage quantities (graph.QuantityDiagnostics) and PromQL expressions
// (graph.PromQLTooComplex), each a diagnostic at its node, which the rules then skip.
func (l *loader) checkBounds() {
	check := func(rs []*graph.Resource) {
		for _, r := range rs {
			switch r.Kind {
			case "PersistentVolume", "PersistentVolumeClaim":
				l.res.Diagnostics = append(l.res.Diagnostics, graph.QuantityDiagnostics(r)...)
			case "PrometheusRule", promrules.Kind:
				for _, g := range r.Get("spec", "groups").List() {
					for _, rule := range g.Get("rules").List() {
						expr := rule.Get("expr")
						if expr == nil || expr.Kind == graph.Unknown {
							continue
						}
						if why := graph.PromQLTooComplex(expr.Str()); why != "" {
							l.res.Diagnostics = append(l.res.Diagnostics, graph.Diagnostic{Range: expr.Range, Message: why, Variant: r.Origin.Variant})
						}
					}
				}
			}
		}
	}
	check(l.res.Base)
	for _, v := range l.res.Variants {
		check(v.Resources)
	}
}

func (l *loader) diag(file string, line, col int, format string, args ...any) {
	if line < 1 {
		line, col = 1, 1
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.res.Diagnostics = append(l.res.Diagnostics, graph.Diagnostic{
		Range:   graph.Range{File: file, Start: graph.Pos{Line: int32(line), Column: int32(col)}},
		Message: fmt.Sprintf(format, args...),
	})
}

func (l *loader) stdin() {
	name := l.opts.StdinName
	if name == "" {
		name = "<stdin>"
	}
	if l.opts.Stdin == nil {
		l.diag(name, 0, 0, "no standard input to read")
		return
	}
	data, err := io.ReadAll(io.LimitReader(l.opts.Stdin, l.opts.MaxFileSize+1))
	if err != nil {
		l.diag(name, 0, 0, "read standard input: %v", err)
		return
	}
	if int64(len(data)) > l.opts.MaxFileSize {
		l.diag(name, 1, 1, "input is larger than the %d-byte limit", l.opts.MaxFileSize)
		return
	}
	l.addManifest(name, data)
}

func (l *loader) walk(root string) {
	info, err := os.Stat(root)
	if err != nil {
		l.diag(l.display(root), 0, 0, "cannot read: %v", unwrapPath(err))
		return
	}
	if !info.IsDir() {
		switch {
		case chartFile(root):
			l.charts = append(l.charts, rootedDir{filepath.Dir(root), l.tfRoot})
		case kustomizationFile(root):
			l.kustomizations = append(l.kustomizations, rootedDir{filepath.Dir(root), l.tfRoot})
		default:
			l.file(root, true, nil)
		}
		return
	}
	var ig *ignorer
	if !l.opts.NoGitignore {
		ig = &ignorer{root: root}
	}
	_ = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			l.diag(l.display(path), 0, 0, "cannot read: %v", unwrapPath(err))
			return nil
		}
		if path != root && (l.opts.Exclude != nil && l.opts.Exclude(path) || ig != nil && ig.ignored(path, d.IsDir()) || l.contextPaths[path] || d.IsDir() && l.chartCache(path)) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if path != root && scan.SkipDirs[d.Name()] {
				return filepath.SkipDir
			}
			if ig != nil {
				ig.enter(path)
			}
			if isChartDir(path) {
				// A chart's templates are not plain YAML; the Helm loader renders it.
				l.charts = append(l.charts, rootedDir{path, l.tfRoot})
				return filepath.SkipDir
			}
			if kustomizationDir(path) {
				l.kustomizations = append(l.kustomizations, rootedDir{path, l.tfRoot})
			}
			return nil
		}
		l.opts.Progress.found()
		l.file(path, false, d)
		return nil
	})
}

// file classifies one file. explicit is true when the user named it directly; d is
// its directory entry when the walk met it.
func (l *loader) file(path string, explicit bool, d fs.DirEntry) {
	if l.visited[path] {
		return
	}
	l.visited[path] = true
	if l.terraformFile(path) {
		return
	}
	if kustomizationFile(path) {
		return // read by the kustomization's build
	}
	if ext := strings.ToLower(filepath.Ext(path)); ext != ".yaml" && ext != ".yml" && ext != ".json" && !explicit {
		return
	}
	f := yamlFile{path: path, walked: !explicit}
	if d != nil {
		f.info, _ = d.Info() // an lstat, which read would otherwise make
	}
	l.yamls = append(l.yamls, f)
}
