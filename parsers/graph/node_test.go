package graph

import (
	"bytes"
	"encoding/gob"
	"testing"
	"unsafe"
)

// TestPosSize keeps Pos at three int32 fields: every Node and every map key carries
// two positions, so a wider Pos costs tens of megabytes of heap on a large run.
func TestPosSize(t *testing.T) {
	if got := unsafe.Sizeof(Pos{}); got != 12 {
		t.Errorf("Pos is %d bytes, want 12", got)
	}
}

// TestNodeSize keeps a scalar node at its kind, range, text and one pointer for a
// collection's entries (see Node): a field added to Node is paid by every value of
// every manifest.
func TestNodeSize(t *testing.T) {
	if got := unsafe.Sizeof(Node{}); got != 72 {
		t.Errorf("Node is %d bytes, want 72", got)
	}
}

// A tree keeps its fields, items and scalars through encoding/gob, which carries nodes
// between a worker process and pvlint: Contents is an exported pointer gob follows.
func TestNodeGob(t *testing.T) {
	at := Range{File: "a.yaml", Start: NewPos(1, 1, 0), End: NewPos(1, 5, 4)}
	str := func(s string) *Node { return &Node{Kind: String, Range: at, Scalar: s} }
	in := NewMap(at, []Field{
		{Key: "kind", KeyRange: at, Value: str("Deployment")},
		{Key: "empty", KeyRange: at, Value: NewMap(at, []Field{})},
		{Key: "list", KeyRange: at, Value: NewList(at, []*Node{str("a"), NewMap(at, []Field{{Key: "b", Value: str("c")}})})},
	})
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(in); err != nil {
		t.Fatal(err)
	}
	var out *Node
	if err := gob.NewDecoder(&buf).Decode(&out); err != nil {
		t.Fatal(err)
	}
	if got := out.Get("kind").Str(); got != "Deployment" {
		t.Errorf("kind = %q, want Deployment", got)
	}
	if got := out.Get("list", "1", "b").Str(); got != "c" {
		t.Errorf("list.1.b = %q, want c", got)
	}
	if got := out.Get("empty"); !got.Is(Map) || len(got.Fields()) != 0 {
		t.Errorf("empty = %+v, want an empty map", got)
	}
	if got := out.Get("list").Items(); len(got) != 2 || got[0].Range != at {
		t.Errorf("list items = %+v, want 2 with their ranges", got)
	}
	if len(out.Fields()) != 3 || out.Fields()[2].KeyRange != at {
		t.Errorf("fields = %+v, want 3 with their key ranges", out.Fields())
	}
}
