package graph_test

import (
	"math/big"
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
