// Package graph is pvlint's format-neutral model: Kubernetes-shaped resources whose
// every node remembers where it came from, and the storage relations between them.
//
// YAML manifests, Helm charts, Kustomize builds and Terraform all produce this same
// model, so nothing here may assume a particular input format. The package imports only
// the standard library; parsers build it and rules read it.
package graph

import (
	"math"
	"strconv"
	"strings"
)

// Pos is a position in a source file. Line and Column are 1-based; Column counts
// characters (Unicode code points), as yaml.v3 and HCL do. Byte is the 0-based offset
// of the position in the file. The zero Pos means "unknown".
//
// The fields are int32 because every node and map key carries two of them: at 24 bytes
// a Pos was a third of a Node, and a large run holds hundreds of thousands of nodes. No
// input pvlint parses can outgrow them: every file, standard input and rendered Helm or
// Kustomize output is read under a size limit that the command line refuses to raise
// past math.MaxInt32 bytes (cmd/internal/cli/limits.go), so every offset, line and column fits.
type Pos struct {
	Line, Column, Byte int32
}

// NewPos is the position at line, column and byte offset, as parsers count them; the
// size limits keep every value within int32 (see Pos).
func NewPos(line, col, off int) Pos {
	return Pos{Line: int32(line), Column: int32(col), Byte: int32(off)}
}

// IsValid reports whether the position names a real line.
func (p Pos) IsValid() bool { return p.Line > 0 }

// Range is a half-open span of a file: Start is the first character, End the position
// just after the last one. File is the path as the user would open it (relative to the
// working directory where possible, forward slashes).
type Range struct {
	File       string
	Start, End Pos
}

// IsValid reports whether the range points at a line of a file.
func (r Range) IsValid() bool { return r.File != "" && r.Start.IsValid() }

// String formats the range as file:line:col, the form terminals make clickable.
func (r Range) String() string {
	if !r.Start.IsValid() {
		return r.File
	}
	return r.File + ":" + strconv.Itoa(int(r.Start.Line)) + ":" + strconv.Itoa(int(r.Start.Column))
}

// NodeKind says what shape of value a Node holds.
type NodeKind uint8

// The node kinds. Unknown is a value that exists but cannot be known statically (a
// Terraform computed attribute or data source): rules must not guess it.
const (
	Invalid NodeKind = iota // the nil Node's kind: the path does not exist
	Map
	List
	String
	Int
	Float
	Bool
	Null
	Unknown
)

// Field is one key of a Map node, with the range of the key itself.
type Field struct {
	Key      string
	KeyRange Range
	Value    *Node
}

// Node is one value of a resource's object tree with its source range. A nil *Node is
// valid everywhere and means "absent", so rules chain accessors without checks:
//
//	replicas, ok := r.Get("spec", "replicas").Int()
//
// The layout is about memory: a run keeps every node until it exits, one per YAML
// value (over 400,000 for 10,000 workload objects, most of the heap at the peak), and
// most are scalars. A scalar needs its kind, range and text, a collection its entries,
// never both, so a Map's or List's entries live behind one pointer (Contents) that a
// scalar leaves nil: a node is 72 bytes instead of the 112 that a Fields and an Items
// slice in every node took, and a collection pays 48 bytes for its Contents. Every
// field stays exported, so encoding/gob (the worker protocol) and reflect.DeepEqual
// see the whole tree.
type Node struct {
	Kind   NodeKind
	Range  Range  // the value's span
	Scalar string // the literal text of a scalar (String, Int, Float, Bool)
	// Contents holds a collection's entries; nil for scalars and for a collection
	// built without any. Read them with Fields and Items, set them with SetFields,
	// SetItems, AddFields and AddItems.
	Contents *Contents
}

// Contents are a collection node's entries: a Map's fields or a List's items.
type Contents struct {
	Fields []Field // Map entries in source order
	Items  []*Node // List elements
}

// Fields returns a Map's entries in source order (nil for anything else, and for nil).
// The slice is the node's own: assigning to an element changes the node.
func (n *Node) Fields() []Field {
	if n == nil || n.Contents == nil {
		return nil
	}
	return n.Contents.Fields
}

// Items returns a List's elements (nil for anything else, and for nil). The slice is
// the node's own: assigning to an element changes the node. List, unlike Items,
// checks the kind.
func (n *Node) Items() []*Node {
	if n == nil || n.Contents == nil {
		return nil
	}
	return n.Contents.Items
}

// SetFields makes fs the node's map entries.
func (n *Node) SetFields(fs []Field) {
	if n.Contents == nil {
		if fs == nil {
			return
		}
		n.Contents = &Contents{}
	}
	n.Contents.Fields = fs
}

// SetItems makes items the node's list elements.
func (n *Node) SetItems(items []*Node) {
	if n.Contents == nil {
		if items == nil {
			return
		}
		n.Contents = &Contents{}
	}
	n.Contents.Items = items
}

// AddFields appends map entries, as append does to the node's Fields.
func (n *Node) AddFields(fs ...Field) { n.SetFields(append(n.Fields(), fs...)) }

// AddItems appends list elements, as append does to the node's Items.
func (n *Node) AddItems(items ...*Node) { n.SetItems(append(n.Items(), items...)) }

// NewMap is a Map node at r with fields fs.
func NewMap(r Range, fs []Field) *Node {
	return &Node{Kind: Map, Range: r, Contents: &Contents{Fields: fs}}
}

// NewList is a List node at r with items.
func NewList(r Range, items []*Node) *Node {
	return &Node{Kind: List, Range: r, Contents: &Contents{Items: items}}
}

// Get walks a path of map keys and list indexes ("0", "1", ...) and returns the node at
// its end, or nil when any step is missing.
func (n *Node) Get(path ...string) *Node {
	for _, p := range path {
		if n == nil {
			return nil
		}
		switch n.Kind {
		case Map:
			n = n.field(p)
		case List:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(n.Items()) {
				return nil
			}
			n = n.Items()[i]
		default:
			return nil
		}
	}
	return n
}

func (n *Node) field(key string) *Node {
	for i := range n.Fields() {
		if n.Fields()[i].Key == key {
			return n.Fields()[i].Value
		}
	}
	return nil
}

// Field returns the map entry for key (with its key range), or nil.
func (n *Node) Field(key string) *Field {
	if n == nil || n.Kind != Map {
		return nil
	}
	for i := range n.Fields() {
		if n.Fields()[i].Key == key {
			return &n.Fields()[i]
		}
	}
	return nil
}

// Is reports whether the node is present and of kind k. Use it instead of reading
// Kind on a node that may be nil.
func (n *Node) Is(k NodeKind) bool { return n != nil && n.Kind == k }

// Exists reports whether the node is present (it may still be null or unknown).
func (n *Node) Exists() bool { return n != nil }

// IsNull reports whether the node is absent or an explicit null.
func (n *Node) IsNull() bool { return n == nil || n.Kind == Null }

// IsUnknown reports whether the value exists but cannot be known statically.
func (n *Node) IsUnknown() bool { return n != nil && n.Kind == Unknown }

// Str returns a scalar's text, or "" for anything else. Numbers and booleans return
// their literal text, as Kubernetes' loose decoding would see them in string fields.
func (n *Node) Str() string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case String, Int, Float, Bool:
		return n.Scalar
	}
	return ""
}

// IsString reports whether the node is a string scalar.
func (n *Node) IsString() bool { return n != nil && n.Kind == String }

// Int returns the node as an integer. Integer-valued strings are accepted too because
// Terraform's provider stores Deployment replicas as a string; "" is not a number.
// An Int node's text is read as YAML reads a plain integer (YAMLInt), so 0x1F, 1_000,
// 0o10 and 010 are 31, 1000, 8 and 8, the numbers the API server receives
// (docs/yaml.md); a string is read in decimal only.
func (n *Node) Int() (int, bool) {
	if n == nil {
		return 0, false
	}
	switch n.Kind {
	case Int:
		v, ok := YAMLInt(n.Scalar)
		if !ok || int64(int(v)) != v {
			return 0, false
		}
		return int(v), true
	case String:
		v, err := strconv.Atoi(strings.TrimSpace(n.Scalar))
		if err != nil {
			return 0, false
		}
		return v, true
	case Float:
		f, ok := yamlFloat(n.Scalar)
		if !ok || f != float64(int(f)) {
			return 0, false
		}
		return int(f), true
	}
	return 0, false
}

// YAMLInt reads the text of a plain YAML integer as sigs.k8s.io/yaml (yaml.v2's
// rules, what kubectl sends) and yaml.v3 do: underscores are dropped, then a sign and
// a base prefix (0x, 0o, 0b, or a leading 0 for octal) are read as Go reads them. ok
// is false for text that is not an integer that fits in int64.
func YAMLInt(s string) (int64, bool) {
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	v, err := strconv.ParseInt(s, 0, 64)
	return v, err == nil
}

// yamlFloat reads the text of a plain YAML float (underscores dropped, as YAML reads
// them). ".inf" and ".nan" are not read: no JSON, so no request to the API server,
// can hold them.
func yamlFloat(s string) (float64, bool) {
	if strings.IndexByte(s, '_') >= 0 {
		s = strings.ReplaceAll(s, "_", "")
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// IntOr returns the node as an integer, or def when it is absent or not a number.
func (n *Node) IntOr(def int) int {
	if v, ok := n.Int(); ok {
		return v
	}
	return def
}

// Bool returns the node as a boolean; the strings "true"/"false" count too. A Bool
// node may also be spelled as YAML 1.1 spells booleans (yes, no, on, off, y, n):
// kubectl reads YAML with those rules and sends true or false (docs/yaml.md).
func (n *Node) Bool() (bool, bool) {
	if n == nil {
		return false, false
	}
	switch n.Kind {
	case Bool:
		if v, ok := YAML11Bool(n.Scalar); ok {
			return v, true
		}
	case String:
		switch n.Scalar {
		case "true", "True", "TRUE":
			return true, true
		case "false", "False", "FALSE":
			return false, true
		}
	}
	return false, false
}

// YAML11Bool reads a plain scalar as a boolean the way yaml.v2, and so kubectl, does.
func YAML11Bool(s string) (v, ok bool) {
	switch s {
	case "true", "True", "TRUE", "yes", "Yes", "YES", "on", "On", "ON", "y", "Y":
		return true, true
	case "false", "False", "FALSE", "no", "No", "NO", "off", "Off", "OFF", "n", "N":
		return false, true
	}
	return false, false
}

// List returns a list's elements, or nil.
func (n *Node) List() []*Node {
	if n == nil || n.Kind != List {
		return nil
	}
	return n.Items()
}

// Strings returns the string elements of a list (other elements are skipped).
func (n *Node) Strings() []string {
	var out []string
	for _, it := range n.List() {
		if s := it.Str(); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// Locate returns the range of the deepest existing node along path, so a finding about
// a missing field points at its nearest present parent. It returns the key's range for
// a present map entry, which is where editors expect a marker.
func (n *Node) Locate(path ...string) Range {
	if n == nil {
		return Range{}
	}
	best := n.Range
	cur := n
	for _, p := range path {
		if cur == nil {
			break
		}
		if cur.Kind == Map {
			f := cur.Field(p)
			if f == nil {
				break
			}
			if f.KeyRange.IsValid() {
				best = f.KeyRange
			} else if f.Value != nil && f.Value.Range.IsValid() {
				best = f.Value.Range
			}
			cur = f.Value
			continue
		}
		next := cur.Get(p)
		if next == nil {
			break
		}
		if next.Range.IsValid() {
			best = next.Range
		}
		cur = next
	}
	return best
}

// Interface converts the tree to plain Go values (map[string]any, []any, string,
// int64, float64, bool, nil), the shape JSON encoders and Rego expect. Unknown values
// become nil.
func (n *Node) Interface() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Map:
		m := make(map[string]any, len(n.Fields()))
		for _, f := range n.Fields() {
			m[f.Key] = f.Value.Interface()
		}
		return m
	case List:
		l := make([]any, len(n.Items()))
		for i, it := range n.Items() {
			l[i] = it.Interface()
		}
		return l
	case String:
		return n.Scalar
	case Int:
		if v, ok := YAMLInt(n.Scalar); ok {
			return v
		}
		if v, ok := yamlFloat(n.Scalar); ok {
			return v // beyond int64 (JSON's number, as kubectl sends it)
		}
		if v, err := strconv.ParseUint(strings.ReplaceAll(n.Scalar, "_", ""), 0, 64); err == nil {
			return float64(v) // 0xFFFFFFFFFFFFFFFF
		}
		return n.Scalar
	case Float:
		if v, ok := yamlFloat(n.Scalar); ok {
			return v
		}
		return n.Scalar
	case Bool:
		b, _ := n.Bool()
		return b
	}
	return nil
}

// Walk calls fn for n and every node below it, depth first, in source order.
func (n *Node) Walk(fn func(*Node)) {
	if n == nil {
		return
	}
	fn(n)
	for _, f := range n.Fields() {
		f.Value.Walk(fn)
	}
	for _, it := range n.Items() {
		it.Walk(fn)
	}
}
