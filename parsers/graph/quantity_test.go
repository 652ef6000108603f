package graph_test

import (
	"math/big"
	"regexp"
	"testing"

	"github.com/pvlint/pvlint/parsers/graph"
)

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		in   string
		want string // exact value as a fraction; "" when not a quantity
	}{
		{"10Gi", "10737418240/1"},
		{"1Ti", "1099511627776/1"},
		{"500M", "500000000/1"},
		{"1.5G", "1500000000/1"},
		{" 512 ", "512/1"},
		{"1e9", "1000000000/1"},
		{"5E-1", "1/2"},
		{"100m", "1/10"},
		{"+2k", "2000/1"},
		{"0", "0/1"},
		{"", ""},
		{"Gi", ""},
		{"10GB", ""},
		{"10 Gi", ""},
		{"1.2.3", ""},
		{"1e999", ""},
		{"${var.size}", ""},
	}
	for _, tt := range tests {
		got, ok := graph.ParseQuantity(tt.in)
		switch {
		case tt.want == "" && ok:
			t.Errorf("ParseQuantity(%q) = %v, want not a quantity", tt.in, got)
		case tt.want != "" && !ok:
			t.Errorf("ParseQuantity(%q) is not a quantity, want %s", tt.in, tt.want)
		case ok && got.String() != tt.want:
			t.Errorf("ParseQuantity(%q) = %s, want %s", tt.in, got, tt.want)
		}
	}
	a, _ := graph.ParseQuantity("1Gi")
	b, _ := graph.ParseQuantity("1G")
	if a.Cmp(b) <= 0 || new(big.Rat).Sub(a, b).Sign() <= 0 {
		t.Errorf("1Gi should exceed 1G")
	}
}

func TestPVClass(t *testing.T) {
	pv := func(meta, spec string) string {
		return "apiVersion: v1\nkind: PersistentVolume\nmetadata: {name: pv" + meta + "}\nspec: {capacity: {storage: 1Gi}" + spec + "}"
	}
	tests := []struct {
		name, doc, want string
		set             bool
	}{
		{"no class", pv("", ""), "", false},
		{"empty class", pv("", `, storageClassName: ""`), "", true},
		{"spec class", pv("", ", storageClassName: slow"), "slow", true},
		{"annotation wins", pv(", annotations: {volume.beta.kubernetes.io/storage-class: fast}", ", storageClassName: slow"), "fast", true},
	}
	for _, tt := range tests {
		g := build(t, tt.doc)
		got, n := graph.PVClass(g.ByKind("PersistentVolume")[0])
		if got != tt.want || (n != nil) != tt.set {
			t.Errorf("%s: PVClass = %q (node %v), want %q (set %v)", tt.name, got, n != nil, tt.want, tt.set)
		}
	}
}

// TestInTreeTimeline checks the in-tree rows: every in-tree name has a status, a
// source, versions that read as Kubernetes minors, and a migrated plugin names the CSI
// driver it is redirected to, which is itself a CSI row of the table.
func TestInTreeTimeline(t *testing.T) {
	minor := regexp.MustCompile(`^1\.[0-9]{2}$`)
	tab := graph.DefaultProvisioners()
	inTree := 0
	for _, name := range tab.Names() {
		p, _ := tab.Lookup(name)
		if p.Source == "" {
			t.Errorf("%s: no source", name)
		}
		for _, v := range []string{p.MigrationOn, p.Deprecated, p.Gone} {
			if v != "" && !minor.MatchString(v) {
				t.Errorf("%s: version %q is not a Kubernetes minor", name, v)
			}
		}
		if p.InTree == graph.NotInTree {
			if p.MigrationOn != "" || p.Deprecated != "" || p.Gone != "" {
				t.Errorf("%s: a timeline on a plugin that is not in-tree", name)
			}
			continue
		}
		inTree++
		if p.InTree == graph.Migrated {
			csi, ok := tab.Lookup(p.CSIName)
			if !ok || !csi.CSI {
				t.Errorf("%s: migrated to %q, which is not a CSI row", name, p.CSIName)
			}
		}
	}
	// rules.md Decision 6: seven migrated plugins and eight removed ones.
	if inTree != 15 {
		t.Errorf("%d in-tree rows, want 15 (rules.md Decision 6)", inTree)
	}
}
