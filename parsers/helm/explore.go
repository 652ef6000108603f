package helm

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chartutil"
	"helm.sh/helm/v3/pkg/strvals"
)

// Explore bounds the exploration of a chart's values (Options.Explore): besides its
// defaults and ci/ files, the chart is rendered with each switch its values.yaml
// documents set to another value, then with pairs of switches that touch the same
// part of the chart, until either budget is spent.
type Explore struct {
	// MaxRenders bounds the explored renders of one chart (DefaultExploreRenders when zero).
	MaxRenders int
	// MaxTime bounds the time spent exploring one chart (DefaultExploreTime when zero).
	MaxTime time.Duration
}

// Defaults of Explore. A chart of the size of bitnami's renders in 20–300 ms (its
// subcharts included), so a chart explores 4 to 24 combinations in its second, and
// exploring 100 charts adds at most 100 s of rendering, 25 s of wall time on the two
// processors of each of the two workers of a 2-core runner.
const (
	DefaultExploreRenders = 24
	DefaultExploreTime    = time.Second
)

// Limits on what exploring reads, whatever the budgets: the switches kept from one
// values.yaml, the YAML nodes walked, the depth of the walk, and the $ref hops taken
// while resolving one path in values.schema.json.
const (
	maxSwitches    = 10000
	maxValuesNodes = 200000
	maxValuesDepth = 32
	maxRefHops     = 16
	maxUnexplored  = 1000
)

func (e Explore) renders() int {
	if e.MaxRenders <= 0 {
		return DefaultExploreRenders
	}
	return e.MaxRenders
}

func (e Explore) time() time.Duration {
	if e.MaxTime <= 0 {
		return DefaultExploreTime
	}
	return e.MaxTime
}

// Switch is one value a chart documents in its values.yaml, and the other value
// exploring gives it.
type Switch struct {
	// Set is the assignment as `helm template --set` takes it: "persistence.enabled=true".
	Set string
	// File, Line and Column are the displayed values.yaml and the position of the key;
	// EndColumn follows the key.
	File                    string
	Line, Column, EndColumn int
	path                    []string
}

// Combo is the switches an explored variant sets together, in values.yaml order.
type Combo struct {
	Switches []Switch
}

// SetLine is the combination as one --set argument: "a=b,c=d".
func (c *Combo) SetLine() string {
	parts := make([]string, len(c.Switches))
	for i, s := range c.Switches {
		parts[i] = s.Set
	}
	return strings.Join(parts, ",")
}

// Exploration is what exploring one chart did, for --verbose and the summary.
type Exploration struct {
	Chart string // the chart's displayed directory
	// Switches is how many switches its values.yaml documents.
	Switches int
	// Tried is how many combinations were rendered; Refused how many of them the
	// chart refused (fail, required, its schema), Stopped how many were stopped at the
	// time budget, and Same how many rendered what an earlier one did (no world of
	// their own).
	Tried, Refused, Stopped, Same int
	// Unexplored are switches never rendered, because a budget ran out (at most
	// maxUnexplored of them; UnexploredCount counts all).
	Unexplored      []string
	UnexploredCount int
	// PairsLeft is set when a budget ran out before every related pair was tried.
	PairsLeft bool
	// Budget names the budget that ended exploration ("renders", "time"), or "".
	Budget string
}

// explore renders the chart once per combination of its switches, within the
// budgets, adding each combination that renders something new as a variant. base are
// the user's values the combinations are set over (nil for the chart's defaults);
// defaults is what they render to.
func (r *renderer) explore(name string, defaults map[string]string, base map[string]any) {
	ex := r.opts.Explore
	start := time.Now()
	info := &Exploration{Chart: r.root.base}
	r.res.Exploration = info
	values := r.root.file("values.yaml")
	if len(values) == 0 {
		return
	}
	c, err := r.root.build(map[*chart.File]*chartFiles{})
	if err != nil {
		return
	}
	schemaData := r.root.file("values.schema.json")
	schema := parseSchema(schemaData)
	validator := compileSchemaWithin(schemaData, ex.time())
	sw := findSwitches(values, r.root.display("values.yaml"), schema, templateWords(c))
	info.Switches = len(sw)
	seen := map[[32]byte]bool{}
	if defaults != nil {
		seen[hashFiles(defaults)] = true
	}
	renders := 0
	budget := func() bool {
		switch {
		case renders >= ex.renders():
			info.Budget = "renders"
		case time.Since(start) >= ex.time():
			info.Budget = "time"
		default:
			return true
		}
		return false
	}
	refused := make([]bool, len(sw))
	// try renders one combination and reports whether the chart accepted it.
	try := func(idx ...int) bool {
		renders++
		info.Tried++
		combo := &Combo{}
		for _, i := range idx {
			combo.Switches = append(combo.Switches, sw[i])
		}
		vals := copyValues(base)
		if strvals.ParseInto(combo.SetLine(), vals) != nil {
			info.Refused++
			return false
		}
		timeout := min(r.opts.Timeout, max(ex.time()-time.Since(start), 50*time.Millisecond))
		files, c, ix, err := r.renderWith(vals, validator, timeout)
		if errors.Is(err, errTimeout) {
			info.Stopped++
			return false
		}
		if err != nil {
			info.Refused++
			return false
		}
		h := hashFiles(files)
		if seen[h] {
			info.Same++
			return true
		}
		seen[h] = true
		vname := name + " (--set " + combo.SetLine() + ")"
		if base != nil {
			vname = strings.TrimSuffix(name, ")") + ", --set " + combo.SetLine() + ")"
		}
		r.output(vname, RenderedName(r.root.base, "--set "+combo.SetLine()), files, r.templates(c, ix))
		r.res.Variants[len(r.res.Variants)-1].Explore = combo
		if base == nil {
			r.res.Variants[len(r.res.Variants)-1].Values = r.valuesFiles("")
		} else {
			r.res.Variants[len(r.res.Variants)-1].Values = r.valuesFiles("user")
		}
		return true
	}
	next := 0
	for ; next < len(sw) && budget(); next++ {
		refused[next] = !try(next)
	}
	for i := next; i < len(sw); i++ {
		info.UnexploredCount++
		if len(info.Unexplored) < maxUnexplored {
			info.Unexplored = append(info.Unexplored, sw[i].Set)
		}
	}
	if next < len(sw) {
		info.PairsLeft = true
		return
	}
	for i := range sw {
		for j := i + 1; j < len(sw); j++ {
			if refused[i] || refused[j] || !related(sw[i].path, sw[j].path) {
				continue
			}
			if !budget() {
				info.PairsLeft = true
				return
			}
			if sw[j].Line < sw[i].Line {
				try(j, i)
			} else {
				try(i, j)
			}
		}
	}
}

// copyValues copies the maps of a values tree, which --set assignments change in place.
func copyValues(v map[string]any) map[string]any {
	out := make(map[string]any, len(v))
	for k, e := range v {
		if m, ok := e.(map[string]any); ok {
			e = copyValues(m)
		}
		out[k] = e
	}
	return out
}

// renderWith renders the chart with vals merged over its values, as variant does,
// returning the output or why the chart refused it.
func (r *renderer) renderWith(vals map[string]any, schema *jsonschema.Schema, timeout time.Duration) (files map[string]string, c *chart.Chart, ix map[*chart.File]*chartFiles, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error: %v", p)
		}
	}()
	ix = map[*chart.File]*chartFiles{}
	if c, err = r.root.build(ix); err != nil {
		return nil, nil, nil, err
	}
	if err = chartutil.ProcessDependenciesWithMerge(c, vals); err != nil {
		return nil, nil, nil, err
	}
	top, err := chartutil.ToRenderValuesWithSchemaValidation(c, vals, chartutil.ReleaseOptions{
		Name: r.opts.ReleaseName, Namespace: r.opts.Namespace, Revision: 1, IsInstall: true,
	}, r.caps, true)
	if err != nil {
		return nil, nil, nil, err
	}
	if schema != nil {
		if v, ok := top["Values"].(chartutil.Values); ok {
			if err := validate(schema, v.AsMap()); err != nil {
				return nil, nil, nil, err
			}
		}
	}
	files, err = r.renderWithin(c, top, timeout)
	return files, c, ix, err
}

// hashFiles identifies a rendering, so that a combination that renders what the
// defaults or an earlier combination did adds no world.
func hashFiles(files map[string]string) [32]byte {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		if strings.HasSuffix(n, "NOTES.txt") {
			continue
		}
		fmt.Fprintf(h, "%d:%s%d:", len(n), n, len(files[n]))
		h.Write([]byte(files[n]))
	}
	var out [32]byte
	copy(out[:], h.Sum(nil))
	return out
}

// related reports whether two switches touch the same part of a chart: the key
// holding one is the key holding the other or one of its ancestors (replicaCount at
// the top relates to everything; primary.replicaCount to primary.persistence.enabled
// but not to secondary.persistence.enabled).
func related(a, b []string) bool {
	pa, pb := parent(a), parent(b)
	if len(pa) > len(pb) {
		pa, pb = pb, pa
	}
	for i := range pa {
		if pa[i] != pb[i] {
			return false
		}
	}
	return !equalPath(a, b)
}

func parent(p []string) []string {
	p = p[:len(p)-1]
	// The switch of persistence.enabled is about persistence's parent's workload, as
	// is strategy.type's and persistence.accessModes'.
	if len(p) > 0 {
		switch p[len(p)-1] {
		case "persistence", "strategy", "updateStrategy", "deploymentStrategy", "autoscaling", "hpa":
			p = p[:len(p)-1]
		}
	}
	return p
}

func equalPath(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
