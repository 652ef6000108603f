package cli

import (
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// The explain pages of the cluster beside the repository: `pvlint explain clusters`
// (the platform profiles of --cluster) and `pvlint explain context` (snapshots for
// --context). The docs/clusters.md's profile table is the same rendering.

// clusterTopics are the explain topics this file serves, with their pages.
var clusterTopics = map[string]func() string{
	"clusters": clustersPage,
	"context":  contextPage,
}

func clustersPage() string {
	return `# Platform profiles (--cluster NAME, cluster: in .pvlint.yaml)

Most repositories do not define the StorageClasses their claims name: the cluster
provides them. ` + "`--cluster NAME`" + ` (repeatable) adds the classes a platform installs by
default, so a claim naming one (or naming none, for the platform's default class)
resolves to its provisioner as a class in the linted set would: its backend is known,
so PVL002/PVL003 take their error level on block storage and PVL005 can speak. The
profile's classes are never reported themselves (an Immediate class you did not write
is not yours to fix), and a finding that relied on one names it in its chain:
` + "`class premium-rwo (GKE default classes) → pd.csi.storage.gke.io`" + `.

A class or default class the linted set defines wins over the profile's, and a
--context snapshot's over both. With several profiles, a name two of them define
resolves to the first profile given, and only the first profile with a default class
serves claims without a class.

Every row below says where it was read and for which version it holds; where the
source does not establish a fact the note says so, and unset fields take Kubernetes'
defaults (Immediate binding, Delete, no expansion). A cluster whose administrators
changed its classes is better described by a snapshot (pvlint explain context).

` + platformTable()
}

func contextPage() string {
	return `# Cluster snapshots (--context PATH, context: in .pvlint.yaml)

A chart that mounts an ` + "`existingClaim`" + `, a claim on the cluster's default class, an
autoscaler another team created: the objects that decide these hazards live in the
cluster. ` + "`--context`" + ` (repeatable) reads them from what kubectl prints, a kind: List,
several YAML documents or JSON, or from any manifests:

` + contextExports() + `
Context objects join every world (each Helm variant, Kustomize build and directory
world) after the linted ones, so claims, classes, PersistentVolumes and autoscalers
resolve to them; an object the linted set also defines (same kind, namespace and
name) is the linted one. They are never reported themselves, and a chain through one
names the file: ` + "`PVC data from cluster snapshot snap.yaml (ReadWriteOnce, ...)`" + `.
Custom policies see them in data.inventory but never as input.

A context path is read like an input, and nothing outside it: regular files only,
under the same size and parsing limits; in a directory, only .yaml, .yml and .json
files, no chart, kustomization or Terraform module is evaluated, and a symlink is
followed only when it stays inside the path given. A .pvlint.yaml found in the
repository may name context files inside the repository only; --context may point
anywhere.
`
}

// contextExports are the one-line exports of each kind that matters, as a list.
func contextExports() string {
	rows := []struct{ kind, why string }{
		{"storageclass", "the cluster's classes and which one is default"},
		{"persistentvolume", "the volumes claims are bound to: their access modes and driver"},
		{"persistentvolumeclaim", "claims a chart mounts by name (existingClaim) and their modes"},
		{"horizontalpodautoscaler", "autoscalers that raise a workload's replicas"},
		{"scaledobject.keda.sh", "KEDA autoscalers, where KEDA is installed"},
		{"csidriver", "whether a driver attaches (attachRequired)"},
	}
	var b strings.Builder
	b.WriteString("    # everything at once\n    kubectl get storageclass,persistentvolume,persistentvolumeclaim,horizontalpodautoscaler -A -o yaml > cluster.yaml\n")
	for _, r := range rows {
		b.WriteString("    # " + r.why + "\n    kubectl get " + r.kind + " -A -o yaml > " + strings.SplitN(r.kind, ".", 2)[0] + ".yaml\n")
	}
	return b.String()
}

// platformTable renders the profile table as Markdown, one row per class.
func platformTable() string {
	var b strings.Builder
	b.WriteString("| --cluster | class | provisioner | binding | reclaim | default | expansion | holds for | source | note |\n")
	b.WriteString("|---|---|---|---|---|---|---|---|---|---|\n")
	for _, p := range graph.Platforms() {
		var names strings.Builder
		names.WriteString("`" + p.Name + "`")
		for _, a := range p.Aliases {
			names.WriteString(", `" + a + "`")
		}
		for i, c := range p.Classes {
			first := ""
			if i == 0 {
				first = names.String() + " (" + p.Title + ")"
			}
			exp := "unset"
			if c.Expansion != nil {
				exp = "false"
				if *c.Expansion {
					exp = "true"
				}
			}
			def := ""
			if c.Default {
				def = "yes"
			}
			b.WriteString("| " + first + " | `" + c.Name + "` | `" + c.Provisioner + "` | " + orText(c.Binding, "unset") + " | " +
				orText(c.Reclaim, "unset") + " | " + def + " | " + exp + " | " + cell(c.Version) + " | [source](" + c.Source + ") | " + cell(c.Note) + " |\n")
		}
	}
	return b.String()
}

func orText(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// cell escapes a Markdown table cell.
func cell(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
