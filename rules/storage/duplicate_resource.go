package storage

import (
	"path"
	"strconv"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// DuplicateResource (PVL023) reports a kind, namespace and name that plain manifests
// of one world define twice. Directories that each define a resource are alternative
// worlds and are linted apart (an environment or an example each), so what is left
// here is two definitions in one directory, or one in a directory and one in a
// directory above it: applied together, the last one silently replaces the first.
// pvlint keeps both apart and merges nothing; a reference from a file resolves to the
// definition in that file when there is one.
//
// Rendered charts and kustomize builds are not checked: a chart that renders an
// object twice is a different problem, and its variants are worlds of their own.
var DuplicateResource = &lint.Rule{
	ID:       "PVL023",
	Name:     "duplicate-resource",
	Severity: lint.Warning,
	Summary:  "two plain manifests of one world define the same resource",
	Description: "Two manifests in the same directory (or one in a directory and one in a directory above it) " +
		"define the same kind, namespace and name. Applied together, with kubectl apply -f or a GitOps tool, the " +
		"second one replaces the first: whichever file is applied last wins, and the settings of the other are " +
		"lost without a warning. pvlint lints both definitions and merges nothing, so findings may name either. " +
		"Directories that each define the resource once (envs/dev and envs/prod, two examples) are not reported: " +
		"they are linted as separate worlds.",
	Remediation: "Keep one definition, or move the alternatives into separate directories (each is then linted " +
		"on its own), or list the directories under worlds: in .pvlint.yaml.",
	Tags:  []string{"inputs", "identity"},
	Kinds: []string{"*"},
	Check: checkDuplicateResource,
}

func checkDuplicateResource(p *lint.Pass) {
	for _, defs := range p.Graph.Duplicates() {
		var plain []*graph.Resource
		for _, r := range defs {
			// Objects without a name (generateName, or files that are not really
			// Kubernetes objects) have no identity to collide on.
			if r.Origin.Format == graph.FormatYAML && r.Range.IsValid() && r.Get("metadata", "name").Str() != "" {
				plain = append(plain, r)
			}
		}
		if len(plain) < 2 {
			continue
		}
		first := plain[0]
		for _, r := range plain[1:] {
			msg := identity(r) + " is defined again here; it is first defined in " + where(first) +
				": applied together, the later definition replaces the earlier one"
			if path.Dir(r.Range.File) != path.Dir(first.Range.File) {
				msg += " (one directory holds the other, so both are linted in one world)"
			}
			p.Report(r, r.Locate("metadata", "name"), lint.SeverityNone, msg,
				lint.Related{Range: first.Locate("metadata", "name"), Message: "first definition of " + identity(first)})
		}
	}
}

// identity names a resource with its namespace: "Deployment web (namespace shop)".
func identity(r *graph.Resource) string {
	if r.Namespace == "" {
		return r.Kind + " " + r.Name
	}
	return r.Kind + " " + r.Name + " (namespace " + r.Namespace + ")"
}

// where is a definition's file and the line of its name, for messages.
func where(r *graph.Resource) string {
	at := r.Locate("metadata", "name")
	return at.File + ":" + strconv.Itoa(int(at.Start.Line))
}
