package kustomize

import (
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// builder turns a build's output into resources whose nodes point at the files a
// user edits. The output is kept as a virtual file (the build stream); every node is
// first placed at the same path in the resource file the object came from (found
// through kustomize's origin annotation), then, layer by layer from the innermost
// kustomization out, at the patch or replicas entry that set it, when that patch's
// value is the one in the output.
type builder struct {
	env     Env
	tree    *tree
	top     *kfile
	srcs    map[string]*srcFile
	variant string
	virtual string
	stream  []byte
	sources map[string][]byte
	// fromBase marks output nodes found in the resource file.
	fromBase map[*graph.Node]bool
	patches  map[string][]*graph.Node
}

// resources parses a build's output back with positions and maps each object onto
// its files.
func (b *builder) resources(out *Built) ([]*graph.Resource, []graph.Diagnostic) {
	b.stream = out.Stream
	b.fromBase = map[*graph.Node]bool{}
	b.patches = map[string][]*graph.Node{}
	rs, ds := manifest.Parse(b.virtual, b.stream, manifest.Options{Format: graph.FormatKustomize, Variant: b.variant, Limits: b.env.Limits, SkipConfigData: b.env.SkipConfigData})
	lines := graph.NewLines(b.stream)
	for _, r := range rs {
		line := int(r.Range.Start.Line)
		built := graph.Location{Range: lines.Range(b.virtual, b.stream, line), Message: "build output"}
		if o, ok := out.Origins[line]; ok {
			b.place(r, o) // without an origin, the build output is the only true location
		}
		r.Related = append(r.Related, built)
	}
	return rs, ds
}

// place maps one output object onto its resource file and patches.
func (b *builder) place(r *graph.Resource, o Origin) {
	if o.Path == "" {
		if o.ConfiguredIn == "" {
			return
		}
		k := b.tree.byPath(filepath.Join(b.top.dir, filepath.FromSlash(o.ConfiguredIn)))
		if k == nil {
			return
		}
		at := graph.Range{File: k.display, Start: graph.Pos{Line: 1, Column: 1}}
		if k.generate != nil {
			at = k.generate.Range
		}
		setAll(r.Object, at)
		r.Range, r.Origin.File = at, k.display
		return
	}
	file := filepath.Clean(filepath.Join(b.top.dir, filepath.FromSlash(o.Path)))
	src := b.srcs[file]
	if src == nil {
		return
	}
	chain := b.tree.chains[file]
	names := nameHistory(r.Name, chain)
	doc := matchDoc(r, src, chain)
	var def graph.Range
	if doc == nil {
		def = graph.Range{File: src.display, Start: graph.Pos{Line: 1, Column: 1}}
		setAll(r.Object, def)
	} else {
		def = doc.Range
		b.overlay(r.Object, doc.Object, doc.Range)
		r.Origin.Doc = doc.Origin.Doc
	}
	r.Range, r.Origin.File = def, src.display
	var locs []graph.Location
	seen := map[*kfile]bool{}
	for _, k := range chain {
		b.layer(k, r, names, seen, &locs)
	}
	if len(locs) > 0 {
		start := graph.Range{File: def.File, Start: def.Start, End: def.Start}
		r.Related = append(r.Related, graph.Location{Range: start, Message: "resource defined here"})
		r.Related = append(r.Related, locs...)
	}
}

// byPath returns the kustomization of the tree with this file path.
func (t *tree) byPath(p string) *kfile {
	for _, k := range t.order {
		if k.path == p || k.dir == p {
			return k
		}
	}
	return nil
}

// nameHistory returns the names an object had through the chain: as written, then
// after each kustomization's namePrefix/nameSuffix (the last is the output name).
// Patches may name it by any of them.
func nameHistory(final string, chain []*kfile) []string {
	pre, suf := "", ""
	for _, k := range chain {
		pre, suf = k.prefix+pre, suf+k.suffix
	}
	orig := final
	if strings.HasPrefix(orig, pre) && strings.HasSuffix(orig[len(pre):], suf) {
		orig = orig[len(pre) : len(orig)-len(suf)]
	}
	names := []string{orig}
	n := orig
	for _, k := range chain {
		n = k.prefix + n + k.suffix
		names = append(names, n)
	}
	return names
}

// matchDoc finds the document of the resource file an object was built from: same
// kind, and the name as written there (the output name without the chain's
// prefixes and suffixes); failing that, the only document of that kind.
func matchDoc(r *graph.Resource, src *srcFile, chain []*kfile) *graph.Resource {
	orig := nameHistory(r.Name, chain)[0]
	var same []*graph.Resource
	for _, d := range src.resources {
		if d.Kind != r.Kind {
			continue
		}
		if d.Name == orig || d.Name == r.Name {
			return d
		}
		same = append(same, d)
	}
	if len(same) == 1 {
		return same[0]
	}
	sort.SliceStable(same, func(i, j int) bool { return len(same[i].Name) > len(same[j].Name) })
	for _, d := range same {
		if d.Name != "" && strings.Contains(r.Name, d.Name) {
			return d
		}
	}
	return nil
}

// overlay places out's nodes at the matching nodes of src; nodes src lacks go to the
// nearest matched parent (fb).
func (b *builder) overlay(out, src *graph.Node, fb graph.Range) {
	if out == nil {
		return
	}
	if src == nil || src.Kind != out.Kind && !(isScalar(src) && isScalar(out)) {
		setAll(out, fb)
		return
	}
	b.fromBase[out] = true
	out.Range = src.Range
	switch out.Kind {
	case graph.Map:
		for i := range out.Fields() {
			f := &out.Fields()[i]
			sf := src.Field(f.Key)
			if sf == nil {
				f.KeyRange = fb
				setAll(f.Value, fb)
				continue
			}
			f.KeyRange = sf.KeyRange
			b.overlay(f.Value, sf.Value, sf.KeyRange)
		}
	case graph.List:
		for i, it := range out.Items() {
			b.overlay(it, matchItem(src, it, i), src.Range)
		}
	}
}

// matchItem finds the element of list l that corresponds to it (the i-th output
// element): by name for named elements (containers, volumes), else by index.
func matchItem(l, it *graph.Node, i int) *graph.Node {
	if l == nil || l.Kind != graph.List {
		return nil
	}
	if name := it.Get("name").Str(); name != "" {
		for _, c := range l.Items() {
			if c.Get("name").Str() == name {
				return c
			}
		}
		return nil
	}
	if i < len(l.Items()) {
		return l.Items()[i]
	}
	return nil
}

func isScalar(n *graph.Node) bool {
	switch n.Kind {
	case graph.String, graph.Int, graph.Float, graph.Bool, graph.Null:
		return true
	}
	return false
}

// setAll places every node below n at r.
func setAll(n *graph.Node, r graph.Range) {
	if n == nil {
		return
	}
	n.Range = r
	for i := range n.Fields() {
		n.Fields()[i].KeyRange = r
		setAll(n.Fields()[i].Value, r)
	}
	for _, it := range n.Items() {
		setAll(it, r)
	}
}

// targetMatches reports whether a patch's selector can name the object: its kind,
// and its name (a regular expression, as kustomize reads it) against any name the
// object had.
func targetMatches(s *selector, r *graph.Resource, names []string) bool {
	if s.kind != "" && s.kind != r.Kind {
		return false
	}
	if s.name == "" {
		return true
	}
	re, err := regexp.Compile("^(?:" + s.name + ")$")
	for _, n := range names {
		if n == s.name || err == nil && re.MatchString(n) {
			return true
		}
	}
	return false
}

// pointer splits a JSON pointer ("/spec/replicas") into its segments.
func pointer(p string) []string {
	if !strings.HasPrefix(p, "/") {
		return nil
	}
	segs := strings.Split(p[1:], "/")
	for i, s := range segs {
		segs[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
	}
	return segs
}

// at walks a JSON pointer through a node tree; it returns the node and, when the
// last step is a map key, its field.
func at(n *graph.Node, segs []string) (*graph.Node, *graph.Field) {
	var f *graph.Field
	for _, s := range segs {
		switch n.Kind {
		case graph.Map:
			f = n.Field(s)
			if f == nil {
				return nil, nil
			}
			n = f.Value
		case graph.List:
			i, err := strconv.Atoi(s)
			if s == "-" {
				i, err = len(n.Items())-1, nil
			}
			if err != nil || i < 0 || i >= len(n.Items()) {
				return nil, nil
			}
			n, f = n.Items()[i], nil
		default:
			return nil, nil
		}
	}
	return n, f
}
