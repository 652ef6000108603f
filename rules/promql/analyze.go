package promql

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/prometheus/common/model"
	"github.com/prometheus/prometheus/model/labels"
	"github.com/prometheus/prometheus/promql/parser"

	"github.com/pvlint/pvlint/parsers/graph"
)

// promParser accepts everything a Prometheus started with feature flags accepts, so
// only real syntax errors are reported.
var promParser = parser.NewParser(parser.Options{
	EnableExperimentalFunctions:  true,
	ExperimentalDurationExpr:     true,
	EnableExtendedRangeSelectors: true,
	EnableBinopFillModifiers:     true,
})

// analyze returns the reasons an expression on kube-state-metrics storage metrics can
// never return a sample, one fact each, in the order they occur. Expressions that use
// no storage metric return nothing, even when they do not parse: PVL021 is about
// storage alerts (an unparsable expression counts when its text names a storage
// metric, since promtool may never have seen it).
//
// An expression past pvlint's bounds (graph.PromQLTooComplex) is not parsed: the
// loader reports it as a PVL000 at the expression.
func analyze(expr string) []string {
	if graph.PromQLTooComplex(expr) != "" {
		return nil
	}
	e, err := promParser.ParseExpr(expr)
	if err != nil {
		if mentionsStorage(expr) {
			return []string{"expression does not parse: " + parseError(err)}
		}
		return nil
	}
	var out []string
	seen := map[string]bool{}
	add := func(msg string) {
		if !seen[msg] {
			seen[msg] = true
			out = append(out, msg)
		}
	}
	// Selectors first: a selector that matches nothing is the main fact.
	storage := false
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if vs, ok := n.(*parser.VectorSelector); ok {
			if name := metricName(vs); isStorageMetric(name) {
				storage = true
				for _, msg := range checkSelector(name, vs.LabelMatchers) {
					add(msg)
				}
			}
		}
		return nil
	})
	if !storage {
		return out
	}
	parser.Inspect(e, func(n parser.Node, _ []parser.Node) error {
		if b, ok := n.(*parser.BinaryExpr); ok {
			if msg := checkOneToOne(b); msg != "" {
				add(msg)
			}
			if msg := checkZeroProduct(b); msg != "" {
				add(msg)
			}
		}
		return nil
	})
	return out
}

// mentionsStorage reports whether text names a storage metric family.
func mentionsStorage(text string) bool {
	for _, p := range storagePrefixes {
		if strings.Contains(text, p) {
			return true
		}
	}
	return false
}

// parseError shortens the parser's message and keeps its line:column, which is
// relative to the expression.
func parseError(err error) string {
	if errs, ok := err.(parser.ParseErrors); ok && len(errs) > 0 {
		e := errs[0]
		pos := e.PositionRange.StartPosInput(e.Query, 0)
		return fmt.Sprintf("%v (at %s of the expression)", e.Err, pos)
	}
	return err.Error()
}

// metricName is the selector's metric name, written before the braces or as an
// equality on __name__; "" when it is a regexp or absent. Recorded series (names with
// a colon) are not kube-state-metrics' own.
func metricName(vs *parser.VectorSelector) string {
	name := vs.Name
	if name == "" {
		for _, m := range vs.LabelMatchers {
			if m.Name == model.MetricNameLabel && m.Type == labels.MatchEqual {
				name = m.Value
			}
		}
	}
	if strings.Contains(name, ":") {
		return ""
	}
	return name
}

// checkSelector reports a metric that does not exist, and matchers that no series of
// the metric can satisfy: a label it does not have (matched against a non-empty
// value) or a value an enumerated label never takes.
func checkSelector(name string, ms []*labels.Matcher) []string {
	md := metrics[name]
	if md == nil {
		msg := name + " is not a kube-state-metrics metric, so the selector matches no series"
		if s := closest(name); s != "" {
			msg += "; did you mean " + s + "?"
		}
		return []string{msg}
	}
	var out []string
	for _, m := range ms {
		if m.Name == model.MetricNameLabel {
			continue
		}
		if md.has(m.Name) || targetLabels[m.Name] {
			if vals := md.values[m.Name]; vals != nil && !matchesAny(m, vals) {
				out = append(out, fmt.Sprintf("%s's %s is one of %s, so {%s} matches no series",
					name, m.Name, strings.Join(vals, ", "), m))
			}
			continue
		}
		if m.Matches("") {
			continue // a missing label reads as "": this matcher keeps every series
		}
		msg := fmt.Sprintf("%s has no label %q (its labels: %s), so {%s} matches no series",
			name, m.Name, labelList(md), m)
		if h := hintFor(name, m.Name); h != "" {
			msg += "; " + h
		}
		out = append(out, msg)
	}
	return out
}

func matchesAny(m *labels.Matcher, vals []string) bool {
	return slices.ContainsFunc(vals, m.Matches)
}

func labelList(md *metric) string {
	ls := append([]string{}, md.labels...)
	for _, p := range md.prefixes {
		ls = append(ls, p+"*")
	}
	return strings.Join(ls, ", ")
}

// closest returns the known metric a wrong name most likely meant: the shortest one
// that extends it (kube_volumeattachment_status → kube_volumeattachment_status_attached),
// else the nearest by edit distance when that is close enough to be a typo.
func closest(name string) string {
	names := make([]string, 0, len(metrics))
	for n := range metrics {
		names = append(names, n)
	}
	sort.Strings(names)
	best := ""
	for _, n := range names {
		if strings.HasPrefix(n, name) && (best == "" || len(n) < len(best)) {
			best = n
		}
	}
	if best != "" {
		return best
	}
	bestD := 3 // at most two edits: a typo, not a different metric
	for _, n := range names {
		if d := distance(name, n); d < bestD {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
