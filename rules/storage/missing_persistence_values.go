package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// MissingPersistenceValues (PVL030) is advice for chart authors, reported with
// --explore-values: a chart whose values.yaml has persistence settings but no
// accessModes, existingClaim or storageClass value anywhere leaves its users unable
// to fix what the other rules report about its claims — to choose ReadWriteOncePod
// (PVL005), a class whose backend allows several writers (PVL002), or a claim of
// their own — without forking the chart. It reads the synthetic pvlint.io/v1
// ChartValues resource the Helm loader adds when exploring (parsers/helm/knobs.go),
// one per chart, so it reports once per chart, at its first persistence key.
var MissingPersistenceValues = &lint.Rule{
	ID:       "PVL030",
	Name:     "missing-persistence-values",
	Severity: lint.Note,
	Summary:  "a chart's persistence settings offer no access mode, storage class or existing claim value",
	Description: "With --explore-values, a Helm chart whose values.yaml has persistence settings (a key " +
		"whose name contains \"persistence\" holding a size, a mount path or one of these values) but " +
		"no accessModes (or accessMode) or no storageClass (or storageClassName) value in any of them: " +
		"its users cannot choose ReadWriteOncePod or a storage class whose backend fits the chart's " +
		"workloads without changing the chart. One note per chart, naming the missing values " +
		"(existingClaim too, when it is also missing).",
	Remediation: "Add the missing values to the chart's persistence settings and use them in its claim " +
		"templates: accessModes (default [ReadWriteOnce]), storageClass (default unset: the cluster's " +
		"default class), existingClaim (default empty: the chart makes its claim).",
	Tags:  []string{"helm", "chart-authoring"},
	Kinds: []string{"ChartValues"},
	Check: checkMissingPersistenceValues,
}

// What a user cannot choose without each value.
var knobConsequence = map[string]string{
	"accessModes":   "ReadWriteOncePod",
	"storageClass":  "a storage class",
	"existingClaim": "a claim of their own",
}

func checkMissingPersistenceValues(p *lint.Pass) {
	for _, r := range p.Graph.ByKind("ChartValues") {
		if r.APIVersion != "pvlint.io/v1" || r.Origin.Format != graph.FormatHelm {
			continue // only the loader's own, never a manifest that imitates it
		}
		missing := r.Get("spec", "persistence", "missing")
		var names, cannot []string
		for _, m := range missing.Items() {
			names = append(names, m.Str())
			if c, ok := knobConsequence[m.Str()]; ok {
				cannot = append(cannot, c)
			}
		}
		if len(names) == 0 {
			continue
		}
		p.Report(r, missing.Range, lint.SeverityNone, "chart "+r.Name+"'s persistence settings have no "+
			strings.Join(names, ", ")+" value: its users cannot choose "+joinOr(cannot)+" without changing the chart")
	}
}

// joinOr joins words as "a, b or c".
func joinOr(ws []string) string {
	if len(ws) < 2 {
		return strings.Join(ws, "")
	}
	return strings.Join(ws[:len(ws)-1], ", ") + " or " + ws[len(ws)-1]
}
