package manifest

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/pvlint/pvlint/parsers/graph"
)

// compare reads every document of data with both paths (checkFastPath) and reports
// every difference as a test error with its diff. It returns how many documents the
// fast path accepted and how many there were.
func compare(t *testing.T, name string, data []byte) (fast, total int) {
	t.Helper()
	return checkFastPath(name, data, func(line int, want, got *graph.Node, err error) {
		t.Helper()
		if err != nil {
			t.Errorf("%s: the fast path read document at line %d, which yaml.v3 rejects: %v", name, line, err)
			return
		}
		t.Errorf("%s: document at line %d reads differently (-yaml.v3 +fast):\n%s", name, line, cmp.Diff(want, got))
	})
}

// fastCases are documents the fast path must read (and read as yaml.v3 does), one
// per construct it knows.
var fastCases = []string{
	"a: 1\nb: x\n",
	"a:\nb: 1",
	"a: # c\nb:\n",
	"---\na: 1\n",
	"--- # c\na: 1\n",
	"  a: 1\n  b: 2\n",
	"a:\n  b:\n    c: d\n  e: f\ng: h\n",
	"a:\n- x\n- y\nb: 1\n",
	"a:\n  - x\n  -\nb: 1\n",
	"a:\n  - name: x\n    value: y\n  - name: z\n",
	"a:\n-   name: x\n    value: y\n",
	"a:\n  -\n    b: 1\n  - # c\n    - x\n",
	"a: 'it''s'\nb: \"q\\\"x\\\\y\\n\\t\\u00e9\\x41\"\nc: \"\"\nd: ''\n",
	"\"a\": 1\n'b' : 2\n",
	"a: [x, 'y', \"z\", {b: c}, [d]]\nb: {c: 1, d: [2, 3], \"e\": f}\nc: []\nd: {}\ne: [ a , b, ]\n",
	"a: {\"json\":1,\"x\":[1,2]}\n",
	"a: |\n  x\n\n  y\nb: 1\n",
	"a: |-\n  x\n  y\n\n\nb: 1\n",
	"a: |+\n  x\n\n\nb: 1\n",
	"a: |\n\n  x\n    indented\n  # not a comment\n",
	"a: >\n  x\n  y\n\n  z\n\n\n  w\n",
	"a: >-\n  x\nb: >+\n  y\n\n",
	"a: |\n  x",
	"a:\n  - |\n    x\n  - >\n    y\n",
	"x:\n- a: |\n    text\n  c: 1\n",
	"a: ~\nb: null\nc: true\nd: False\ne: 1_000\nf: 0x1F\ng: 0o17\nh: 017\ni: -0b101\nj: 1.5e3\nk: .5\nl: .inf\nm: -.Inf\nnn: .NaN\no: 2024-01-02\np: 1e3\nq: +12\nr: 12e\ns: 0b2\nt: yes\nu: 18446744073709551615\nv: 1.\n",
	"image: registry.example.com/app:1.2 # pinned\nurl: http://x/y#frag\nargs: a#b\ncmd: [--flag, -x, \"a:b\"]\n",
	"a: b,c[0]{x}\nb: x?y\n",
	"a: 1\n# trailing comment\n\n",
	"a: 1\n  # indented comment\nb: 2\n",
	"key with spaces: value with spaces\n",
}

// slowCases are documents the fast path must leave to yaml.v3.
var slowCases = []string{
	"a: &x 1\nb: *x\n",
	"a: !!str 1\n",
	"<<: {a: 1}\n",
	"a: multi\n  line\n",
	"a: \"multi\n  line\"\n",
	"a: [x,\n  y]\n",
	"a:\n\tb: 1\n",
	"a: 1\r\nb: 2\r\n",
	"a: caf\u00e9\n",
	"? complex\n: key\n",
	"a: b: c\n",
	"a: |2\n   x\n",
	"a: |\nb: 1\n",
	"- x\n- y\n",
	"plain scalar\n",
	"a:\n  scalar below\n",
	"a: 1\n  b: 2\n",
	"a: [x, y] z\n",
	"a: {b}\n",
	"a: {b: }\n",
	"a: >\n  x\n    more\n  y\n",
	"a: 1\n%x: 2\n",
	"--- {a: 1}\n",
	"a: @x\n",
	"a: `x`\n",
	"a: \"\\q\"\n",
}

func TestFastPathCases(t *testing.T) {
	for _, src := range fastCases {
		if fast, total := compare(t, "case.yaml", []byte(src)); fast != total || total == 0 {
			t.Errorf("fast path read %d of %d documents of %q, want all", fast, total, src)
		}
	}
	for _, src := range slowCases {
		if fast, _ := compare(t, "case.yaml", []byte(src)); fast != 0 {
			t.Errorf("fast path read %q, which it should leave to yaml.v3", src)
		}
	}
}

// TestFastPathFixtures compares both paths on every YAML and JSON file under the
// repository's testdata.
func TestFastPathFixtures(t *testing.T) {
	fast, total := 0, 0
	err := filepath.WalkDir("../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		switch filepath.Ext(path) {
		case ".yaml", ".yml", ".json":
		default:
			return nil
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, n := compare(t, path, data)
		fast, total = fast+f, total+n
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("fast path read %d of %d fixture documents", fast, total)
}

// FuzzFastPath checks that whatever the fast path accepts, yaml.v3 reads the same.
func FuzzFastPath(f *testing.F) {
	for _, s := range append(append([]string{}, fastCases...), slowCases...) {
		f.Add([]byte(s))
	}
	_ = filepath.WalkDir("../../testdata", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && (strings.HasSuffix(path, ".yaml") || strings.HasSuffix(path, ".yml")) {
			if data, err := os.ReadFile(path); err == nil && len(data) < 8<<10 {
				f.Add(data)
			}
		}
		return nil
	})
	f.Fuzz(func(t *testing.T, data []byte) {
		compare(t, "fuzz.yaml", data)
	})
}

// TestPlainKindNumbers checks the classification of plain scalars that start like a
// number, those rejected early for holding a byte no number has included.
func TestPlainKindNumbers(t *testing.T) {
	for v, want := range map[string]graph.NodeKind{
		"20Gi": graph.String, "100m": graph.String, "0 3 * * *": graph.String, "12:30": graph.String,
		"1e": graph.String, "0x1G": graph.String, "-": graph.String, "1.2.3": graph.String,
		"8080": graph.Int, "-5": graph.Int, "1_000": graph.Int, "0x1F": graph.Int, "0o17": graph.Int,
		"-0b101": graph.Int, "0b101": graph.Int, "18446744073709551615": graph.Int,
		"1.5": graph.Float, "1.5e3": graph.Float, "+.5": graph.Float, "-1E-3": graph.Float,
	} {
		if got, ok := plainKind(v); !ok || got != want {
			t.Errorf("plainKind(%q) = %v, %v; want %v", v, got, ok, want)
		}
	}
}
