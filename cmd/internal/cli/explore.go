package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/helm"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/rules/lint"
)

// reachable turns the findings of the worlds --explore-values added (a chart rendered
// with a combination of the switches its values.yaml documents) into what a chart's
// users can reach: a finding its defaults and ci/ files already have is reported as
// today and not again; any other is reported once, at the values.yaml line of the
// combination's first switch, the template position related, its message ending
// with the --set line that reaches it (docs/explore-values.md). Combinations are
// rendered one switch at a time first, so the first one that reaches a finding is
// the simplest.
func reachable(findings []lint.Finding, res *load.Result) []lint.Finding {
	type chart struct {
		defaults string          // the defaults' variant name
		reported map[string]bool // findings of the chart's other variants
		done     map[string]bool // findings already reported as reachable
	}
	explored := map[string]*load.Variant{}
	chartOf := map[string]string{}
	charts := map[string]*chart{}
	for i := range res.Variants {
		v := &res.Variants[i]
		if v.Chart == "" {
			continue
		}
		chartOf[v.Name] = v.Chart
		c := charts[v.Chart]
		if c == nil {
			c = &chart{reported: map[string]bool{}, done: map[string]bool{}}
			charts[v.Chart] = c
		}
		if v.Explore != nil {
			explored[v.Name] = v
		} else if c.defaults == "" {
			c.defaults = v.Name
		}
	}
	if len(explored) == 0 {
		return findings
	}
	for _, f := range findings {
		if ch := chartOf[f.Variant]; ch != "" && explored[f.Variant] == nil {
			charts[ch].reported[sameFinding(f)] = true
		}
	}
	out := make([]lint.Finding, 0, len(findings))
	for _, f := range findings {
		v := explored[f.Variant]
		if v == nil {
			out = append(out, f)
			continue
		}
		if ruleID(f) == "PVL018" {
			// A claim the user names (existingClaim) is outside the linted set by
			// definition: that its modes cannot be checked is no hazard of the chart.
			continue
		}
		c := charts[v.Chart]
		k := sameFinding(f)
		if c.reported[k] || c.done[k] {
			continue
		}
		c.done[k] = true
		out = append(out, reachableFinding(f, v.Explore, c.defaults))
	}
	return out
}

// sameFinding identifies a finding across the variants of one chart: the rule, the
// object and the template position, not the message (which names the replicas a
// combination sets).
func sameFinding(f lint.Finding) string {
	obj := ""
	if f.Resource != nil {
		obj = f.Resource.Kind + "/" + f.Resource.Namespace + "/" + f.Resource.Name
	}
	return fmt.Sprintf("%s\x00%s\x00%s:%d:%d", ruleID(f), obj, f.Range.File, f.Range.Start.Line, f.Range.Start.Column)
}

// reachableFinding moves a finding of an explored world to the values.yaml line of
// the combination's first switch.
func reachableFinding(f lint.Finding, combo *helm.Combo, defaults string) lint.Finding {
	set := combo.SetLine()
	first := combo.Switches[0]
	related := []lint.Related{{Range: f.Range, Message: "where the chart writes it with --set " + set}}
	for _, s := range combo.Switches[1:] {
		related = append(related, lint.Related{
			Range:   switchRange(s),
			Message: "the other switch: " + s.Set,
		})
	}
	f.Related = append(related, f.Related...)
	f.Range = switchRange(first)
	f.Message = strings.TrimSuffix(f.Message, ".") + ": reachable with `--set " + set + "`"
	f.Reachable = set
	f.Variant = defaults
	f.AlsoIn = nil
	f.Fix = nil // the fix would edit one rendering, not the chart
	return f
}

// exploreSummary is what exploring the charts' values did, for the text summary:
// "explored 3 charts: 41 combinations rendered, 2 switches not explored (budget)".
func exploreSummary(es []*helm.Exploration) string {
	if len(es) == 0 {
		return ""
	}
	tried, left := 0, 0
	for _, e := range es {
		tried += e.Tried
		left += e.UnexploredCount
	}
	s := fmt.Sprintf("explored %s: %s rendered", countOf(len(es), "chart"), countOf(tried, "combination"))
	if left > 0 {
		s += fmt.Sprintf(", %s not explored (budget)", switches(left))
	}
	return s
}

// verboseExplore says per chart what exploring did (--verbose).
func verboseExplore(w io.Writer, es []*helm.Exploration) {
	for _, e := range es {
		fmt.Fprintf(w, "pvlint: explored %s: %s, %s rendered (%d refused by the chart, %d stopped at the time budget, %d the same as another)",
			e.Chart, switches(e.Switches), countOf(e.Tried, "combination"), e.Refused, e.Stopped, e.Same)
		switch {
		case e.UnexploredCount > 0:
			fmt.Fprintf(w, "; %s budget ended it, %s not explored: %s", e.Budget, switches(e.UnexploredCount), strings.Join(e.Unexplored[:min(len(e.Unexplored), 10)], " "))
			if e.UnexploredCount > 10 {
				fmt.Fprintf(w, " …")
			}
		case e.PairsLeft:
			fmt.Fprintf(w, "; %s budget ended it before every related pair was tried", e.Budget)
		}
		fmt.Fprintln(w)
	}
}

func switches(n int) string {
	if n == 1 {
		return "1 switch"
	}
	return fmt.Sprintf("%d switches", n)
}

// switchRange is the key of a switch in values.yaml.
func switchRange(s helm.Switch) graph.Range {
	return graph.Range{File: s.File, Start: graph.NewPos(s.Line, s.Column, 0), End: graph.NewPos(s.Line, s.EndColumn, 0)}
}
