package helm

import (
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/pvlint/pvlint/parsers/graph"
)

// The synthetic type of what a chart's values.yaml offers its users for persistence
// (Options.ChartValues), read by PVL030:
//
//	apiVersion: pvlint.io/v1
//	kind: ChartValues
//	metadata: {name: <chart name>}
//	spec:
//	  persistence:
//	    missing: [accessModes, existingClaim, storageClass]  # the knobs no persistence block has
//
// Every node carries the range of the first persistence key of values.yaml.
const (
	ChartValuesAPIVersion = "pvlint.io/v1"
	ChartValuesKind       = "ChartValues"
)

// Knobs are the persistence values a chart's values.yaml lacks.
type Knobs struct {
	Chart                   string // the chart's name
	File                    string // the displayed values.yaml
	Line, Column, EndColumn int    // the first persistence key
	Missing                 []string
}

// knobNames are the values that let a chart's users choose how its claims are made:
// an access mode (ReadWriteOncePod), a class, or a claim of their own.
var knobNames = []struct {
	name    string
	aliases []string
}{
	{"accessModes", []string{"accessModes", "accessMode"}},
	{"existingClaim", []string{"existingClaim"}},
	{"storageClass", []string{"storageClass", "storageClassName"}},
}

// findKnobs reads values.yaml for its persistence blocks (mappings under a key whose
// name contains "persistence" with a size, a mount path or a knob) and returns the
// knobs none of them has; nil when it has no persistence block, or when users can
// choose both the access modes and the class.
func findKnobs(chart, file string, data []byte) *Knobs {
	var doc yaml.Node
	if len(data) == 0 || yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 {
		return nil
	}
	var first *yaml.Node
	present := map[string]bool{}
	nodes := 0
	var keys func(n *yaml.Node, depth int)
	keys = func(n *yaml.Node, depth int) { // the keys within one persistence block
		nodes++
		if n.Kind != yaml.MappingNode || depth > 3 || nodes > maxValuesNodes {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			present[n.Content[i].Value] = true
			keys(n.Content[i+1], depth+1)
		}
	}
	var walk func(n *yaml.Node, depth int)
	walk = func(n *yaml.Node, depth int) {
		nodes++
		if n.Kind != yaml.MappingNode || depth > maxValuesDepth || nodes > maxValuesNodes {
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if strings.Contains(strings.ToLower(k.Value), "persistence") && v.Kind == yaml.MappingNode && claimSettings(v) {
				if first == nil {
					first = k
				}
				keys(v, 0)
				continue
			}
			walk(v, depth+1)
		}
	}
	walk(doc.Content[0], 0)
	if first == nil {
		return nil
	}
	k := &Knobs{Chart: chart, File: file, Line: first.Line, Column: first.Column, EndColumn: first.Column + len(first.Value)}
	for _, kn := range knobNames {
		found := false
		for _, a := range kn.aliases {
			found = found || present[a]
		}
		if !found {
			k.Missing = append(k.Missing, kn.name)
		}
	}
	// Without existingClaim alone users can still choose the modes and the class (and
	// a StatefulSet's claim templates have no use for one): not worth a note.
	if len(k.Missing) == 0 || len(k.Missing) == 1 && k.Missing[0] == "existingClaim" {
		return nil
	}
	return k
}

// claimSettings reports whether a persistence mapping is about volumes: it has a
// size, a mount path or one of the knobs (Argo Workflows' persistence is a database).
func claimSettings(n *yaml.Node) bool {
	for i := 0; i+1 < len(n.Content); i += 2 {
		switch n.Content[i].Value {
		case "size", "mountPath", "accessModes", "accessMode", "storageClass", "storageClassName", "existingClaim":
			return true
		}
	}
	return false
}

// resource is the synthetic ChartValues resource of the knobs, in variant.
func (k *Knobs) resource(variant string) *graph.Resource {
	at := graph.Range{File: k.File, Start: graph.NewPos(k.Line, k.Column, 0), End: graph.NewPos(k.Line, k.EndColumn, 0)}
	scalar := func(s string) *graph.Node { return &graph.Node{Kind: graph.String, Scalar: s, Range: at} }
	field := func(key string, v *graph.Node) graph.Field { return graph.Field{Key: key, KeyRange: at, Value: v} }
	var missing []*graph.Node
	for _, m := range k.Missing {
		missing = append(missing, scalar(m))
	}
	obj := graph.NewMap(at, []graph.Field{
		field("apiVersion", scalar(ChartValuesAPIVersion)),
		field("kind", scalar(ChartValuesKind)),
		field("metadata", graph.NewMap(at, []graph.Field{field("name", scalar(k.Chart))})),
		field("spec", graph.NewMap(at, []graph.Field{
			field("persistence", graph.NewMap(at, []graph.Field{field("missing", graph.NewList(at, missing))})),
		})),
	})
	return &graph.Resource{
		APIVersion: ChartValuesAPIVersion, Kind: ChartValuesKind, Name: k.Chart,
		Origin: graph.Origin{Format: graph.FormatHelm, File: k.File, Variant: variant},
		Range:  at, Object: obj,
	}
}
