package terraform

import (
	"bytes"
	"encoding/gob"
	"io/fs"
	"math/big"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/pvlint/pvlint/parsers/graph"
)

// testdataDirs lists every module directory under testdata/terraform, as the loader
// would find them in one run.
func testdataDirs(t *testing.T) ([]Dir, string) {
	t.Helper()
	root, err := filepath.Abs("../../testdata/terraform")
	if err != nil {
		t.Fatal(err)
	}
	var dirs []Dir
	seen := map[string]bool{}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && IsConfigFile(p) && !seen[filepath.Dir(p)] {
			seen[filepath.Dir(p)] = true
			dirs = append(dirs, Dir{Path: filepath.Dir(p), Root: root})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(dirs) < 10 {
		t.Fatalf("only %d module directories under %s", len(dirs), root)
	}
	return dirs, root
}

// TestWireIsGobsResult: a worker's result decoded from its Wire form is what gob's
// round trip of Load's result was (gob sends no empty slice or map, so empty and
// absent are the same on both sides), for every module of the testdata at once:
// resources of every kind, diagnostics, sources and consumed files.
func TestWireIsGobsResult(t *testing.T) {
	dirs, root := testdataDirs(t)
	want := Load(dirs, relTo(root), Options{})
	var buf bytes.Buffer
	if err := gob.NewEncoder(&buf).Encode(want); err != nil {
		t.Fatal(err)
	}
	var viaGob Result
	if err := gob.NewDecoder(&buf).Decode(&viaGob); err != nil {
		t.Fatal(err)
	}
	w := LoadWire(dirs, relTo(root), Options{})
	buf.Reset()
	if err := gob.NewEncoder(&buf).Encode(w); err != nil {
		t.Fatal(err)
	}
	var sent Wire
	if err := gob.NewDecoder(&buf).Decode(&sent); err != nil {
		t.Fatal(err)
	}
	got, err := sent.Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Resources) < 30 || len(got.Diagnostics) == 0 || len(got.Consumed) == 0 {
		t.Fatalf("the testdata should give many resources, diagnostics and consumed files: %d, %d, %d",
			len(got.Resources), len(got.Diagnostics), len(got.Consumed))
	}
	if diff := cmp.Diff(&viaGob, got, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("wire result differs from gob's (-gob +wire):\n%s", diff)
	}
}

// TestWireEdges: what evaluation never builds today still survives the encoding:
// nil nodes in lists and facts, negative and extreme positions, a string met again.
func TestWireEdges(t *testing.T) {
	rg := graph.Range{File: "a.tf", Start: graph.Pos{Line: 3, Column: 2, Byte: 40}, End: graph.Pos{Line: 1, Column: -5, Byte: 2147483647}}
	rs := []*graph.Resource{{
		APIVersion: "v1", Kind: "PersistentVolumeClaim", Name: "a.tf",
		Origin: graph.Origin{Format: graph.FormatTerraform, File: "a.tf", Doc: -3, Address: "x.y"},
		Range:  rg,
		Object: graph.NewMap(rg, []graph.Field{
			{Key: "list", KeyRange: rg, Value: graph.NewList(graph.Range{}, []*graph.Node{nil, {Kind: graph.String, Scalar: "a.tf"}})},
			{Key: "gone"},
		}),
		Related: []graph.Location{{Range: rg, Message: "here"}},
		Facts:   map[string]*graph.Node{"b": nil, "a": {Kind: graph.Unknown}},
	}}
	d := decoder{buf: encodeResources(rs)}
	n := d.count()
	var got []*graph.Resource
	for range n {
		got = append(got, d.resource())
	}
	if err := d.done(); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rs, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
}

// TestWireRejectsDamage: bytes that are not a whole encoding are an error, never a
// panic or a huge allocation: every truncation and every single-byte change of a real
// encoding.
func TestWireRejectsDamage(t *testing.T) {
	dirs, root := testdataDirs(t)
	w := LoadWire(dirs, relTo(root), Options{})
	var blob []byte
	for _, b := range w.Resources {
		if len(b) > len(blob) && len(b) < 2048 {
			blob = b
		}
	}
	if len(blob) == 0 {
		t.Fatal("no encoded resources")
	}
	try := func(b []byte) (err error) {
		defer func() {
			if p := recover(); p != nil {
				t.Fatalf("decoding panicked: %v", p)
			}
		}()
		_, err = (&Wire{Resources: [][]byte{b}}).Result()
		return err
	}
	for i := range blob {
		if err := try(blob[:i]); err == nil {
			t.Fatalf("truncated at %d of %d bytes: no error", i, len(blob))
		}
	}
	for i := range blob {
		for _, v := range []byte{0, 1, 0x7f, 0x80, 0xff} {
			b := bytes.Clone(blob)
			b[i] = v
			_ = try(b)
		}
	}
	if _, err := (&Wire{Names: []string{"a"}}).Result(); err == nil {
		t.Error("names without files: no error")
	}
}

// TestNumberText: the integer shortcut writes what big.Float's own conversion writes.
func TestNumberText(t *testing.T) {
	var vals []*big.Float
	for _, s := range []string{"0", "-0", "1", "-1", "42", "9007199254740993", "9223372036854775807", "-9223372036854775808",
		"9223372036854775808", "-9223372036854775809", "1e30", "-1e30", "0.5", "-2.25", "1e-7", "123456789.125"} {
		f, _, err := big.ParseFloat(s, 10, 512, big.ToNearestEven)
		if err != nil {
			t.Fatal(err)
		}
		vals = append(vals, f)
	}
	for i := int64(-1000); i <= 1000; i += 7 {
		vals = append(vals, new(big.Float).SetPrec(512).SetInt64(i*i*i))
	}
	for _, f := range vals {
		kind, got := number(f)
		wantKind := graph.Float
		if f.IsInt() {
			wantKind = graph.Int
		}
		if want := f.Text('f', -1); got != want || kind != wantKind {
			t.Errorf("%s: got %v %q, want %v %q", f.Text('g', 20), kind, got, wantKind, want)
		}
	}
}
