package lint

import "github.com/pvlint/pvlint/parsers/graph"

// Fix is a mechanical remedy for a finding, written as data by the rule: edits on the
// nodes of the graph the finding reasoned over, in the Kubernetes shape every input
// format shares. A rule never writes text: the program that applies fixes (pvlint's
// CLI) turns the edits into byte-exact changes for the format of the file a node came
// from (YAML at the byte level, Terraform through hclwrite), or says why it cannot
// (a Helm template, a Kustomize build).
type Fix struct {
	// Description says what the fix does, as one sentence for people reviewing it.
	Description string
	// Unsafe fixes need more than the edit (a migration, a recreated object) to take
	// effect safely; they are applied only when the user asks (--unsafe-fixes).
	Unsafe bool
	// Edits are applied together, or not at all.
	Edits []Edit
}

// Op is what an Edit does.
type Op uint8

// The edit operations.
const (
	// OpSet replaces the scalar Node with Value.
	OpSet Op = iota + 1
	// OpInsert adds Key with Value to the map Node, which does not have it yet.
	OpInsert
	// OpDelete removes Key and its value from the map Node.
	OpDelete
)

func (o Op) String() string {
	switch o {
	case OpSet:
		return "set"
	case OpInsert:
		return "insert"
	case OpDelete:
		return "delete"
	}
	return "invalid"
}

// Edit is one change to a resource's object tree. Keys are the Kubernetes field
// names (camelCase); a writer for another syntax maps them (Terraform's snake_case).
type Edit struct {
	Op    Op
	Node  *graph.Node // the scalar to replace (OpSet) or the map to change
	Key   string      // OpInsert and OpDelete; OpSet of a map entry (see Parent)
	Value *graph.Node // OpSet and OpInsert: a scalar, or a map of scalars
	// Parent is, for an OpSet of a map entry, the map holding Key. A value the input
	// format supplies as a default (Terraform's provider defaults) is in the graph
	// but not in the file: a writer then adds Key to Parent instead.
	Parent *graph.Node
}

// Set is the edit that replaces scalar n with v.
func Set(n, v *graph.Node) Edit { return Edit{Op: OpSet, Node: n, Value: v} }

// Insert is the edit that adds key: v to map m.
func Insert(m *graph.Node, key string, v *graph.Node) Edit {
	return Edit{Op: OpInsert, Node: m, Key: key, Value: v}
}

// Delete is the edit that removes key from map m.
func Delete(m *graph.Node, key string) Edit { return Edit{Op: OpDelete, Node: m, Key: key} }

// Put sets key of map m to v: the existing value when it is a scalar, otherwise a new
// key. It returns no edit when m is not a map or the key holds a map or list, which a
// scalar must not silently replace.
func Put(m *graph.Node, key string, v *graph.Node) []Edit {
	if !m.Is(graph.Map) {
		return nil
	}
	f := m.Field(key)
	switch {
	case f == nil:
		return []Edit{Insert(m, key, v)}
	case f.Value.Is(graph.String) || f.Value.Is(graph.Bool) || f.Value.Is(graph.Int) || f.Value.Is(graph.Float):
		return []Edit{{Op: OpSet, Node: f.Value, Key: key, Value: v, Parent: m}}
	}
	return nil
}

// String is a string value for an edit.
func String(s string) *graph.Node { return &graph.Node{Kind: graph.String, Scalar: s} }

// Bool is a boolean value for an edit.
func Bool(b bool) *graph.Node {
	if b {
		return &graph.Node{Kind: graph.Bool, Scalar: "true"}
	}
	return &graph.Node{Kind: graph.Bool, Scalar: "false"}
}

// Map is a map value of one key for an edit ({type: Recreate}).
func Map(key string, v *graph.Node) *graph.Node {
	return &graph.Node{Kind: graph.Map, Contents: &graph.Contents{Fields: []graph.Field{{Key: key, Value: v}}}}
}

// Change is one exact text replacement: Range (half-open, empty for an insertion) of
// Range.File becomes Text. Positions carry line, column and byte offset. The program
// that applies fixes resolves a Fix's edits into Changes; rules never write them.
type Change struct {
	Range graph.Range
	Text  string
}

// ReportFix is ReportPath for a finding with a mechanical remedy. A nil fix or one
// without edits reports the finding alone.
func (p *Pass) ReportFix(fix *Fix, r *graph.Resource, at graph.Range, path []string, sev Severity, msg string, related ...Related) {
	if fix != nil && len(fix.Edits) == 0 {
		fix = nil
	}
	p.Emit(Finding{Severity: sev, Message: msg, Resource: r, Range: at, Path: path, Related: related, Fix: fix})
}
