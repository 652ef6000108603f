package helm

import (
	"errors"
	"fmt"
	"path"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/engine"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// renderer renders the variants of one chart.
type renderer struct {
	opts    Options
	env     Env
	root    *chartFiles
	caps    *chartutil.Capabilities
	res     *Rendered
	checked bool // chart-level checks (dependencies) done
	// depsDiag is 1 + the index in res.Diagnostics of the finding about missing
	// dependencies (0 when none are missing): a render failure they cause is told
	// there rather than as a finding of its own.
	depsDiag int
	// missing are the dependencies the chart declares but does not vendor.
	missing []*chart.Dependency
}

// chartName loads the chart once to learn its name, reporting a chart Helm cannot
// load. Library charts render nothing and give "".
func (r *renderer) chartName() string {
	c, err := r.root.build(map[*chart.File]*chartFiles{})
	if err != nil {
		r.res.Diagnostics = append(r.res.Diagnostics, r.loadDiag(err, ""))
		return ""
	}
	if strings.EqualFold(c.Metadata.Type, "library") {
		return ""
	}
	return c.Name()
}

// userValues reads and merges the --values files and --set assignments.
func (r *renderer) userValues() (map[string]any, bool) {
	vals := map[string]any{}
	rd := &reader{env: r.env}
	for _, f := range r.opts.ValueFiles {
		data, ok := rd.read(f)
		if !ok {
			if len(rd.diags) == 0 {
				rd.diag(r.env.display(f), "values file does not exist")
			}
			r.res.Diagnostics = append(r.res.Diagnostics, rd.diags...)
			return nil, false
		}
		v, err := chartutil.ReadValues(data)
		if err != nil {
			line, msg := yamlErrorLine(err)
			r.res.Diagnostics = append(r.res.Diagnostics, graph.Diagnostic{
				Range:   graph.Range{File: r.env.display(f), Start: graph.NewPos(line, 1, 0)},
				Message: "invalid values file: " + msg,
			})
			return nil, false
		}
		r.res.Sources[r.env.display(f)] = data
		mergeValues(vals, v)
	}
	for _, doc := range r.opts.Values {
		if int64(len(doc.Data)) > r.env.maxFileSize() {
			r.res.Diagnostics = append(r.res.Diagnostics, chartDiag(r.root, "Chart.yaml", 1, 1,
				fmt.Sprintf("values of %s are %d bytes, larger than the %d-byte limit; not rendered", doc.Name, len(doc.Data), r.env.maxFileSize()), r.opts.Variant))
			return nil, false
		}
		v, err := chartutil.ReadValues(doc.Data)
		if err != nil {
			_, msg := yamlErrorLine(err)
			r.res.Diagnostics = append(r.res.Diagnostics, chartDiag(r.root, "Chart.yaml", 1, 1, "invalid values in "+doc.Name+": "+msg, r.opts.Variant))
			return nil, false
		}
		mergeValues(vals, v)
	}
	if err := r.opts.applySets(vals); err != nil {
		r.res.Diagnostics = append(r.res.Diagnostics, chartDiag(r.root, "Chart.yaml", 1, 1, err.Error(), ""))
		return nil, false
	}
	return vals, true
}

// variant renders the chart with vals (user-supplied values, merged by Helm over the
// chart's own) and adds the resulting world. label names the values in the rendered
// stream's virtual name. It returns the rendered files (nil when the chart did not
// render).
func (r *renderer) variant(name, label string, vals map[string]any) (rendered map[string]string) {
	defer func() {
		if p := recover(); p != nil {
			r.res.Diagnostics = append(r.res.Diagnostics, chartDiag(r.root, "Chart.yaml", 1, 1, fmt.Sprintf("chart cannot be rendered: internal error: %v", p), name))
		}
	}()
	c, ix, top, ok := r.prepare(name, vals, true)
	if !ok {
		return
	}
	files, err := r.render(c, top)
	if err != nil && r.depsDiag > 0 && chartCheck(err) == "" && !errors.Is(err, errTimeout) {
		// Without its missing dependencies the chart may still render with them
		// disabled, as their conditions would disable them: the chart's own
		// templates then take the path they take without the subchart.
		if off, paths := r.disabledValues(vals); len(paths) > 0 {
			if c2, ix2, top2, ok := r.prepare(name, off, false); ok {
				if files2, err2 := r.render(c2, top2); err2 == nil {
					c, ix, files, err = c2, ix2, files2, nil
					r.noteDisabled(paths)
				}
			}
		}
	}
	if err != nil {
		if r.depsDiag > 0 && chartCheck(err) == "" {
			// Most likely the missing subcharts' helpers: one finding says it all.
			d := &r.res.Diagnostics[r.depsDiag-1]
			if !strings.Contains(d.Message, "; without them") && !strings.Contains(d.Message, "; without it") {
				first, _, _ := strings.Cut(r.renderDiag(err, c, ix, name).Message, "\n")
				if strings.HasPrefix(d.Message, "dependencies ") {
					d.Message += "; without them the chart does not render: " + first
				} else {
					d.Message += "; without it the chart does not render: " + first
				}
				d.Note = false // the chart is not linted: not a mere note
			}
			return
		}
		r.res.Diagnostics = append(r.res.Diagnostics, r.renderDiag(err, c, ix, name))
		return
	}
	r.output(name, RenderedName(r.root.base, label), files, r.templates(c, ix))
	r.res.Variants[len(r.res.Variants)-1].Values = r.valuesFiles(label)
	return files
}

// valuesFiles are the displayed values files of a variant rendered with the values
// named by label ("" the defaults, "user" the --values files, else a ci/ file), the
// highest precedence first.
func (r *renderer) valuesFiles(label string) []string {
	if label == "user" && (len(r.opts.Values) > 0 || r.opts.Variant != "") {
		// A GitOps release's values are not files of the chart: the loader moves
		// positions of a cached chart to them (load.releaseMapper).
		return nil
	}
	var out []string
	switch label {
	case "":
	case "user":
		for i := len(r.opts.ValueFiles) - 1; i >= 0; i-- {
			out = append(out, r.env.display(r.opts.ValueFiles[i]))
		}
	default:
		out = append(out, r.root.display(label))
	}
	return append(out, r.root.display("values.yaml"))
}

// prepare builds the chart and merges vals into the values it is rendered with.
// report says whether a failure is a diagnostic (it is not when retrying).
func (r *renderer) prepare(name string, vals map[string]any, report bool) (*chart.Chart, map[*chart.File]*chartFiles, chartutil.Values, bool) {
	fail := func(d graph.Diagnostic) (*chart.Chart, map[*chart.File]*chartFiles, chartutil.Values, bool) {
		if report {
			r.res.Diagnostics = append(r.res.Diagnostics, d)
		}
		return nil, nil, nil, false
	}
	ix := map[*chart.File]*chartFiles{}
	c, err := r.root.build(ix)
	if err != nil {
		return fail(r.loadDiag(err, name))
	}
	if !r.checked {
		r.checked = true
		r.checkDependencies(c)
	}
	if c.Metadata.KubeVersion != "" && !chartutil.IsCompatibleRange(c.Metadata.KubeVersion, r.caps.KubeVersion.String()) {
		line, col := keyLine(r.root.file("Chart.yaml"), "kubeVersion")
		return fail(chartDiag(r.root, "Chart.yaml", line, col,
			fmt.Sprintf("chart requires kubeVersion %s, which is incompatible with Kubernetes %s (set --kube-version)", c.Metadata.KubeVersion, r.caps.KubeVersion.String()), name))
	}
	if err := chartutil.ProcessDependenciesWithMerge(c, vals); err != nil {
		return fail(chartDiag(r.root, "Chart.yaml", 1, 1, "cannot process dependencies: "+err.Error(), name))
	}
	top, err := chartutil.ToRenderValuesWithSchemaValidation(c, vals, chartutil.ReleaseOptions{
		Name: r.opts.ReleaseName, Namespace: r.opts.Namespace, Revision: 1, IsInstall: true,
	}, r.caps, true)
	if err != nil {
		return fail(chartDiag(r.root, "values.yaml", 1, 1, "cannot merge values: "+err.Error(), name))
	}
	return c, ix, top, true
}

// disabledValues returns a copy of vals with the condition of every missing
// dependency set to false, and the condition paths it set (none when no missing
// dependency has a condition).
func (r *renderer) disabledValues(vals map[string]any) (map[string]any, []string) {
	off := copyValues(vals)
	var paths []string
	for _, d := range r.missing {
		for p := range strings.SplitSeq(d.Condition, ",") {
			// A path deeper than any chart's values is not followed (Helm's merge
			// recurses over what it builds).
			if p = strings.TrimSpace(p); p != "" && len(p) <= 256 && strings.Count(p, ".") < 32 && putPath(off, p, false) {
				paths = append(paths, p)
			}
		}
	}
	return off, paths
}

// noteDisabled says once, in the finding about the missing dependencies, that some
// variant was rendered with their conditions false.
func (r *renderer) noteDisabled(paths []string) {
	d := &r.res.Diagnostics[r.depsDiag-1]
	if strings.Contains(d.Message, "; where the chart does not render without") {
		return
	}
	set := make([]string, len(paths))
	for i, p := range paths {
		set[i] = p + "=false"
	}
	d.Message += "; where the chart does not render without it, it is rendered with " + strings.Join(set, ",") + ", as the condition would disable it"
}

// putPath sets a dotted path of a values tree, making the maps on the way; false
// when a value on the way is not a map.
func putPath(v map[string]any, p string, x any) bool {
	keys := strings.Split(p, ".")
	for _, k := range keys[:len(keys)-1] {
		next, ok := v[k]
		if !ok || next == nil {
			m := map[string]any{}
			v[k], v = m, m
			continue
		}
		m, ok := next.(map[string]any)
		if !ok {
			return false
		}
		v = m
	}
	v[keys[len(keys)-1]] = x
	return true
}

// errTimeout ends the message of a render stopped at its time limit.
var errTimeout = errors.New("stopped")

// abandoned counts renders left running past their time limit: Helm's engine cannot
// be stopped, so the goroutine goes on until the template ends (or never does).
var abandoned atomic.Int64

// Abandoned is how many renders this process has left running past their time limit.
// A worker process that has any is not reused: the render still holds its CPU and memory.
func Abandoned() int64 { return abandoned.Load() }

// render runs Helm's engine within the time and output bounds.
func (r *renderer) render(c *chart.Chart, top chartutil.Values) (map[string]string, error) {
	return r.renderWithin(c, top, r.opts.Timeout)
}

// renderWithin is render with its own time limit.
func (r *renderer) renderWithin(c *chart.Chart, top chartutil.Values, timeout time.Duration) (map[string]string, error) {
	type out struct {
		files map[string]string
		err   error
	}
	done := make(chan out, 1)
	go func() {
		defer func() {
			if p := recover(); p != nil {
				done <- out{err: fmt.Errorf("rendering failed: %v", p)}
			}
		}()
		var e engine.Engine // no client: lookup returns nothing; EnableDNS false
		files, err := e.Render(c, top)
		done <- out{files, err}
	}()
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case o := <-done:
		if o.err != nil {
			return nil, o.err
		}
		var size int64
		for _, s := range o.files {
			size += int64(len(s))
		}
		if size > r.opts.MaxOutput {
			return nil, fmt.Errorf("rendered output is %d bytes, more than the %d-byte limit", size, r.opts.MaxOutput)
		}
		return o.files, nil
	case <-timer.C:
		abandoned.Add(1)
		return nil, fmt.Errorf("rendering took longer than %s; %w", timeout, errTimeout)
	}
}

// templates lists every template of the chart tree (partials too: they hold the
// define blocks includes expand) by rendered name, keeping each one's text in Sources.
func (r *renderer) templates(c *chart.Chart, ix map[*chart.File]*chartFiles) []Template {
	var out []Template
	var walk func(c *chart.Chart)
	walk = func(c *chart.Chart) {
		for _, t := range c.Templates {
			cf := ix[t]
			if cf == nil {
				continue
			}
			disp := cf.display(t.Name)
			r.res.Sources[disp] = t.Data
			out = append(out, Template{Name: path.Join(c.ChartFullPath(), t.Name), Display: disp})
		}
		for _, d := range c.Dependencies() {
			walk(d)
		}
	}
	walk(c)
	return out
}

// output joins a variant's rendered files into one stream, each after a "# Source:"
// comment as `helm template` writes them, and adds it to the rendering.
func (r *renderer) output(variant, virtual string, files map[string]string, tpls []Template) {
	names := make([]string, 0, len(files))
	for n, s := range files {
		if strings.HasSuffix(n, "NOTES.txt") || strings.TrimSpace(s) == "" {
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	var sb strings.Builder
	var secs []Section
	line := 1
	for _, n := range names {
		s := files[n]
		if !strings.HasSuffix(s, "\n") {
			s += "\n"
		}
		fmt.Fprintf(&sb, "---\n%s%s\n", sourcePrefix, n)
		secs = append(secs, Section{Source: n, Line: line + 1, End: line + 1 + strings.Count(s, "\n")})
		sb.WriteString(s)
		line += 2 + strings.Count(s, "\n")
	}
	r.res.Sources[virtual] = []byte(sb.String())
	r.res.Variants = append(r.res.Variants, RenderedVariant{Name: variant, Stream: virtual, Sections: secs,
		Templates: tpls, DiagAt: len(r.res.Diagnostics)})
}

// Parse parses each variant's output and maps its resources onto the templates that
// produced them. Only opts.IncludeTests and env's Limits and SkipConfigData matter
// here: the rendering has been done.
func (t *Rendered) Parse(opts Options, env Env) *Result {
	res := &Result{Sources: t.Sources, Exploration: t.Exploration}
	if res.Sources == nil {
		res.Sources = map[string][]byte{}
	}
	tpls := map[string]*tplFile{} // analysed templates by displayed path, shared by variants
	reloc := newRelocCache()
	at := 0
	for _, v := range t.Variants {
		if v.DiagAt >= at && v.DiagAt <= len(t.Diagnostics) {
			res.Diagnostics = append(res.Diagnostics, t.Diagnostics[at:v.DiagAt]...)
			at = v.DiagAt
		}
		t.parse(v, opts, env, tpls, reloc, res)
	}
	res.Diagnostics = append(res.Diagnostics, t.Diagnostics[at:]...)
	if t.Knobs != nil && len(res.Variants) > 0 {
		v := &res.Variants[0]
		v.Resources = append(v.Resources, t.Knobs.resource(v.Name))
	}
	return res
}

// parse turns one variant's output into resources mapped onto the templates.
func (t *Rendered) parse(v RenderedVariant, opts Options, env Env, tpls map[string]*tplFile, reloc *relocCache, res *Result) {
	defer func() {
		if p := recover(); p != nil {
			res.Diagnostics = append(res.Diagnostics, graph.Diagnostic{
				Range:   graph.Range{File: t.ChartFile, Start: graph.NewPos(1, 1, 0)},
				Message: fmt.Sprintf("chart cannot be rendered: internal error: %v", p),
				Variant: v.Name,
			})
		}
	}()
	byName := make(map[string]*tplFile, len(v.Templates))
	for _, tp := range v.Templates {
		f := tpls[tp.Display]
		if f == nil {
			f = analyse(tp.Name, tp.Display, t.Sources[tp.Display])
			tpls[tp.Display] = f
		}
		byName[tp.Name] = f
	}
	virtual, stream, secs := v.Stream, t.Sources[v.Stream], v.Sections
	rs, ds := manifest.Parse(virtual, stream, manifest.Options{Format: graph.FormatHelm, Variant: v.Name, Limits: env.Limits, SkipConfigData: env.SkipConfigData})
	defines := map[string]*scope{}
	for _, n := range sortedKeys(byName) {
		for dn, sc := range byName[n].defines {
			if _, dup := defines[dn]; !dup {
				defines[dn] = sc
			}
		}
	}
	m := &mapper{name: virtual, stream: stream, lines: graph.NewLines(stream), defines: defines}
	out := Variant{Name: v.Name, Explore: v.Explore}
	rl := t.newRelocator(v, reloc)
	for _, r := range rs {
		i := sectionAt(secs, int(r.Range.Start.Line))
		if i < 0 {
			continue
		}
		if !opts.IncludeTests && isTestHook(r) {
			continue
		}
		r.Origin.Source = secs[i].Source
		r.Related = append(r.Related, graph.Location{
			Range:   m.lines.Range(virtual, stream, int(r.Range.Start.Line)),
			Message: "rendered output",
		})
		if f := byName[secs[i].Source]; f != nil {
			r.Origin.File = f.display
			r.Origin.Doc = m.resource(r, f)
		}
		if rl != nil {
			rl.move(r)
		}
		out.Resources = append(out.Resources, r)
	}
	for _, d := range ds {
		res.Diagnostics = append(res.Diagnostics, streamDiag(d, m, secs, byName))
	}
	res.Variants = append(res.Variants, out)
}

// streamDiag moves a YAML error in the rendered stream to the template that produced
// the bad text: at the template line whose text matches, or the template's start.
func streamDiag(d graph.Diagnostic, m *mapper, secs []Section, byName map[string]*tplFile) graph.Diagnostic {
	i := sectionAt(secs, int(d.Range.Start.Line))
	if i < 0 {
		return d
	}
	f := byName[secs[i].Source]
	if f == nil {
		return d
	}
	rel := max(int(d.Range.Start.Line)-secs[i].Line, 1) // the template's first line follows the comment
	out := graph.Diagnostic{Variant: d.Variant, Message: fmt.Sprintf("rendered %s is not valid YAML (line %d of its output): %s", secs[i].Source, rel, strings.TrimPrefix(d.Message, "invalid YAML: "))}
	line := f.lineFor(m.text(int(d.Range.Start.Line)))
	if line == 0 {
		line = 1
	}
	out.Range = f.lineRange(line)
	return out
}

// lineFor returns the one template line whose skeleton text matches a rendered line,
// or 0 when none or several do.
func (f *tplFile) lineFor(text string) int {
	found := 0
	var scs []*scope
	scs = append(scs, f.regions...)
	for _, n := range sortedKeys(f.defines) {
		scs = append(scs, f.defines[n])
	}
	for _, sc := range scs {
		for _, e := range sc.entries {
			if e.kind != siteEntry && glob(e.pattern, text) {
				if found != 0 && found != e.line {
					return 0
				}
				found = e.line
			}
		}
	}
	return found
}

// isTestHook reports whether a rendered resource is a `helm test` hook.
func isTestHook(r *graph.Resource) bool {
	h, ok := r.Annotation("helm.sh/hook")
	if !ok {
		return false
	}
	for p := range strings.SplitSeq(h.Str(), ",") {
		switch strings.TrimSpace(p) {
		case "test", "test-success", "test-failure":
			return true
		}
	}
	return false
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
