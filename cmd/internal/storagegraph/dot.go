package storagegraph

import (
	"bufio"
	"io"
	"strings"
)

// DOT writes the picture as a Graphviz digraph, one cluster per world when there are
// several. Labels are quoted strings with quotes, backslashes and line breaks
// escaped; identifiers are generated. Nodes and edges with findings are red.
func DOT(w io.Writer, p *Picture) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("digraph storage {\n  rankdir=LR;\n  node [fontname=\"Helvetica\", fontsize=10];\n  edge [fontname=\"Helvetica\", fontsize=9];\n")
	for _, s := range p.Subgraphs {
		indent := "  "
		if s.ID != "" {
			bw.WriteString("  subgraph cluster_" + s.ID + " {\n    label=" + dotQuote(worldTitle(s.Name)) + ";\n")
			indent = "    "
		}
		if len(s.Nodes) == 0 {
			id := "empty"
			if s.ID != "" {
				id = s.ID + "_empty"
			}
			bw.WriteString(indent + id + " [shape=plaintext, label=" + dotQuote("no workload mounts a claim") + "];\n")
		}
		for _, n := range s.Nodes {
			attrs := "shape=" + dotShape(n.Kind) + ", label=" + dotLabel(nodeLines(n))
			if len(n.Rules) > 0 {
				attrs += ", color=\"#d1242f\", penwidth=2"
			}
			bw.WriteString(indent + n.ID + " [" + attrs + "];\n")
		}
		for _, e := range s.Edges {
			label := e.Label
			attrs := ""
			if len(e.Rules) > 0 {
				label += ": " + strings.Join(e.Rules, ", ")
				attrs = ", color=\"#d1242f\", fontcolor=\"#d1242f\", penwidth=2"
			}
			bw.WriteString(indent + e.From + " -> " + e.To + " [label=" + dotQuote(label) + attrs + "];\n")
		}
		if s.ID != "" {
			bw.WriteString("  }\n")
		}
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

func dotShape(k Kind) string {
	switch k {
	case Claim:
		return "note"
	case Class, Volume:
		return "cylinder"
	case Scaler:
		return "hexagon"
	}
	return "box"
}

// dotLabel writes lines as one DOT quoted string, separated by DOT's \n.
func dotLabel(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = dotEscape(l)
	}
	return `"` + strings.Join(out, `\n`) + `"`
}

// dotQuote writes s as a DOT quoted string.
func dotQuote(s string) string { return `"` + dotEscape(s) + `"` }

// dotEscape escapes s for a DOT quoted string: backslashes are doubled (DOT reads \n,
// \l and friends as escapes in labels), quotes escaped, & written &amp; (Graphviz
// reads entities in labels), and control characters,
// line breaks included, become spaces, so a name is one line of its label.
func dotEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\\`)
		case r == '"':
			b.WriteString(`\"`)
		case r == '&':
			b.WriteString("&amp;")
		case r < 0x20 || r == 0x7f:
			b.WriteByte(' ')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
