// Package promrules reads plain Prometheus rules files (the `groups:` YAML that
// Prometheus loads through rule_files and promtool checks) into graph resources, so
// rules see them exactly as they see PrometheusRule objects.
//
// A rules file is not a Kubernetes object, so each rules document becomes one
// synthetic resource:
//
//	apiVersion: pvlint.io/v1
//	kind: PrometheusRulesFile
//	metadata: {name: <file path as displayed>}
//	spec:
//	  groups: <the file's groups node, unchanged>
//
// spec.groups is the file's own node with its exact ranges, so the same path
// (spec.groups[i].rules[j].expr) reaches an expression with its position in either
// shape. The synthetic apiVersion, kind and metadata nodes carry the range of the
// document.
package promrules

import (
	"bytes"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// The synthetic type of a plain rules file.
const (
	APIVersion = "pvlint.io/v1"
	Kind       = "PrometheusRulesFile"
)

// Detect reports whether data may hold a rules file: a line starting with `groups`,
// optional blanks and a colon, the cheap test that keeps every other YAML file from
// being parsed twice. Parse decides for sure. It runs on every YAML file, so it is a
// byte search rather than a regular expression (which cost a tenth of a whole run).
func Detect(data []byte) bool {
	for i := 0; i < len(data); {
		j := bytes.Index(data[i:], groups)
		if j < 0 {
			return false
		}
		j += i
		if j == 0 || data[j-1] == '\n' {
			k := j + len(groups)
			for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
				k++
			}
			if k < len(data) && data[k] == ':' {
				return true
			}
		}
		i = j + 1
	}
	return false
}

var groups = []byte("groups")

// Parse returns one resource per document of file that is a Prometheus rules file: a
// mapping whose `groups` is a list of groups, at least one of which has a rule with
// an `expr`. Other documents (Kubernetes objects, values files) are skipped silently.
// Diagnostics are the YAML errors of the file, as manifest.Parse reports them.
func Parse(file string, data []byte, opts manifest.Options) ([]*graph.Resource, []graph.Diagnostic) {
	docs, diags := manifest.Documents(file, data, opts)
	format := opts.Format
	if format == "" {
		format = graph.FormatYAML
	}
	var out []*graph.Resource
	for _, d := range docs {
		if !IsRulesFile(d.Node) {
			continue
		}
		out = append(out, resource(file, d, graph.Origin{Format: format, File: file, Doc: d.Index, Variant: opts.Variant}))
	}
	return out, diags
}

// IsRulesFile reports whether a document's top-level node is a rules file: a mapping
// with a `groups` list (and no Kubernetes apiVersion/kind) in which some rule has an
// `expr`.
func IsRulesFile(n *graph.Node) bool {
	if !n.Is(graph.Map) || n.Get("apiVersion").Exists() || n.Get("kind").Exists() {
		return false
	}
	for _, g := range n.Get("groups").List() {
		for _, r := range g.Get("rules").List() {
			if r.Get("expr").Exists() {
				return true
			}
		}
	}
	return false
}

func resource(file string, d manifest.Document, origin graph.Origin) *graph.Resource {
	top := d.Node
	at := top.Range
	scalar := func(s string) *graph.Node { return &graph.Node{Kind: graph.String, Scalar: s, Range: at} }
	field := func(key string, v *graph.Node) graph.Field { return graph.Field{Key: key, KeyRange: at, Value: v} }
	groups := top.Field("groups")
	obj := &graph.Node{Kind: graph.Map, Range: at, Contents: &graph.Contents{Fields: []graph.Field{
		field("apiVersion", scalar(APIVersion)),
		field("kind", scalar(Kind)),
		field("metadata", &graph.Node{Kind: graph.Map, Range: at, Contents: &graph.Contents{Fields: []graph.Field{field("name", scalar(file))}}}),
		field("spec", &graph.Node{Kind: graph.Map, Range: groups.Value.Range, Contents: &graph.Contents{Fields: []graph.Field{*groups}}}),
	}}}
	return &graph.Resource{
		APIVersion: APIVersion,
		Kind:       Kind,
		Name:       file,
		Origin:     origin,
		Range:      at,
		Object:     obj,
	}
}
