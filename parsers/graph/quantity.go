package graph

import (
	"fmt"
	"math/big"
	"strings"
)

// quantitySuffixes are the multipliers of Kubernetes resource quantities: binary
// (Ki = 2^10 ...), decimal SI (k = 10^3 ...) and the sub-unit ones (m = 10^-3).
var quantitySuffixes = map[string]*big.Rat{
	"Ki": pow(2, 10), "Mi": pow(2, 20), "Gi": pow(2, 30), "Ti": pow(2, 40), "Pi": pow(2, 50), "Ei": pow(2, 60),
	"n": frac(9), "u": frac(6), "m": frac(3), "": big.NewRat(1, 1),
	"k": pow(10, 3), "M": pow(10, 6), "G": pow(10, 9), "T": pow(10, 12), "P": pow(10, 15), "E": pow(10, 18),
}

func pow(base, exp int64) *big.Rat {
	return new(big.Rat).SetInt(new(big.Int).Exp(big.NewInt(base), big.NewInt(exp), nil))
}

func frac(exp int64) *big.Rat { return new(big.Rat).Inv(pow(10, exp)) }

// ParseQuantity reads a Kubernetes resource quantity ("10Gi", "500M", "1.5T", "1e9",
// "512") as an exact number of units, so that a PersistentVolume's capacity and a
// claim's request compare as the PV controller compares them. It reports false for
// anything that is not a quantity (an empty string, "10GB", a Terraform unknown).
//
// A quantity longer than MaxQuantityLen is refused before any arithmetic: exact
// arithmetic on millions of digits is quadratic (issue 27), and no quantity
// Kubernetes keeps is that long.
func ParseQuantity(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
	if len(s) > MaxQuantityLen {
		return nil, false
	}
	i := 0
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	digits := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
		digits++
	}
	if digits == 0 {
		return nil, false
	}
	num, ok := new(big.Rat).SetString(s[:i])
	if !ok {
		return nil, false
	}
	suffix := s[i:]
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		exp, ok := new(big.Int).SetString(suffix[1:], 10)
		if !ok || !exp.IsInt64() || exp.Int64() > 64 || exp.Int64() < -64 {
			return nil, false
		}
		e := exp.Int64()
		if e >= 0 {
			return num.Mul(num, pow(10, e)), true
		}
		return num.Mul(num, frac(-e)), true
	}
	m, ok := quantitySuffixes[suffix]
	if !ok {
		return nil, false
	}
	return num.Mul(num, m), true
}

// MaxQuantityLen is the longest quantity ParseQuantity reads. Kubernetes keeps a
// quantity as an int64 with a decimal or binary scale (at most 19 digits, a sign, a
// point and a suffix); 64 characters leave room for spelling it with zeros.
const MaxQuantityLen = 64

// quantityFields are the storage quantities rules compare, by kind.
var quantityFields = map[string][][]string{
	"PersistentVolume":      {{"spec", "capacity", "storage"}},
	"PersistentVolumeClaim": {{"spec", "resources", "requests", "storage"}, {"spec", "resources", "limits", "storage"}},
}

// QuantityDiagnostics reports each storage quantity of r too long to be read
// (MaxQuantityLen), at its node: the rules that compare it see no quantity there, and
// the user learns why.
func QuantityDiagnostics(r *Resource) []Diagnostic {
	var out []Diagnostic
	for _, path := range quantityFields[r.Kind] {
		n := r.Get(path...)
		if n == nil || len(strings.TrimSpace(n.Str())) <= MaxQuantityLen {
			continue
		}
		out = append(out, Diagnostic{
			Range:   n.Range,
			Message: fmt.Sprintf("%s: quantity of %d characters, longer than the %d a quantity may have; not compared", strings.Join(path, "."), len(n.Str()), MaxQuantityLen),
			Variant: r.Origin.Variant,
		})
	}
	return out
}
