package helm

import (
	"fmt"
	"path"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/pvlint/pvlint/parsers/graph"
)

// A field written by a template of a library chart (helm-toolkit, bjw-s common) or of
// a vendored dependency is not where the user acts: they set the chart's values. Such
// positions are moved to the values line that produced them, in the variant's values
// files (the ci/ or --values file first, then the chart's values.yaml): the values the
// template line reads (ValuesReads), else the one key of that name, in any spelling,
// holding the same value; else the first key of the variant's values file. The
// template line each position came from is a related location of the finding
// reported there (graph.Location.For).

// foreignTpl is a template of a chart other than the rendered one.
type foreignTpl struct {
	chart   string   // the dependency's name (its alias when aliased)
	scope   []string // where its .Values lie in the top chart's values
	partial bool     // _*.tpl: its defines run with the includer's values
	library bool     // the chart holds only partials (a library chart)
}

// valuesFile is one values file of a variant, parsed once.
type valuesFile struct {
	f    *tplFile
	root *yaml.Node // the top mapping; nil when the file is empty or not a mapping
	// byKeyValue indexes scalar values by key and value ("replica\x003", the key
	// folded by normKey): the nodes holding them; keys are the folded keys.
	byKeyValue map[string][]*yaml.Node
	keys       map[string]bool
}

// relocator moves one variant's foreign positions to its values.
type relocator struct {
	foreign map[string]*foreignTpl // by the template's displayed path
	values  []*valuesFile          // highest precedence first
	srcs    map[string][]byte
	cache   *relocCache
	folded  map[string]string // normKey by key
}

// relocCache keeps what the variants of one chart share: the parsed values files and
// the values each template line reads.
type relocCache struct {
	values map[string]*valuesFile
	reads  map[string]map[int][][]string
}

func newRelocCache() *relocCache {
	return &relocCache{values: map[string]*valuesFile{}, reads: map[string]map[int][][]string{}}
}

// newRelocator prepares the relocation of a variant's resources; nil when the
// variant has no foreign template or no values file to move to.
func (t *Rendered) newRelocator(v RenderedVariant, cache *relocCache) *relocator {
	if len(v.Values) == 0 {
		return nil
	}
	rl := &relocator{foreign: map[string]*foreignTpl{}, srcs: t.Sources, cache: cache, folded: map[string]string{}}
	charts := map[string][]*foreignTpl{}
	for _, tp := range v.Templates {
		// app/charts/sub/charts/lib/templates/x.yaml: the chart's own templates are
		// app/templates/..., even in a directory of them named charts.
		segs := strings.Split(tp.Name, "/")
		ft := &foreignTpl{partial: strings.HasPrefix(path.Base(tp.Name), "_")}
		for i := 1; i+2 < len(segs) && segs[i] == "charts"; i += 2 {
			ft.scope = append(ft.scope, segs[i+1])
		}
		if len(ft.scope) == 0 {
			continue
		}
		ft.chart = ft.scope[len(ft.scope)-1]
		rl.foreign[tp.Display] = ft
		key := strings.Join(ft.scope, "/")
		charts[key] = append(charts[key], ft)
	}
	if len(rl.foreign) == 0 {
		return nil
	}
	for _, fts := range charts {
		lib := true
		for _, ft := range fts {
			lib = lib && ft.partial
		}
		for _, ft := range fts {
			ft.library = lib
		}
	}
	for _, name := range v.Values {
		vf, ok := cache.values[name]
		if !ok {
			vf = parseValuesFile(name, t.Sources[name])
			cache.values[name] = vf
		}
		if vf != nil {
			rl.values = append(rl.values, vf)
		}
	}
	if len(rl.values) == 0 {
		return nil
	}
	return rl
}

// parseValuesFile parses a values file for lookups; nil when it is not in Sources.
func parseValuesFile(name string, src []byte) *valuesFile {
	if src == nil {
		return nil
	}
	vf := &valuesFile{f: &tplFile{display: name, src: src, lines: graph.NewLines(src)}, byKeyValue: map[string][]*yaml.Node{}, keys: map[string]bool{}}
	var doc yaml.Node
	if yaml.Unmarshal(src, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return vf
	}
	vf.root = doc.Content[0]
	var index func(m *yaml.Node, depth int)
	index = func(m *yaml.Node, depth int) {
		if depth > 64 {
			return
		}
		for i := 0; i+1 < len(m.Content); i += 2 {
			k, v := m.Content[i], m.Content[i+1]
			switch v.Kind {
			case yaml.ScalarNode:
				nk := normKey(k.Value)
				vf.keys[nk] = true
				key := nk + "\x00" + v.Value
				vf.byKeyValue[key] = append(vf.byKeyValue[key], v)
			case yaml.MappingNode:
				index(v, depth+1)
			}
		}
	}
	index(vf.root, 0)
	return vf
}

// first is the range of the file's first key (its first line when it has none):
// where a position no values line explains goes, in the variant's own values file.
func (vf *valuesFile) first() graph.Range {
	if vf.root != nil && len(vf.root.Content) > 0 {
		return vf.f.lineRange(vf.root.Content[0].Line)
	}
	if len(vf.f.lines) == 0 {
		return graph.Range{File: vf.f.display, Start: graph.NewPos(1, 1, 0)}
	}
	return vf.f.lineRange(1)
}

// rangeOf is the range of a values node: a scalar's text, else its key's line.
func (vf *valuesFile) rangeOf(key, val *yaml.Node) graph.Range {
	if val.Kind == yaml.ScalarNode {
		return vf.f.colRange(val.Line, val.Column, val.Column+len([]rune(val.Value)))
	}
	return vf.f.lineRange(key.Line)
}

// lookup finds a key path in the file; scalar says whether it holds a scalar (a
// value the template writes) rather than a map or list (a block it reads from).
func (vf *valuesFile) lookup(keys []string) (rg graph.Range, scalar, ok bool) {
	n := vf.root
	var key *yaml.Node
	for _, k := range keys {
		if n == nil || n.Kind != yaml.MappingNode {
			return graph.Range{}, false, false
		}
		var next *yaml.Node
		for i := 0; i+1 < len(n.Content); i += 2 {
			if n.Content[i].Value == k {
				key, next = n.Content[i], n.Content[i+1]
			}
		}
		n = next
	}
	if n == nil || key == nil {
		return graph.Range{}, false, false
	}
	return vf.rangeOf(key, n), n.Kind == yaml.ScalarNode, true
}

// move relocates the resource's positions that lie in foreign templates (the
// document's start may be the chart's own while its fields come from a library's
// define).
func (rl *relocator) move(r *graph.Resource) {
	// The object's kind line in a foreign template stands for it where a position is
	// moved to the variant's values file, which no values line explains.
	tpl := graph.Range{}
	if f := r.Object.Field("kind"); f != nil && rl.foreign[f.KeyRange.File] != nil {
		tpl = f.KeyRange
	}
	fallback := rl.values[0].first()
	// Where each moved position came from, for the finding reported there.
	from := map[graph.Range]graph.Range{}
	var order []graph.Range
	at := func(rg graph.Range, key string, n *graph.Node) graph.Range {
		ft := rl.foreign[rg.File]
		if ft == nil {
			return rg
		}
		got, scalar, ok := rl.byRef(rg, ft)
		if !scalar {
			// A block the line reads from is weaker than a key holding the value.
			if kv, found := rl.byKeyValue(key, n); found {
				got, ok = kv, true
			}
		}
		if !ok {
			got = fallback
			if tpl.IsValid() {
				rg = tpl
			}
		}
		if _, seen := from[got]; !seen {
			from[got] = rg
			order = append(order, got)
		}
		return got
	}
	var walk func(n *graph.Node, key string, depth int)
	walk = func(n *graph.Node, key string, depth int) {
		if n == nil || depth > 256 {
			return
		}
		n.Range = at(n.Range, key, n)
		fs := n.Fields()
		for i := range fs {
			fs[i].KeyRange = at(fs[i].KeyRange, fs[i].Key, fs[i].Value)
			walk(fs[i].Value, fs[i].Key, depth+1)
		}
		for _, it := range n.Items() {
			walk(it, key, depth+1)
		}
	}
	walk(r.Object, "", 0)
	r.Range = at(r.Range, "", nil)
	// Each shown only with the finding reported where its position went.
	for _, to := range order {
		tp := from[to]
		ft := rl.foreign[tp.File]
		what := "dependency " + ft.chart
		if ft.library {
			what = "library chart " + ft.chart
		}
		r.Related = append(r.Related, graph.Location{Range: tp, For: to,
			Message: fmt.Sprintf("template %s of the %s, which writes it", tp.File, what)})
	}
}

// byRef is the values line a template line reads (ValuesReads), looked up in the
// scope the template runs in (the dependency's values, or for a library's define
// the including chart's).
func (rl *relocator) byRef(rg graph.Range, ft *foreignTpl) (at graph.Range, scalar, ok bool) {
	reads, cached := rl.cache.reads[rg.File]
	if !cached {
		reads = ValuesReads(rl.srcs[rg.File])
		rl.cache.reads[rg.File] = reads
	}
	scopes := [][]string{ft.scope, nil}
	if ft.partial {
		scopes = [][]string{nil, ft.scope}
	}
	for _, keys := range reads[int(rg.Start.Line)] {
		for _, vf := range rl.values {
			for _, sc := range scopes {
				got, isScalar, found := vf.lookup(append(sc[:len(sc):len(sc)], keys...))
				if found && isScalar {
					return got, true, true
				}
				if found && !ok {
					at, ok = got, true
				}
			}
		}
	}
	return at, false, ok
}

// normKey folds the spellings of one key (maxSurge, max_surge, max-surge), and a
// list's key with the singular a values file gives its item (accessModes: [x] from
// accessMode: x).
func normKey(k string) string {
	return strings.TrimSuffix(strings.ToLower(keyFolder.Replace(k)), "s")
}

var keyFolder = strings.NewReplacer("_", "", "-", "")

// byKeyValue is the one values line with the same key (in any of its spellings)
// holding the same scalar.
func (rl *relocator) byKeyValue(key string, n *graph.Node) (graph.Range, bool) {
	if n != nil && n.Kind == graph.List && len(n.Items()) == 1 {
		n = n.Items()[0] // accessModes: [ReadWriteOnce] from accessMode: ReadWriteOnce
	}
	if key == "" || n == nil || n.Kind == graph.Map || n.Kind == graph.List || n.Kind == graph.Unknown || n.Kind == graph.Null {
		return graph.Range{}, false
	}
	nk, ok := rl.folded[key]
	if !ok {
		nk = normKey(key)
		rl.folded[key] = nk
	}
	val := ""
	for _, vf := range rl.values {
		if !vf.keys[nk] {
			continue
		}
		if val == "" {
			val = fmt.Sprint(n.Interface())
		}
		switch got := vf.byKeyValue[nk+"\x00"+val]; len(got) {
		case 0:
			continue
		case 1:
			return vf.f.colRange(got[0].Line, got[0].Column, got[0].Column+len([]rune(got[0].Value))), true
		default:
			return graph.Range{}, false
		}
	}
	return graph.Range{}, false
}
