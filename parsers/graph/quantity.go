package graph

import (
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
func ParseQuantity(s string) (*big.Rat, bool) {
	s = strings.TrimSpace(s)
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
