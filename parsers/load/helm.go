package load

import (
	"bytes"
	"maps"
	"path/filepath"
	"runtime"
	"strings"
	"sync"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
)

// renderCharts renders every chart the walk found, in parallel, and adds each values
// variant as a world of its own (docs/rules.md#decision-12). A chart's files are never
// also read as plain manifests: the walk does not descend into chart directories.
func (l *loader) renderCharts() {
	charts := unique(l.charts)
	results := make([]*helm.Result, len(charts))
	setups := make([]chartSetup, len(charts))
	for i, c := range charts {
		opts := l.opts.Helm
		if l.opts.HelmFor != nil {
			opts = l.opts.HelmFor(c.dir)
		}
		opts.ValueFiles = l.absolute(opts.ValueFiles)
		setups[i] = chartSetup{rootedDir: c, opts: opts,
			env: helm.Env{Display: l.display, MaxFileSize: l.opts.MaxFileSize, Limits: l.opts.Limits, SkipConfigData: l.opts.SkipConfigData}}
	}
	if l.opts.Workers != nil {
		batches := chartBatches(len(charts), runtime.GOMAXPROCS(0))
		parallel(len(batches), func(b int) {
			l.renderIsolated(setups, batches[b], results)
			l.opts.Progress.rendered(len(batches[b]))
		})
	} else {
		parallel(len(charts), func(i int) {
			l.renderInProcess(setups[i], &results[i])
			l.opts.Progress.rendered(1)
		})
	}
	for i, res := range results {
		if res == nil {
			continue // the render panicked: an internal error
		}
		for _, v := range res.Variants {
			nv := Variant{Name: v.Name, Resources: v.Resources, Explore: v.Explore, Chart: l.display(charts[i].dir)}
			if name, ok := l.addVariant(nv, l.display(charts[i].dir)); ok && v.Name == res.Variants[0].Name {
				if l.chartDefaults == nil {
					l.chartDefaults = map[string]string{}
				}
				if abs, err := filepath.Abs(charts[i].dir); err == nil {
					l.chartDefaults[abs] = name // the chart's defaults, which a release may replace
				}
			}
		}
		if res.Exploration != nil {
			l.res.Explorations = append(l.res.Explorations, res.Exploration)
		}
		l.res.Diagnostics = append(l.res.Diagnostics, res.Diagnostics...)
		maps.Copy(l.res.Sources, res.Sources)
	}
}

// chartSetup is a chart to render with the options and file decisions that apply to
// it. Its env has no Inside: only the process that reads the chart's files needs it.
type chartSetup struct {
	rootedDir
	opts helm.Options
	env  helm.Env
}

// renderInProcess renders a chart in this process.
func (l *loader) renderInProcess(c chartSetup, res **helm.Result) {
	if l.spent() {
		name := l.display(c.dir)
		*res = &helm.Result{Diagnostics: []graph.Diagnostic{l.unfinishedDiag(name+"/Chart.yaml", "the chart "+name)}}
		return
	}
	if !l.opts.Deadline.IsZero() {
		timeout := c.opts.Timeout
		if timeout <= 0 {
			timeout = helm.DefaultTimeout
		}
		c.opts.Timeout = l.left(timeout)
	}
	l.guard("the chart "+l.display(c.dir), func() {
		env := c.env
		env.Inside = within(c.root)
		*res = helm.Render(c.dir, c.opts, env)
	})
}

// absolute resolves file names against Options.Dir, like every path of a load.
func (l *loader) absolute(files []string) []string {
	out := make([]string, 0, len(files))
	for _, f := range files {
		if !filepath.IsAbs(f) {
			f = filepath.Join(l.opts.Dir, f)
		}
		out = append(out, f)
	}
	return out
}

// addVariant adds a world (none for an empty one) and returns its name, naming it after dir too when another world of the run
// already has its name (two charts called "app" in different directories).
func (l *loader) addVariant(nv Variant, dir string) (string, bool) {
	if len(nv.Resources) == 0 {
		return "", false // nothing rendered: no world beyond the base
	}
	for _, v := range l.res.Variants {
		if v.Name == nv.Name {
			nv.Name = dir + ": " + nv.Name
			for _, r := range nv.Resources {
				r.Origin.Variant = nv.Name
			}
			break
		}
	}
	l.res.Variants = append(l.res.Variants, nv)
	return nv.Name, true
}

// annotateRendered keeps the "# Source:" template path of `helm template` output on
// each resource it holds.
func annotateRendered(name string, data []byte, rs []*graph.Resource) {
	if bytes.Contains(data, []byte("# Source: ")) {
		helm.Annotate(name, data, rs)
	}
}

// isChartDir reports whether a directory is a Helm chart.
func isChartDir(dir string) bool { return helm.IsChart(dir) }

// chartFile reports whether an explicitly named file is a chart's Chart.yaml, whose
// directory is then rendered as the chart.
func chartFile(path string) bool {
	return filepath.Base(path) == "Chart.yaml" && helm.IsChart(filepath.Dir(path))
}

// rootedDir is a chart or kustomization directory with the directory its reads must
// stay in (the working directory, or the path the user named when outside it).
type rootedDir struct {
	dir, root string
}

// unique drops repeated directories (a path named twice, or inside another one).
func unique(ds []rootedDir) []rootedDir {
	seen := map[string]bool{}
	var out []rootedDir
	for _, d := range ds {
		abs, err := filepath.Abs(d.dir)
		if err != nil || seen[abs] {
			continue
		}
		seen[abs] = true
		out = append(out, d)
	}
	return out
}

// within returns a check that a symlink-free absolute path lies in root.
func within(root string) func(string) bool {
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	return func(p string) bool {
		rel, err := filepath.Rel(root, p)
		return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
	}
}

// parallel runs fn(0..n-1) on a bounded worker pool.
func parallel(n int, fn func(int)) {
	jobs := make(chan int)
	var wg sync.WaitGroup
	for w := 0; w < min(n, runtime.GOMAXPROCS(0)); w++ {
		wg.Go(func() {
			for i := range jobs {
				fn(i)
			}
		})
	}
	for i := range n {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
}
