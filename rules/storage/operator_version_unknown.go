package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// OperatorVersionUnknown (PVL028) notes a custom resource of a kind pvlint models
// (graph.OperatorOf) whose apiVersion is not one it models: pvlint does not guess what
// that version creates, so its claims are not checked. Custom resources of kinds
// pvlint does not model are not findings at all.
var OperatorVersionUnknown = &lint.Rule{
	ID:       "PVL028",
	Name:     "operator-version-unknown",
	Severity: lint.Note,
	Summary:  "a custom resource of a modelled operator kind has an apiVersion pvlint does not model",
	Description: "pvlint maps the custom resources of CloudNativePG, Prometheus Operator, Strimzi, ECK and Crunchy " +
		"PGO to the pods and per-instance claims their operators create, so the storage rules apply to them " +
		"(docs/operators.md). This resource has the group and kind of one of them but an apiVersion pvlint does not " +
		"model (an older or newer API whose fields may differ): rather than guess, pvlint leaves it out, so its " +
		"claims, classes and deletion policy are not checked.",
	Remediation: "Use an API version pvlint models (listed in the message and in docs/operators.md), or accept " +
		"that this resource is not checked; suppress the note if that is intended.",
	Tags:  []string{"operators", "coverage"},
	Kinds: operatorKindNames,
	Check: checkOperatorVersionUnknown,
}

func checkOperatorVersionUnknown(p *lint.Pass) {
	for _, r := range p.Graph.Resources {
		k, ok := graph.OperatorOf(r)
		if !ok || k.Modelled || r.IsContext() {
			continue
		}
		models := make([]string, len(k.Versions))
		for i, v := range k.Versions {
			models[i] = r.Group() + "/" + v
		}
		msg := r.Kind + " " + r.Name + " has apiVersion " + r.APIVersion + ", which pvlint does not model for " + k.Operator + "'s " +
			r.Kind + " (it models " + strings.Join(models, " and ") + "): the pods and claims the operator creates from it are not checked"
		p.ReportPath(r, r.Locate("apiVersion"), []string{"apiVersion"}, lint.SeverityNone, msg)
	}
}
