package terraform

import (
	"encoding/binary"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Wire is a Result in the compact form a worker process sends its parent. Gob would
// describe every node of every resource field by field, file name and all, and the
// parent would allocate each of those strings again; here each root module's
// resources are one byte string, encoded as soon as the module is evaluated (so the
// worker holds bytes the collector need not scan instead of node trees), in which
// every distinct string is written once and referred to by number afterwards.
// Sources travel as they are, one byte slice per file.
type Wire struct {
	// Resources holds the encoded resources of each evaluated root module, in the
	// order of Result.Resources.
	Resources [][]byte
	// Diagnostics are encoded the same way.
	Diagnostics []byte
	// Names and Files are Result.Sources: the displayed names, sorted, and the
	// contents in the same order.
	Names []string
	Files [][]byte
	// Consumed lists Result.Consumed, sorted.
	Consumed []string
}

// LoadWire is Load for a worker process: the same evaluation, returned in its Wire form.
func LoadWire(dirs []Dir, display func(path string) string, opts Options) *Wire {
	if display == nil {
		display = filepath.ToSlash
	}
	l := load(dirs, display, opts, true)
	w := &Wire{}
	res := l.result(display)
	for _, i := range l.roots {
		if b := l.outs[i].wire; len(b) > 0 {
			w.Resources = append(w.Resources, b)
		}
	}
	w.Diagnostics = encodeDiagnostics(res.Diagnostics)
	w.Names = make([]string, 0, len(res.Sources))
	for n := range res.Sources {
		w.Names = append(w.Names, n)
	}
	sort.Strings(w.Names)
	w.Files = make([][]byte, len(w.Names))
	for i, n := range w.Names {
		w.Files[i] = res.Sources[n]
	}
	for n := range res.Consumed {
		w.Consumed = append(w.Consumed, n)
	}
	sort.Strings(w.Consumed)
	return w
}

// Result decodes w. It fails, and never panics, on bytes that are not an encoding.
func (w *Wire) Result() (*Result, error) {
	if len(w.Names) != len(w.Files) {
		return nil, errors.New("terraform result: names and files differ in number")
	}
	res := &Result{}
	for _, b := range w.Resources {
		d := decoder{buf: b}
		n := d.count()
		if d.err == nil && res.Resources == nil {
			res.Resources = make([]*graph.Resource, 0, n)
		}
		for range n {
			res.Resources = append(res.Resources, d.resource())
		}
		if err := d.done(); err != nil {
			return nil, err
		}
	}
	if len(w.Diagnostics) > 0 {
		d := decoder{buf: w.Diagnostics}
		if n := d.count(); n > 0 {
			res.Diagnostics = make([]graph.Diagnostic, n)
			for i := range res.Diagnostics {
				res.Diagnostics[i] = graph.Diagnostic{Range: d.rng(), Message: d.str(), Variant: d.str(), Note: d.uint() == 1}
			}
		}
		if err := d.done(); err != nil {
			return nil, err
		}
	}
	if len(w.Names) > 0 {
		res.Sources = make(map[string][]byte, len(w.Names))
		for i, n := range w.Names {
			res.Sources[n] = w.Files[i]
		}
	}
	if len(w.Consumed) > 0 {
		res.Consumed = make(map[string]bool, len(w.Consumed))
		for _, n := range w.Consumed {
			res.Consumed[n] = true
		}
	}
	return res, nil
}

// encodeResources is the wire form of resources: their number, then each resource.
func encodeResources(rs []*graph.Resource) []byte {
	if len(rs) == 0 {
		return nil
	}
	e := encoder{strs: map[string]uint64{}}
	e.uint(uint64(len(rs)))
	for _, r := range rs {
		e.resource(r)
	}
	return slices.Clip(e.buf)
}

func encodeDiagnostics(ds []graph.Diagnostic) []byte {
	if len(ds) == 0 {
		return nil
	}
	e := encoder{strs: map[string]uint64{}}
	e.uint(uint64(len(ds)))
	for _, d := range ds {
		e.rng(d.Range)
		e.str(d.Message)
		e.str(d.Variant)
		note := uint64(0)
		if d.Note {
			note = 1
		}
		e.uint(note)
	}
	return e.buf
}

// The encoding is a sequence of unsigned varints (signed numbers zig-zagged) and
// string references. A string reference is 0 for the empty string, 1 followed by a
// length and the bytes for a string not seen before in this encoding (it takes the
// next number), or 2 + n for the n-th string seen. A node is 0 when nil, otherwise
// its kind + 1, its range, scalar, fields (count, then key, key range and value of
// each) and items (count, then each node). A range is its file, its start (line,
// column, byte) and its end as differences from the start.
type encoder struct {
	buf  []byte
	strs map[string]uint64
}

func (e *encoder) uint(v uint64) { e.buf = binary.AppendUvarint(e.buf, v) }
func (e *encoder) int(v int64)   { e.buf = binary.AppendVarint(e.buf, v) }

func (e *encoder) str(s string) {
	if s == "" {
		e.uint(0)
		return
	}
	if n, ok := e.strs[s]; ok {
		e.uint(n + 2)
		return
	}
	e.strs[s] = uint64(len(e.strs))
	e.uint(1)
	e.uint(uint64(len(s)))
	e.buf = append(e.buf, s...)
}

func (e *encoder) rng(r graph.Range) {
	e.str(r.File)
	e.int(int64(r.Start.Line))
	e.int(int64(r.Start.Column))
	e.int(int64(r.Start.Byte))
	e.int(int64(r.End.Line) - int64(r.Start.Line))
	e.int(int64(r.End.Column))
	e.int(int64(r.End.Byte) - int64(r.Start.Byte))
}

func (e *encoder) node(n *graph.Node) {
	if n == nil {
		e.uint(0)
		return
	}
	e.uint(uint64(n.Kind) + 1)
	e.rng(n.Range)
	e.str(n.Scalar)
	e.uint(uint64(len(n.Fields())))
	for _, f := range n.Fields() {
		e.str(f.Key)
		e.rng(f.KeyRange)
		e.node(f.Value)
	}
	e.uint(uint64(len(n.Items())))
	for _, it := range n.Items() {
		e.node(it)
	}
}

func (e *encoder) resource(r *graph.Resource) {
	if r == nil {
		e.uint(0)
		return
	}
	e.uint(1)
	e.str(r.APIVersion)
	e.str(r.Kind)
	e.str(r.Namespace)
	e.str(r.Name)
	o := r.Origin
	e.str(string(o.Format))
	e.str(o.File)
	e.int(int64(o.Doc))
	e.str(o.Variant)
	e.str(o.Address)
	e.str(o.Source)
	e.str(o.Context)
	e.str(o.Root)
	e.rng(r.Range)
	e.node(r.Object)
	e.uint(uint64(len(r.Related)))
	for _, l := range r.Related {
		e.rng(l.Range)
		e.str(l.Message)
	}
	keys := make([]string, 0, len(r.Facts))
	for k := range r.Facts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	e.uint(uint64(len(keys)))
	for _, k := range keys {
		e.str(k)
		e.node(r.Facts[k])
	}
}

// maxWireDepth bounds the nesting of decoded nodes; evaluation never builds trees
// nearly this deep (HCL's own nesting is bounded far below it).
const maxWireDepth = 10_000

// decoder reads an encoding. The first problem is kept in err; after it every read
// returns a zero value, so callers check err once at the end.
type decoder struct {
	buf   []byte
	off   int
	strs  []string
	err   error
	depth int
	nodes []graph.Node // allocated in blocks
}

func (d *decoder) fail(what string) {
	if d.err == nil {
		d.err = fmt.Errorf("terraform result: %s at byte %d", what, d.off)
	}
}

func (d *decoder) done() error {
	if d.err == nil && d.off != len(d.buf) {
		d.fail("trailing bytes")
	}
	return d.err
}

func (d *decoder) uint() uint64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Uvarint(d.buf[d.off:])
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.off += n
	return v
}

func (d *decoder) int() int64 {
	if d.err != nil {
		return 0
	}
	v, n := binary.Varint(d.buf[d.off:])
	if n <= 0 {
		d.fail("bad number")
		return 0
	}
	d.off += n
	return v
}

// int32 reads a number that must fit a position's field.
func (d *decoder) int32(v int64) int32 {
	if v != int64(int32(v)) {
		d.fail("position out of range")
		return 0
	}
	return int32(v)
}

// count reads a number of elements, each at least one byte long.
func (d *decoder) count() int {
	n := d.uint()
	if n > uint64(len(d.buf)-d.off) {
		d.fail("count past the end")
		return 0
	}
	return int(n)
}

func (d *decoder) str() string {
	switch n := d.uint(); n {
	case 0:
		return ""
	case 1:
		l := d.uint()
		if d.err != nil || l > uint64(len(d.buf)-d.off) {
			d.fail("string past the end")
			return ""
		}
		s := string(d.buf[d.off : d.off+int(l)])
		d.off += int(l)
		d.strs = append(d.strs, s)
		return s
	default:
		if n-2 >= uint64(len(d.strs)) {
			d.fail("unknown string")
			return ""
		}
		return d.strs[n-2]
	}
}

func (d *decoder) rng() graph.Range {
	var r graph.Range
	r.File = d.str()
	sl, sc, sb := d.int(), d.int(), d.int()
	el, ec, eb := sl+d.int(), d.int(), sb+d.int()
	r.Start = graph.Pos{Line: d.int32(sl), Column: d.int32(sc), Byte: d.int32(sb)}
	r.End = graph.Pos{Line: d.int32(el), Column: d.int32(ec), Byte: d.int32(eb)}
	return r
}

func (d *decoder) node() *graph.Node {
	k := d.uint()
	if k == 0 || d.err != nil {
		return nil
	}
	if k-1 > uint64(graph.Unknown) {
		d.fail("bad node kind")
		return nil
	}
	if d.depth++; d.depth > maxWireDepth {
		d.fail("nodes nest too deeply")
		return nil
	}
	defer func() { d.depth-- }()
	if len(d.nodes) == 0 {
		d.nodes = make([]graph.Node, 256)
	}
	n := &d.nodes[0]
	d.nodes = d.nodes[1:]
	n.Kind = graph.NodeKind(k - 1)
	n.Range = d.rng()
	n.Scalar = d.str()
	if c := d.count(); c > 0 {
		fs := make([]graph.Field, c)
		for i := range fs {
			f := &fs[i]
			f.Key = d.str()
			f.KeyRange = d.rng()
			f.Value = d.node()
		}
		n.SetFields(fs)
	}
	if c := d.count(); c > 0 {
		items := make([]*graph.Node, c)
		for i := range items {
			items[i] = d.node()
		}
		n.SetItems(items)
	}
	return n
}

func (d *decoder) resource() *graph.Resource {
	if d.uint() == 0 || d.err != nil {
		return nil
	}
	r := &graph.Resource{APIVersion: d.str(), Kind: d.str(), Namespace: d.str(), Name: d.str()}
	r.Origin.Format = graph.Format(d.str())
	r.Origin.File = d.str()
	doc := d.int()
	if doc != int64(int(doc)) {
		d.fail("document index out of range")
	}
	r.Origin.Doc = int(doc)
	r.Origin.Variant = d.str()
	r.Origin.Address = d.str()
	r.Origin.Source = d.str()
	r.Origin.Context = d.str()
	r.Origin.Root = d.str()
	r.Range = d.rng()
	r.Object = d.node()
	if c := d.count(); c > 0 {
		r.Related = make([]graph.Location, c)
		for i := range r.Related {
			r.Related[i] = graph.Location{Range: d.rng(), Message: d.str()}
		}
	}
	if c := d.count(); c > 0 {
		r.Facts = make(map[string]*graph.Node, c)
		for range c {
			k := d.str()
			r.Facts[k] = d.node()
		}
	}
	return r
}
