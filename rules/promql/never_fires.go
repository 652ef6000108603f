// Package promql holds the rules that read Prometheus alert expressions: PVL021 parses
// every expression of PrometheusRule objects and plain rules files with Prometheus'
// own PromQL parser and checks the selectors on kube-state-metrics storage metrics
// against the table in ksm.go.
package promql

import (
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// The synthetic type parsers/promrules gives a plain Prometheus rules file (rules do
// not import parsers; a test keeps the two equal).
const (
	rulesFileAPIVersion = "pvlint.io/v1"
	rulesFileKind       = "PrometheusRulesFile"
)

// AlertNeverFires (PVL021) reports alerting and recording rules on kube-state-metrics
// storage metrics that cannot return a sample: a selector on a label the metric does
// not have or on a value it never takes, a metric that does not exist, a one-to-one
// join that errors when two volumes share a node, a product with a `== 0` filter
// compared with 0, and an expression that does not parse. Such an alert looks like
// coverage and stays silent during the outage it was written for.
var AlertNeverFires = &lint.Rule{
	ID:       "PVL021",
	Name:     "storage-alert-never-fires",
	Severity: lint.Warning,
	Summary:  "an alert on kube-state-metrics storage metrics can never fire",
	Description: "A PrometheusRule or Prometheus rules file has an expression on kube-state-metrics storage metrics " +
		"(kube_volumeattachment_*, kube_persistentvolumeclaim_*, kube_persistentvolume_*) that can never return a sample: " +
		"it matches a label the metric does not have (kube_volumeattachment_info{attached=\"true\"}: the metric's labels are " +
		"volumeattachment, attacher and node) or a value the label never takes, names a metric that does not exist, " +
		"joins one-to-one on labels several of its series share, multiplies by a `== 0` filter and compares the product " +
		"with 0, or does not parse. The alert looks like coverage and stays silent.",
	Remediation: "Select the metric that carries the state (kube_volumeattachment_status_attached for attachment) with " +
		"the labels it has, join with group_left, and filter with `and on(...)` or `== bool`; `pvlint alerts` prints a " +
		"rule set tested with promtool.",
	Tags:  []string{"alerting", "prometheus", "observability"},
	Kinds: []string{"PrometheusRule", rulesFileKind},
	Check: checkAlertNeverFires,
}

func checkAlertNeverFires(p *lint.Pass) {
	for _, r := range p.Graph.Resources {
		if !isRuleSet(r) {
			continue
		}
		for _, g := range r.Get("spec", "groups").List() {
			for _, rule := range g.Get("rules").List() {
				expr := rule.Get("expr")
				if !expr.Is(graph.String) && !expr.Is(graph.Int) && !expr.Is(graph.Float) {
					continue
				}
				for _, msg := range analyze(expr.Str()) {
					p.Report(r, expr.Range, lint.SeverityNone, ruleName(rule)+": "+msg)
				}
			}
		}
	}
}

// isRuleSet reports whether r holds Prometheus rule groups in spec.groups.
func isRuleSet(r *graph.Resource) bool {
	switch {
	case r.Kind == "PrometheusRule" && r.Group() == "monitoring.coreos.com":
		return true
	case r.Kind == rulesFileKind && r.APIVersion == rulesFileAPIVersion:
		return true
	}
	return false
}

// ruleName names a rule as its group lists it: `alert X` or `record X`.
func ruleName(rule *graph.Node) string {
	if a := rule.Get("alert").Str(); a != "" {
		return "alert " + a
	}
	if rec := rule.Get("record").Str(); rec != "" {
		return "record " + rec
	}
	return "rule"
}
