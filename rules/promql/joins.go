package promql

import (
	"fmt"
	"slices"
	"strings"

	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"
)

// checkOneToOne reports a one-to-one vector match whose storage-metric side has
// several series per match group: Prometheus then fails the whole evaluation with
// "multiple matches for labels" (or "found duplicate series") as soon as two series
// share the matched labels, e.g. two volumes attached to one node, and the alert
// never fires. group_left/group_right, or an aggregation to the matched labels, fix it.
func checkOneToOne(b *parser.BinaryExpr) string {
	vm := b.VectorMatching
	if vm == nil || vm.Card != parser.CardOneToOne || b.Op.IsSetOperator() ||
		b.LHS.Type() != parser.ValueTypeVector || b.RHS.Type() != parser.ValueTypeVector {
		return ""
	}
	for _, side := range []parser.Expr{b.LHS, b.RHS} {
		vs := rawSelector(side)
		if vs == nil {
			continue
		}
		name := metricName(vs)
		md := metrics[name]
		if md == nil {
			continue
		}
		fixed := map[string]bool{}
		for _, m := range vs.LabelMatchers {
			if m.Type == labels.MatchEqual {
				fixed[m.Name] = true
			}
		}
		var loose []string
		for _, k := range md.key {
			if fixed[k] || vm.On && contains(vm.MatchingLabels, k) || !vm.On && !contains(vm.MatchingLabels, k) {
				continue
			}
			loose = append(loose, k)
		}
		if len(loose) == 0 {
			continue
		}
		how := "on (" + strings.Join(vm.MatchingLabels, ", ") + ")"
		if !vm.On {
			how = "ignoring (" + strings.Join(vm.MatchingLabels, ", ") + ")"
		}
		return fmt.Sprintf("%s has one series per %s, so one-to-one matching %s fails with \"multiple matches for labels\" "+
			"as soon as two of its series have the same %s; use group_left or group_right, or aggregate first",
			name, strings.Join(loose, " and "), how, strings.Join(vm.MatchingLabels, ", "))
	}
	return ""
}

// rawSelector returns the selector an operand's series come from one-for-one
// (through parentheses and scalar arithmetic or comparisons), or nil.
func rawSelector(e parser.Expr) *parser.VectorSelector {
	for {
		switch n := e.(type) {
		case *parser.VectorSelector:
			return n
		case *parser.ParenExpr:
			e = n.Expr
		case *parser.StepInvariantExpr:
			e = n.Expr
		case *parser.BinaryExpr:
			switch {
			case n.LHS.Type() == parser.ValueTypeScalar && n.RHS.Type() == parser.ValueTypeVector:
				e = n.RHS
			case n.RHS.Type() == parser.ValueTypeScalar && n.LHS.Type() == parser.ValueTypeVector:
				e = n.LHS
			default:
				return nil
			}
		default:
			return nil
		}
	}
}

func contains(list []string, s string) bool {
	return slices.Contains(list, s)
}

// checkZeroProduct reports `A * (B == 0) > 0`: a comparison without bool filters, it
// does not turn into 0/1, so the kept samples are all 0, the product is 0, and a later
// comparison that 0 fails (> 0, != 0, < 0...) keeps nothing.
func checkZeroProduct(b *parser.BinaryExpr) string {
	if !b.Op.IsComparisonOperator() || b.ReturnBool {
		return ""
	}
	var vec parser.Expr
	var holds bool
	if c, ok := number(b.RHS); ok && b.LHS.Type() == parser.ValueTypeVector {
		vec, holds = b.LHS, compare(b.Op, 0, c)
	} else if c, ok := number(b.LHS); ok && b.RHS.Type() == parser.ValueTypeVector {
		vec, holds = b.RHS, compare(b.Op, c, 0)
	} else {
		return ""
	}
	if holds {
		return ""
	}
	mul, ok := unparen(vec).(*parser.BinaryExpr)
	if !ok || mul.Op != parser.MUL {
		return ""
	}
	for _, f := range []parser.Expr{mul.LHS, mul.RHS} {
		filter, ok := unparen(f).(*parser.BinaryExpr)
		if !ok || filter.Op != parser.EQLC || filter.ReturnBool {
			continue
		}
		c1, ok1 := number(filter.RHS)
		c2, ok2 := number(filter.LHS)
		if ok1 && c1 == 0 || ok2 && c2 == 0 {
			return fmt.Sprintf("(%s) keeps only samples whose value is 0, so the product with it is always 0 and %s %s never holds; "+
				"use \"and on(...)\" or \"== bool 0\"", filter, b.Op, literal(b))
		}
	}
	return ""
}

func literal(b *parser.BinaryExpr) string {
	if c, ok := number(b.RHS); ok {
		return fmt.Sprint(c)
	}
	c, _ := number(b.LHS)
	return fmt.Sprint(c)
}

func unparen(e parser.Expr) parser.Expr {
	for {
		p, ok := e.(*parser.ParenExpr)
		if !ok {
			return e
		}
		e = p.Expr
	}
}

// number returns a literal number operand (through parentheses and a unary minus).
func number(e parser.Expr) (float64, bool) {
	switch n := unparen(e).(type) {
	case *parser.NumberLiteral:
		return n.Val, true
	case *parser.UnaryExpr:
		if v, ok := number(n.Expr); ok && n.Op == parser.SUB {
			return -v, true
		}
	}
	return 0, false
}

func compare(op parser.ItemType, a, b float64) bool {
	switch op {
	case parser.EQLC:
		return a == b
	case parser.NEQ:
		return a != b
	case parser.GTR:
		return a > b
	case parser.LSS:
		return a < b
	case parser.GTE:
		return a >= b
	case parser.LTE:
		return a <= b
	}
	return true
}
