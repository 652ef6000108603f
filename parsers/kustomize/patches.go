package kustomize

import (
	"slices"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// replicaKinds are the kinds kustomize's replicas field changes.
var replicaKinds = map[string]bool{"Deployment": true, "ReplicaSet": true, "ReplicationController": true, "StatefulSet": true}

// layer moves the nodes a kustomization's components, replicas and patches set onto
// them, recording a related location for each that did.
func (b *builder) layer(k *kfile, r *graph.Resource, names []string, seen map[*kfile]bool, locs *[]graph.Location) {
	if seen[k] {
		return
	}
	seen[k] = true
	for _, dir := range k.components() {
		if c := b.tree.byDir[dir]; c != nil {
			b.layer(c, r, names, seen, locs)
		}
	}
	if replicaKinds[r.Kind] {
		for _, rp := range k.replicas {
			if !contains(names, rp.name) {
				continue
			}
			f := r.Object.Get("spec").Field("replicas")
			if f == nil || f.Value.Str() != rp.count.Str() {
				continue
			}
			f.KeyRange, f.Value.Range = rp.count.Range, rp.count.Range
			*locs = append(*locs, graph.Location{Range: rp.count.Range, Message: "replicas set here"})
		}
	}
	for _, p := range k.patches {
		for _, d := range b.patchDocs(k, p) {
			if b.applyPatch(r, names, p, d) {
				start := graph.Range{File: d.Range.File, Start: d.Range.Start, End: d.Range.Start}
				*locs = append(*locs, graph.Location{Range: start, Message: "patch applied here"})
			}
		}
	}
}

// applyPatch applies one patch document's positions to r when it targets r.
func (b *builder) applyPatch(r *graph.Resource, names []string, p patchRef, d *graph.Node) bool {
	if p.json || d.Kind == graph.List {
		if p.target == nil || !targetMatches(p.target, r, names) {
			return false
		}
		return b.applyJSON(r.Object, d)
	}
	if d.Kind != graph.Map {
		return false
	}
	sel := p.target
	if sel == nil {
		sel = &selector{kind: d.Get("kind").Str(), name: d.Get("metadata", "name").Str()}
	}
	if !targetMatches(sel, r, names) {
		return false
	}
	hit := false
	for _, pf := range d.Fields() {
		of := r.Object.Field(pf.Key)
		if of == nil {
			continue
		}
		switch pf.Key {
		case "apiVersion", "kind":
			continue // identify the target; they set nothing
		case "metadata":
			hit = b.attributeExcept(of, pf, "name", "namespace") || hit
		default:
			if b.attribute(of.Value, pf.Value) {
				hit = true
				if !b.fromBase[of.Value] {
					of.KeyRange = pf.KeyRange
				}
			}
		}
	}
	return hit
}

// attributeExcept attributes a map field's entries except the identifying ones.
func (b *builder) attributeExcept(of *graph.Field, pf graph.Field, skip ...string) bool {
	hit := false
	for _, sub := range pf.Value.Fields() {
		if contains(skip, sub.Key) {
			continue
		}
		o := of.Value.Field(sub.Key)
		if o != nil && b.attribute(o.Value, sub.Value) {
			hit = true
			if isScalar(sub.Value) || !b.fromBase[o.Value] {
				o.KeyRange = sub.KeyRange
			}
		}
	}
	return hit
}

// attribute places the output nodes that carry a patch's values at the patch. A
// scalar moves only when its value is the patch's; a map or list moves when the
// patch added it (the resource file did not have it).
func (b *builder) attribute(out, p *graph.Node) bool {
	if out == nil || p == nil {
		return false
	}
	hit := false
	switch p.Kind {
	case graph.Map:
		if out.Kind != graph.Map {
			return false
		}
		for _, pf := range p.Fields() {
			of := out.Field(pf.Key)
			if of == nil || !b.attribute(of.Value, pf.Value) {
				continue
			}
			hit = true
			if isScalar(pf.Value) || !b.fromBase[of.Value] {
				of.KeyRange = pf.KeyRange
			}
		}
	case graph.List:
		if out.Kind != graph.List {
			return false
		}
		for i, pit := range p.Items() {
			oit := matchItem(out, pit, i)
			if oit != nil && b.attribute(oit, pit) {
				hit = true
			}
		}
	default:
		if !isScalar(out) || out.Scalar != p.Scalar {
			return false
		}
		out.Range = p.Range
		return true
	}
	if hit && !b.fromBase[out] {
		out.Range = p.Range
	}
	return hit
}

// applyJSON applies the positions of a JSON 6902 patch: each add or replace moves the
// node at its path to its value (the key to the operation's path).
func (b *builder) applyJSON(obj, ops *graph.Node) bool {
	hit := false
	for _, op := range ops.List() {
		switch op.Get("op").Str() {
		case "add", "replace":
		default:
			continue
		}
		val := op.Get("value")
		n, f := at(obj, pointer(op.Get("path").Str()))
		if n == nil || val == nil {
			continue
		}
		moved := false
		if isScalar(val) {
			if isScalar(n) && n.Scalar == val.Scalar {
				n.Range, moved = val.Range, true
			}
		} else {
			moved = b.attribute(n, val)
			if moved && !b.fromBase[n] {
				n.Range = val.Range
			}
		}
		if moved {
			hit = true
			if f != nil {
				f.KeyRange = op.Get("path").Range
			}
		}
	}
	return hit
}

// patchDocs returns a patch's documents with positions in the file that holds them:
// the patch file, or the kustomization for an inline patch (shifted into place when
// written as a literal block, otherwise all at the patch string).
func (b *builder) patchDocs(k *kfile, p patchRef) []*graph.Node {
	key := p.file
	if p.inline != nil {
		key = k.path + "#" + p.inline.Range.String()
	}
	if docs, ok := b.patches[key]; ok {
		return docs
	}
	var docs []*graph.Node
	if p.file != "" {
		if data, d := b.env.read(p.file); d == nil {
			name := b.env.display(p.file)
			b.sources[name] = data
			docs = nodes(manifest.Documents(name, data, manifest.Options{Limits: b.env.Limits}))
		}
	} else {
		docs = inlineDocs(k, p, b.env)
	}
	b.patches[key] = docs
	return docs
}

// inlineDocs parses an inline patch. A literal block ("patch: |") keeps its text
// verbatim at a fixed indentation, so its positions shift exactly into the
// kustomization file; any other style is placed at the string as a whole.
func inlineDocs(k *kfile, p patchRef, env Env) []*graph.Node {
	n, name, data := p.inline, k.display, k.data
	if p.name != "" {
		name, data = p.name, p.data
	}
	docs := nodes(manifest.Documents(name, []byte(n.Scalar), manifest.Options{Limits: env.Limits}))
	lines := graph.NewLines(data)
	start := n.Range.Start
	literal := int(start.Byte) < len(data) && data[start.Byte] == '|'
	first := int(start.Line) + 1
	if !literal || first > len(lines) {
		for _, d := range docs {
			setAll(d, n.Range)
		}
		return docs
	}
	indent := 0
	for off := lines[first-1]; off < len(data) && data[off] == ' '; off++ {
		indent++
	}
	for _, d := range docs {
		shift(d, first-1, indent, data, lines)
	}
	return docs
}

// shift moves every range of a tree dl lines down and dc columns right, recomputing
// byte offsets in data.
func shift(n *graph.Node, dl, dc int, data []byte, lines []int) {
	if n == nil {
		return
	}
	n.Range = shiftRange(n.Range, dl, dc, data, lines)
	for i := range n.Fields() {
		n.Fields()[i].KeyRange = shiftRange(n.Fields()[i].KeyRange, dl, dc, data, lines)
		shift(n.Fields()[i].Value, dl, dc, data, lines)
	}
	for _, it := range n.Items() {
		shift(it, dl, dc, data, lines)
	}
}

func shiftRange(r graph.Range, dl, dc int, data []byte, lines []int) graph.Range {
	move := func(p graph.Pos) graph.Pos {
		line, col := int(p.Line)+dl, int(p.Column)+dc
		return graph.NewPos(line, col, byteAt(data, lines, line, col))
	}
	r.Start, r.End = move(r.Start), move(r.End)
	return r
}

// byteAt returns the byte offset of a 1-based line and character column.
func byteAt(data []byte, lines []int, line, col int) int {
	if line < 1 || line > len(lines) {
		return 0
	}
	off := lines[line-1]
	for c := 1; c < col && off < len(data) && data[off] != '\n'; c++ {
		off++
		for off < len(data) && data[off]&0xC0 == 0x80 {
			off++
		}
	}
	return off
}

func contains(list []string, s string) bool {
	return slices.Contains(list, s)
}

// nodes keeps the trees of the documents that parsed; a patch that does not parse is
// reported by kustomize's build.
func nodes(docs []manifest.Document, _ []graph.Diagnostic) []*graph.Node {
	out := make([]*graph.Node, len(docs))
	for i, d := range docs {
		out[i] = d.Node
	}
	return out
}
