package manifest

import (
	"fmt"
	"strings"
	"testing"
)

// TestAliasedScalarBytes is issue 27's aliased scalar: one 1 MB string aliased
// 50,000 times is 50,001 nodes, well under the node limit, but 50 GB of text for
// whatever reads the document. The document is a PVL000 at the alias that took it
// past the byte budget (64 MiB by default: the 63rd alias, on line 70), its
// sibling document is still read, and the converter stops there: it never walks
// the other aliases.
func TestAliasedScalarBytes(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations:\n    big: &b \"")
	b.WriteString(strings.Repeat("x", 1<<20))
	b.WriteString("\"\ndata:\n")
	for i := range 50000 {
		fmt.Fprintf(&b, "  k%d: *b\n", i)
	}
	b.WriteString("---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sibling\n")
	rs, ds := Parse("a.yaml", []byte(b.String()), Options{})
	if len(rs) != 1 || rs[0].Name != "sibling" {
		t.Errorf("resources %v, want the sibling alone", rs)
	}
	if len(ds) != 1 {
		t.Fatalf("diagnostics %v, want one", ds)
	}
	d := ds[0]
	// Line 6 holds the anchor's 1 MiB, line 7 "data:", line 8 the first alias: the
	// anchor and 62 aliases fit in 64 MiB, with the keys' few bytes the 63rd does not.
	if !strings.Contains(d.Message, "more than 67108864 bytes of scalars") || d.Range.Start.Line != 70 || d.Range.Start.Column != 8 {
		t.Errorf("diagnostic %v %q, want at 70:8 (the alias) naming the byte limit", d.Range.Start, d.Message)
	}
	// A small budget is reached sooner, as --limit yaml-expanded-size sets it.
	_, ds = Parse("a.yaml", []byte(b.String()), Options{Limits: Limits{MaxBytes: 3 << 20}})
	if len(ds) != 1 || ds[0].Range.Start.Line != 9 {
		t.Errorf("with a 3 MiB budget: %v, want one diagnostic on line 9 (the second alias)", ds)
	}
}
