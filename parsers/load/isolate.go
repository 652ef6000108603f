package load

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/kustomize"
	"github.com/pvlint/pvlint/parsers/terraform"
	"github.com/pvlint/pvlint/parsers/worker"
)

// The evaluations a worker process serves for a load: a chart's render (read and
// render: the worker returns the rendered text, diagnostics and sources, and the
// parent parses the text as it parses any untrusted YAML, under its limits), a
// kustomize build (kustomize itself only: the parent checks the tree before and
// parses and maps the output after) and the evaluation of Terraform modules.
const (
	helmHandler      = "load.helm"
	kustomizeHandler = "load.kustomize"
	terraformHandler = "load.terraform"
)

func init() {
	worker.Register(helmHandler, serveHelm)
	worker.Register(kustomizeHandler, serveKustomize)
	worker.Register(terraformHandler, serveTerraform)
}

// helmArg is a batch of charts to render in a worker: what helm.RenderText needs for
// each, with the loader's display and confinement decisions as the directories they
// derive from.
type helmArg struct {
	WorkDir string
	Charts  []helmChart
}

// helmChart is one chart of a batch.
type helmChart struct {
	Dir, Root   string
	Opts        helm.Options
	MaxFileSize int64
}

// serveHelm renders a batch of charts to text, as many at once as the worker has
// processors. Sending text rather than the parsed resources spares encoding and
// decoding every node (the graph is several times the size of the text), and the
// parent parses one batch while the worker renders the next.
func serveHelm(a helmArg) ([]*helm.Rendered, error) {
	before := helm.Abandoned()
	out := make([]*helm.Rendered, len(a.Charts))
	inside := map[string]func(string) bool{} // the charts of a batch share their root
	for _, c := range a.Charts {
		if inside[c.Root] == nil {
			inside[c.Root] = within(c.Root)
		}
	}
	var mu sync.Mutex
	var failure error
	recovered := func() {
		if p := recover(); p != nil {
			mu.Lock()
			failure = fmt.Errorf("internal error: %v", p)
			mu.Unlock()
		}
	}
	// Every chart's own renders first, then the explorations (helm.RenderPhases).
	explore := make([]func(), len(a.Charts))
	parallel(len(a.Charts), func(i int) {
		defer recovered()
		c := a.Charts[i]
		env := helm.Env{Display: func(p string) string { return displayIn(a.WorkDir, p) }, Inside: inside[c.Root],
			MaxFileSize: c.MaxFileSize}
		out[i], explore[i] = helm.RenderPhases(c.Dir, c.Opts, env)
	})
	parallel(len(a.Charts), func(i int) {
		defer recovered()
		if explore[i] != nil {
			explore[i]()
		}
	})
	if helm.Abandoned() != before || failure != nil {
		worker.Retire() // an abandoned render still runs in this process
	}
	if failure != nil {
		return nil, failure
	}
	return out, nil
}

// kustomizeArg is a kustomize build sent to a worker: the kustomizations pvlint
// checked and serves in place of the files (by absolute path), and the confinement
// and limits of the build.
type kustomizeArg struct {
	Dir, Root              string
	Served                 map[string][]byte
	MaxFileSize, MaxOutput int64
}

// serveKustomize runs kustomize in a worker and returns its output as text, which
// the parent parses and maps onto the files.
func serveKustomize(a kustomizeArg) (*kustomize.Built, error) {
	return kustomize.BuildStream(a.Dir, a.Served, a.env()), nil
}

// env is the kustomize environment of a build: what BuildStream uses.
func (a kustomizeArg) env() kustomize.Env {
	return kustomize.Env{Inside: within(a.Root), MaxFileSize: a.MaxFileSize, MaxOutput: a.MaxOutput}
}

// kustomizeRun returns the kustomize.Env.Run of builds confined to root: each runs in
// a worker under the budgets of a chart render (eval-memory, eval-time and what is
// left of the run), and in this process when no worker can be used. A build whose
// worker died or ran out of a budget is a diagnostic naming what (the kustomization
// or the GitOps object built).
func (l *loader) kustomizeRun(root, what string) func(string, map[string][]byte) (*kustomize.Built, error) {
	if l.opts.Workers == nil {
		return nil
	}
	return func(dir string, served map[string][]byte) (*kustomize.Built, error) {
		arg := kustomizeArg{Dir: dir, Root: root, Served: served, MaxFileSize: l.opts.MaxFileSize, MaxOutput: l.opts.MaxKustomizeOutput}
		out, isolated, err := callWorker[kustomize.Built](l, kustomizeHandler, arg, 0)
		switch {
		case !isolated:
			return kustomize.BuildStream(dir, served, arg.env()), nil
		case err == nil:
			return out, nil
		case runSpent(err):
			return nil, errors.New(l.unfinishedDiag("", what).Message)
		}
		return nil, errors.New("building " + what + " " + describe(err, "eval-time"))
	}
}

// terraformArg is an evaluation of Terraform modules sent to a worker.
type terraformArg struct {
	Dirs    []terraform.Dir
	WorkDir string
	Opts    terraform.Options
}

// serveTerraform evaluates Terraform modules in a worker. The worker's collector is
// paced by pvlint's memory policy (gcpace.Worker): three times the live heap while it
// is small, as streaming modules keep it, twice once a large module is held whole.
func serveTerraform(a terraformArg) (*terraform.Wire, error) {
	return terraform.LoadWire(a.Dirs, func(p string) string { return displayIn(a.WorkDir, p) }, a.Opts), nil
}

// callTerraform evaluates Terraform modules in a worker and decodes the result.
func (l *loader) callTerraform(arg terraformArg) (res *terraform.Result, isolated bool, err error) {
	w, isolated, err := callWorker[terraform.Wire](l, terraformHandler, arg, 0)
	if err != nil {
		return nil, isolated, err
	}
	if res, err = w.Result(); err != nil {
		return nil, true, &worker.EvalError{Msg: err.Error()}
	}
	return res, true, nil
}

// callWorker runs one evaluation in the loader's pool and returns its result. A
// worker that died or ran out of a budget is an *worker.Exceeded; a worker that could
// not be started or be sent the argument is reported as isolated == false, and the
// caller evaluates in-process.
func callWorker[R, A any](l *loader, name string, arg A, wall time.Duration) (res *R, isolated bool, err error) {
	res, err = worker.Call[*R](l.opts.Workers, name, arg, wall)
	var ex *worker.Exceeded
	var ev *worker.EvalError
	switch {
	case errors.As(err, &ex), errors.As(err, &ev):
		return nil, true, err
	case err != nil:
		return nil, false, err
	}
	if res == nil {
		res = new(R)
	}
	return res, true, nil
}

// maxChartBatch bounds the charts of one worker call: a batch shares one worker's
// memory budget, and a batch that fails is rendered again chart by chart.
const maxChartBatch = 8

// chartBatches splits n charts, in order, into batches for procs processors: at most
// maxChartBatch each and at least two per processor when there are enough charts,
// so that the parent parses one batch's output while the worker renders the next.
// A worker call costs a round trip on each side; rendering a small chart costs about
// as much, so a repository of small charts is sent in batches.
func chartBatches(n, procs int) [][]int {
	size := min(max((n+2*procs-1)/(2*procs), 1), maxChartBatch)
	var out [][]int
	for i := 0; i < n; i += size {
		b := make([]int, 0, size)
		for j := i; j < min(i+size, n); j++ {
			b = append(b, j)
		}
		out = append(out, b)
	}
	return out
}

// renderIsolated renders a batch of charts (indices into setups) in a worker and
// parses their output here. The call's wall-clock budget is the sum of each chart's:
// the render time limit of each variant the chart may have (its defaults and each
// ci/*-values.yaml) and a margin for reading; Helm's own time limit fires first inside
// the worker, the parent's is the backstop for a worker that hangs. A batch whose
// worker died or ran out of a budget is rendered again one chart per call, so that
// only the chart that broke it is reported; a chart that fails alone is a diagnostic
// at its Chart.yaml. When no worker can be used, the charts are rendered in-process.
func (l *loader) renderIsolated(setups []chartSetup, batch []int, results []*helm.Result) {
	arg := helmArg{WorkDir: l.opts.Dir}
	wall := 30 * time.Second
	for _, i := range batch {
		c := setups[i]
		arg.Charts = append(arg.Charts, helmChart{Dir: c.dir, Root: c.root, Opts: c.opts, MaxFileSize: c.env.MaxFileSize})
		wall += chartWall(c.dir, c.opts)
	}
	var texts *[]*helm.Rendered
	var isolated bool
	var err error
	called := false
	l.guard("the chart "+l.display(setups[batch[0]].dir), func() {
		texts, isolated, err = callWorker[[]*helm.Rendered](l, helmHandler, arg, wall)
		called = true
	})
	switch {
	case !called:
		return // an internal error, recorded: never a render in this process instead
	case !isolated:
		for _, i := range batch {
			l.renderInProcess(setups[i], &results[i])
		}
	case err == nil && len(*texts) == len(batch):
		for k, i := range batch {
			l.guard("the chart "+l.display(setups[i].dir), func() {
				results[i] = (*texts)[k].Parse(setups[i].opts, setups[i].env)
			})
		}
	case len(batch) > 1 && runSpent(err):
		// Rendering them one by one would fail the same way: the run is out of time.
		for _, i := range batch {
			name := l.display(setups[i].dir)
			results[i] = &helm.Result{Diagnostics: []graph.Diagnostic{l.unfinishedDiag(name+"/Chart.yaml", "the chart "+name)}}
		}
	case len(batch) > 1:
		for _, i := range batch {
			l.renderIsolated(setups, []int{i}, results)
		}
	case runSpent(err):
		name := l.display(setups[batch[0]].dir)
		results[batch[0]] = &helm.Result{Diagnostics: []graph.Diagnostic{l.unfinishedDiag(name+"/Chart.yaml", "the chart "+name)}}
	default:
		if err == nil {
			err = fmt.Errorf("the worker answered %d charts for %d", len(*texts), len(batch))
		}
		name := l.display(setups[batch[0]].dir)
		results[batch[0]] = &helm.Result{Diagnostics: []graph.Diagnostic{{
			Range:   graph.Range{File: name + "/Chart.yaml", Start: graph.Pos{Line: 1, Column: 1}},
			Message: "rendering chart " + name + " " + describe(err, "helm-render-time"),
		}}}
	}
}

// chartWall is the time a chart's renders may take: the render time limit of each
// variant it may have, its defaults and each ci/*-values.yaml.
func chartWall(dir string, opts helm.Options) time.Duration {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = helm.DefaultTimeout
	}
	variants := 1
	if entries, err := os.ReadDir(filepath.Join(dir, "ci")); err == nil {
		for _, e := range entries {
			if strings.HasSuffix(e.Name(), "-values.yaml") {
				variants++
			}
		}
	}
	wall := time.Duration(variants) * timeout
	if opts.Explore != nil {
		// Exploring stops starting renders at its time budget; the last one may run
		// up to the render time limit.
		wall += opts.Explore.MaxTime + timeout
		if opts.Explore.MaxTime <= 0 {
			wall += helm.DefaultExploreTime
		}
	}
	return wall
}

// describe words a worker failure for a diagnostic, naming the limit to raise.
func describe(err error, timeLimit string) string {
	var ex *worker.Exceeded
	if errors.As(err, &ex) {
		switch ex.Kind {
		case worker.OutOfMemory:
			return ex.Error() + " (--limit eval-memory)"
		case worker.OutOfTime:
			return ex.Error() + " (--limit " + timeLimit + ")"
		}
		return ex.Error()
	}
	return "failed: " + err.Error()
}

// loadTerraformIsolated evaluates the Terraform modules in workers: all in one call,
// and when that one fails on a budget, each root module in a call of its own, so that
// one hostile module costs only itself. It reports false when no worker could be used.
func (l *loader) loadTerraformIsolated(opts terraform.Options) (*terraform.Result, bool) {
	arg := terraformArg{Dirs: l.tfDirs, WorkDir: l.opts.Dir, Opts: opts}
	all, isolated, err := l.callTerraform(arg)
	if !isolated {
		return nil, false
	}
	if err == nil {
		return all, true
	}
	var ex *worker.Exceeded
	if len(l.tfDirs) == 1 || !errors.As(err, &ex) {
		// One directory, or a failure of the handler itself: evaluating the roots one
		// by one would only fail the same way again.
		return &terraform.Result{Diagnostics: []graph.Diagnostic{l.tfFailure(l.tfDirs[0].Path, err)}}, true
	}
	merged := &terraform.Result{Sources: map[string][]byte{}, Consumed: map[string]bool{}}
	seen := map[string]bool{}
	addDiag := func(d graph.Diagnostic) {
		k := d.Range.String() + "\x00" + d.Message
		if !seen[k] {
			seen[k] = true
			merged.Diagnostics = append(merged.Diagnostics, d)
		}
	}
	for _, d := range l.tfDirs {
		one := arg
		one.Opts.Only = d.Path
		res, _, err := l.callTerraform(one)
		if err != nil {
			addDiag(l.tfFailure(d.Path, err))
			continue
		}
		merged.Resources = append(merged.Resources, res.Resources...)
		for _, d := range res.Diagnostics {
			addDiag(d)
		}
		maps.Copy(merged.Sources, res.Sources)
		for k := range res.Consumed {
			merged.Consumed[k] = true
		}
	}
	sort.SliceStable(merged.Diagnostics, func(i, j int) bool {
		a, b := merged.Diagnostics[i].Range, merged.Diagnostics[j].Range
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Start.Byte < b.Start.Byte
	})
	return merged, true
}

// tfFailure is the diagnostic of a module directory whose evaluation failed in a worker.
func (l *loader) tfFailure(dir string, err error) graph.Diagnostic {
	if runSpent(err) {
		return l.unfinishedDiag(l.firstTF(dir), "the Terraform module "+l.display(dir))
	}
	return graph.Diagnostic{
		Range:   graph.Range{File: l.firstTF(dir), Start: graph.Pos{Line: 1, Column: 1}},
		Message: "evaluating Terraform module " + l.display(dir) + " " + describe(err, "eval-time"),
	}
}

// firstTF names the first Terraform file of a module directory (the directory itself
// when it has none), where a diagnostic about the whole module is reported.
func (l *loader) firstTF(dir string) string {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		n := e.Name()
		if terraform.IsConfigFile(n) {
			return l.display(filepath.Join(dir, n))
		}
	}
	return l.display(dir)
}
