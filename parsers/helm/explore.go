package helm

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	yaml "go.yaml.in/yaml/v3"
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

// wordRe finds the names templates use: ".Values.persistence.enabled" gives
// "Values", "persistence", "enabled" and the pairs "Values.persistence", "persistence.enabled".
var wordRe = regexp.MustCompile(`[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*`)

// templateWords lists the words and dotted pairs the chart tree's templates (and
// its Chart.yaml dependency conditions) use.
func templateWords(c *chart.Chart) map[string]bool {
	words := map[string]bool{}
	add := func(text string) {
		for _, m := range wordRe.FindAllString(text, -1) {
			parts := strings.Split(m, ".")
			for i, p := range parts {
				words[p] = true
				if i > 0 {
					words[parts[i-1]+"."+p] = true
				}
			}
		}
	}
	var walk func(c *chart.Chart, depth int)
	walk = func(c *chart.Chart, depth int) {
		if depth > maxValuesDepth {
			return
		}
		for _, t := range c.Templates {
			add(string(t.Data))
		}
		if c.Metadata != nil {
			for _, d := range c.Metadata.Dependencies {
				add(d.Condition)
			}
		}
		for _, d := range c.Dependencies() {
			walk(d, depth+1)
		}
	}
	walk(c, 0)
	return words
}

// findSwitches walks values.yaml for the values exploring changes, each once, in
// file order: *.enabled booleans a template reads, replica counts below 2, strategy
// and update strategy types, access modes other than ReadWriteOnce, empty
// existingClaim values. A value its schema does not allow is left out.
func findSwitches(data []byte, file string, schema *schemaDoc, words map[string]bool) []Switch {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var out []Switch
	seen := map[string]bool{}
	nodes := 0
	add := func(path []string, key *yaml.Node, value any) {
		if len(out) >= maxSwitches || !schema.allows(path, value) {
			return
		}
		set := setPath(path) + "=" + setValue(value)
		if seen[set] {
			return
		}
		seen[set] = true
		out = append(out, Switch{Set: set, File: file, Line: key.Line, Column: key.Column, EndColumn: key.Column + len(key.Value), path: append([]string(nil), path...)})
	}
	var walk func(n *yaml.Node, path []string)
	walk = func(n *yaml.Node, path []string) {
		nodes++
		if nodes > maxValuesNodes || len(path) > maxValuesDepth || n.Kind != yaml.MappingNode {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			p := append(path, k.Value)
			for _, alt := range alternatives(p, v, words) {
				add(p, k, alt)
			}
			if v.Kind == yaml.MappingNode {
				walk(v, p)
			}
		}
	}
	walk(doc.Content[0], nil)
	// Storage switches first, so that a budget spent early spends itself on them;
	// values.yaml order within a rank.
	sort.SliceStable(out, func(i, j int) bool { return rank(out[i].path) < rank(out[j].path) })
	return out
}

// rank orders switches by how directly they change what the storage rules read:
// replicas, autoscaling, persistence, strategies and access modes; then the switches
// of claims and autoscalers' bounds; then every other gate.
func rank(path []string) int {
	key := path[len(path)-1]
	up := ""
	if len(path) > 1 {
		up = path[len(path)-2]
	}
	switch {
	case key == "replicaCount" || key == "replicas" || key == "type" || key == "accessModes" || key == "accessMode":
		return 0
	case key == "enabled" && (up == "autoscaling" || up == "hpa" || strings.Contains(strings.ToLower(up), "persistence")):
		return 0
	case key == "existingClaim" || key == "minReplicas" || key == "maxReplicas":
		return 1
	}
	for _, p := range path {
		if l := strings.ToLower(p); strings.Contains(l, "probe") || strings.Contains(l, "securitycontext") {
			return 3 // never the storage: last
		}
	}
	return 2
}

// alternatives are the other values exploring gives the value v at path.
func alternatives(path []string, v *yaml.Node, words map[string]bool) []any {
	key := path[len(path)-1]
	up := ""
	if len(path) > 1 {
		up = path[len(path)-2]
	}
	uses := func(w string) bool { return words[w] }
	switch key {
	case "enabled":
		b, ok := scalarBool(v)
		if !ok || !(uses(up+".enabled") || (up == "" && uses("enabled"))) {
			return nil
		}
		return []any{!b}
	case "replicaCount", "replicas", "minReplicas", "maxReplicas":
		n, err := strconv.Atoi(v.Value)
		if v.Kind != yaml.ScalarNode || v.Tag != "!!int" || err != nil || n >= 2 || !uses(key) {
			return nil
		}
		return []any{2}
	case "type":
		if up != "strategy" && up != "updateStrategy" && up != "deploymentStrategy" || v.Kind != yaml.ScalarNode || !uses(up) {
			return nil
		}
		switch v.Value {
		case "Recreate", "OnDelete":
			return []any{"RollingUpdate"}
		case "RollingUpdate":
			if up == "updateStrategy" {
				return nil // a StatefulSet's: no other type surges
			}
			return []any{"Recreate"}
		}
	case "accessModes":
		if v.Kind != yaml.SequenceNode || !uses(key) {
			return nil
		}
		if len(v.Content) == 1 && v.Content[0].Value == "ReadWriteOnce" {
			return nil
		}
		return []any{[]any{"ReadWriteOnce"}}
	case "accessMode":
		if v.Kind != yaml.ScalarNode || v.Value == "ReadWriteOnce" || !uses(key) {
			return nil
		}
		return []any{"ReadWriteOnce"}
	case "existingClaim":
		if v.Kind != yaml.ScalarNode || v.Value != "" || !uses(key) {
			return nil
		}
		return []any{"data"}
	}
	return nil
}

func scalarBool(v *yaml.Node) (bool, bool) {
	if v.Kind != yaml.ScalarNode || v.Tag != "!!bool" {
		return false, false
	}
	b, err := strconv.ParseBool(v.Value)
	return b, err == nil
}

// setPath writes a key path as --set does, escaping the dots within keys.
func setPath(path []string) string {
	parts := make([]string, len(path))
	for i, p := range path {
		p = strings.ReplaceAll(p, `\`, `\\`)
		p = strings.ReplaceAll(p, ",", `\,`)
		p = strings.ReplaceAll(p, "=", `\=`)
		parts[i] = strings.ReplaceAll(p, ".", `\.`)
	}
	return strings.Join(parts, ".")
}

// setValue writes a value as --set reads it back as the same value.
func setValue(v any) string {
	switch v := v.(type) {
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			parts[i] = setValue(e)
		}
		return "{" + strings.Join(parts, ",") + "}"
	default:
		return fmt.Sprint(v)
	}
}

// noLoader refuses every schema a values.schema.json refers to outside itself:
// rendering never reads a file or the network for a schema.
type noLoader struct{}

func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("%s: pvlint reads no schema outside values.schema.json", url)
}

// compileSchema compiles the chart's values.schema.json for exploring: pvlint's own
// renders skip Helm's schema validation (which may fetch URLs), but a combination the
// schema forbids is one the chart's users cannot reach. nil when there is none or it
// does not compile on its own.
func compileSchema(data []byte) (s *jsonschema.Schema) {
	if len(data) == 0 {
		return nil
	}
	defer func() {
		if recover() != nil {
			s = nil
		}
	}()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return nil
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(noLoader{})
	if c.AddResource("file:///values.schema.json", doc) != nil {
		return nil
	}
	s, err = c.Compile("file:///values.schema.json")
	if err != nil {
		return nil
	}
	return s
}

// maxSchemaRefs bounds the $refs of a values.schema.json exploring compiles: a chain
// of 20,000 takes the compiler seconds, and 500 about a millisecond.
const maxSchemaRefs = 500

// compileSchemaWithin compiles the schema unless it has more than maxSchemaRefs
// $refs or takes longer than d (then the compilation is abandoned, like a render past
// its time: the worker is not reused). Without it, only the types, enums and bounds
// findSwitches reads keep exploring within what the schema allows.
func compileSchemaWithin(data []byte, d time.Duration) *jsonschema.Schema {
	if len(data) == 0 || bytes.Count(data, []byte(`"$ref"`)) > maxSchemaRefs {
		return nil
	}
	done := make(chan *jsonschema.Schema, 1)
	go func() { done <- compileSchema(data) }()
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case s := <-done:
		return s
	case <-t.C:
		abandoned.Add(1)
		return nil
	}
}

// validate checks merged values against the schema, as Helm would on install.
func validate(s *jsonschema.Schema, vals map[string]any) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("schema validation failed: %v", p)
		}
	}()
	data, err := json.Marshal(vals)
	if err != nil {
		return err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return err
	}
	return s.Validate(doc)
}

// schemaDoc is a chart's values.schema.json, read for the values it allows: types,
// enums, minimum and maximum along plain property paths, following local $refs a
// bounded number of hops.
type schemaDoc struct {
	root map[string]any
}

func parseSchema(data []byte) *schemaDoc {
	if len(data) == 0 {
		return nil
	}
	var root map[string]any
	if json.Unmarshal(data, &root) != nil {
		return nil
	}
	return &schemaDoc{root: root}
}

var errRef = errors.New("unresolvable $ref")

// deref follows local $refs ("#/definitions/x", "#/$defs/x") from n, at most maxRefHops.
func (s *schemaDoc) deref(n map[string]any) (map[string]any, error) {
	for hops := 0; ; hops++ {
		ref, ok := n["$ref"].(string)
		if !ok {
			return n, nil
		}
		if hops >= maxRefHops || !strings.HasPrefix(ref, "#/") {
			return nil, errRef
		}
		var cur any = s.root
		for tok := range strings.SplitSeq(ref[2:], "/") {
			tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
			m, ok := cur.(map[string]any)
			if !ok {
				return nil, errRef
			}
			cur = m[tok]
		}
		next, ok := cur.(map[string]any)
		if !ok {
			return nil, errRef
		}
		n = next
	}
}

// allows reports whether the schema lets the value at path be v. Where the schema
// says nothing (no schema, no such property, a $ref it cannot follow) the value is
// allowed: Helm's own validation of each render still refuses what the schema forbids.
func (s *schemaDoc) allows(path []string, v any) bool {
	if s == nil {
		return true
	}
	n, err := s.deref(s.root)
	if err != nil {
		return true
	}
	for _, k := range path {
		props, _ := n["properties"].(map[string]any)
		p, ok := props[k].(map[string]any)
		if !ok {
			return true
		}
		if n, err = s.deref(p); err != nil {
			return true
		}
	}
	return allowedBy(n, v)
}

func allowedBy(n map[string]any, v any) bool {
	if enum, ok := n["enum"].([]any); ok {
		found := false
		for _, e := range enum {
			if fmt.Sprint(e) == fmt.Sprint(v) {
				found = true
			}
		}
		if !found {
			return false
		}
	}
	if t, ok := n["type"]; ok && !typeAllows(t, v) {
		return false
	}
	if f, ok := v.(int); ok {
		if m, ok := n["maximum"].(float64); ok && float64(f) > m {
			return false
		}
		if m, ok := n["minimum"].(float64); ok && float64(f) < m {
			return false
		}
	}
	if items, ok := n["items"].(map[string]any); ok {
		if list, ok := v.([]any); ok {
			for _, e := range list {
				if !allowedBy(items, e) {
					return false
				}
			}
		}
	}
	return true
}

func typeAllows(t any, v any) bool {
	var kind string
	switch v.(type) {
	case bool:
		kind = "boolean"
	case int:
		kind = "integer"
	case string:
		kind = "string"
	case []any:
		kind = "array"
	}
	match := func(s any) bool {
		return s == kind || (kind == "integer" && s == "number")
	}
	switch t := t.(type) {
	case string:
		return match(t)
	case []any:
		return slices.ContainsFunc(t, match)
	}
	return true
}
