package storage

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// DefaultClassAmbiguity (PVL015) reports StorageClasses whose default-class annotation
// does not say what the user meant: several classes marked default, or a value that
// means yes to a person but is not exactly "true", which Kubernetes ignores. It reads
// the graph's one definition of a default class (graph.IsDefaultClass), which a Rego
// version would have to restate.
var DefaultClassAmbiguity = &lint.Rule{
	ID:       "PVL015",
	Name:     "default-class-ambiguity",
	Severity: lint.Warning,
	Summary:  "the default StorageClass is ambiguous or not marked the way Kubernetes reads it",
	Description: "Claims without storageClassName get the default StorageClass: the one whose " +
		"storageclass.kubernetes.io/is-default-class (or the beta storageclass.beta.kubernetes.io/is-default-class) " +
		"annotation is exactly \"true\". When two or more classes are marked, current Kubernetes picks the newest " +
		"one, so which class a claim gets depends on creation order, and older clusters rejected such claims " +
		"outright. A value such as \"True\", \"yes\" or \"1\" is not \"true\": the class is silently not a default.",
	Remediation: "Mark exactly one StorageClass as default, with the value \"true\" (quoted in YAML); remove the " +
		"annotation from the others or set it to \"false\".",
	Tags:  []string{"storage-class", "defaults"},
	Kinds: []string{"StorageClass"},
	Check: checkDefaultClassAmbiguity,
}

func checkDefaultClassAmbiguity(p *lint.Pass) {
	g := p.Graph
	defaults := g.DefaultClasses()
	for _, sc := range g.ByKind("StorageClass") {
		for _, key := range []string{graph.AnnDefaultClass, graph.AnnBetaDefaultClass} {
			v, ok := sc.Annotation(key)
			if !ok || v.IsUnknown() || graph.IsDefaultClass(sc) || !meansYes(v.Str()) {
				continue
			}
			msg := "StorageClass " + sc.Name + " (provisioner " + orUnset(sc.Get("provisioner").Str()) + ") sets " + key +
				" to " + quote(v.Str()) + ", which Kubernetes ignores (only \"true\" marks a default): claims without a class do not get this one"
			fix := &lint.Fix{Description: "Set " + key + " to \"true\", the only value Kubernetes reads as default",
				Edits: lint.Put(sc.Get("metadata", "annotations"), key, lint.String("true"))}
			p.ReportFix(fix, sc, v.Range, []string{"metadata", "annotations", key}, lint.SeverityNone, msg)
		}
	}
	// A class defined twice under one name is one object in a cluster (the duplicate
	// is PVL023's), not two defaults.
	names := map[string]bool{}
	for _, sc := range defaults {
		names[sc.Name] = true
	}
	if len(names) < 2 {
		return
	}
	for _, sc := range defaults {
		var others []string
		var related []lint.Related
		seen := map[string]bool{sc.Name: true}
		for _, o := range defaults {
			if seen[o.Name] {
				continue
			}
			seen[o.Name] = true
			others = append(others, o.Name+" ("+orUnset(o.Get("provisioner").Str())+")")
			related = append(related, lint.Related{Range: defaultAnnotationAt(o), Message: "StorageClass " + o.Name + " is marked default too"})
		}
		msg := "StorageClass " + sc.Name + " (provisioner " + orUnset(sc.Get("provisioner").Str()) + ") is marked default, and so is " +
			strings.Join(others, ", ") + ": claims without a class get whichever of them is newest (older Kubernetes rejected such claims)"
		p.Report(sc, defaultAnnotationAt(sc), lint.SeverityNone, msg, related...)
	}
}

// defaultAnnotationAt is the default annotation that counts (the GA key first).
func defaultAnnotationAt(sc *graph.Resource) graph.Range {
	for _, key := range []string{graph.AnnDefaultClass, graph.AnnBetaDefaultClass} {
		if v, ok := sc.Annotation(key); ok && v.Str() == "true" {
			return sc.Locate("metadata", "annotations", key)
		}
	}
	return sc.Locate("metadata", "annotations")
}

// meansYes reports whether an annotation value reads as yes to a person
// (docs/rules.md#decision-5): "True", "yes", "1", "on"... "true" itself is handled by
// graph.IsDefaultClass, and "false", "no" or "" are fine.
func meansYes(v string) bool {
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "true", "yes", "y", "1", "on", "t", "enabled":
		return true
	}
	return false
}

func quote(s string) string { return `"` + s + `"` }
