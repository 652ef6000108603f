package storagegraph

import (
	"bufio"
	"io"
	"strconv"
	"strings"
	"unicode"
)

// Mermaid writes the picture as a Mermaid flowchart (left to right), which GitHub
// and GitLab render in Markdown. Names come from manifests that may be hostile, so
// every label is quoted and every character that Mermaid or HTML could read as syntax
// is written as a Mermaid entity (#34; and friends); identifiers are generated.
// Nodes and edges with findings are drawn in red, their rule IDs in the label.
func Mermaid(w io.Writer, p *Picture) error {
	bw := bufio.NewWriter(w)
	bw.WriteString("flowchart LR\n")
	var marked []int
	edgeN := 0
	for _, s := range p.Subgraphs {
		indent := "  "
		if s.ID != "" {
			bw.WriteString("  subgraph " + s.ID + "[\"" + mermaidText(worldTitle(s.Name)) + "\"]\n")
			bw.WriteString("    direction LR\n")
			indent = "    "
		}
		if len(s.Nodes) == 0 {
			id := "empty"
			if s.ID != "" {
				id = s.ID + "_empty"
			}
			bw.WriteString(indent + id + "[\"" + mermaidText("no workload mounts a claim") + "\"]\n")
		}
		for _, n := range s.Nodes {
			open, close := mermaidShape(n.Kind)
			bw.WriteString(indent + n.ID + open + "\"" + mermaidLines(nodeLines(n)) + "\"" + close)
			if len(n.Rules) > 0 {
				bw.WriteString(":::finding")
			}
			bw.WriteString("\n")
		}
		for _, e := range s.Edges {
			label := e.Label
			if len(e.Rules) > 0 {
				label += ": " + strings.Join(e.Rules, ", ")
				marked = append(marked, edgeN)
			}
			bw.WriteString(indent + e.From + " -->|\"" + mermaidText(label) + "\"| " + e.To + "\n")
			edgeN++
		}
		if s.ID != "" {
			bw.WriteString("  end\n")
		}
	}
	bw.WriteString("  classDef finding stroke:#d1242f,stroke-width:2px\n")
	if len(marked) > 0 {
		ns := make([]string, len(marked))
		for i, n := range marked {
			ns[i] = strconv.Itoa(n)
		}
		bw.WriteString("  linkStyle " + strings.Join(ns, ",") + " stroke:#d1242f,stroke-width:2px\n")
	}
	return bw.Flush()
}

// nodeLines are a node's label lines with its own findings last.
func nodeLines(n *Node) []string {
	if len(n.Rules) == 0 {
		return n.Lines
	}
	return append(append([]string(nil), n.Lines...), "findings: "+strings.Join(n.Rules, ", "))
}

func worldTitle(name string) string {
	if name == "" {
		return "base"
	}
	return name
}

// mermaidShape is the bracket pair of a node kind: workloads are rectangles, claims
// rounded, classes and PVs cylinders, autoscalers hexagons.
func mermaidShape(k Kind) (string, string) {
	switch k {
	case Claim:
		return "(", ")"
	case Class, Volume:
		return "[(", ")]"
	case Scaler:
		return "{{", "}}"
	}
	return "[", "]"
}

// mermaidLines joins escaped lines with Mermaid's line break.
func mermaidLines(lines []string) string {
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = mermaidText(l)
	}
	return strings.Join(out, "<br/>")
}

// mermaidText makes s safe inside a quoted Mermaid label: letters, digits, spaces and
// a few punctuation marks stay; everything else (quotes, #, <, >, &, brackets, pipes,
// backticks, semicolons, control characters...) becomes a numeric entity #N;, which
// Mermaid turns back into the character when it renders.
func mermaidText(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' || r == '.' || r == '-' || r == '_' || r == '/' || r == ',' || r == ':' || r == '(' || r == ')' || r == '=' || r == '+':
			b.WriteRune(r)
		case r < unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		case r > unicode.MaxASCII && (unicode.IsLetter(r) || unicode.IsDigit(r)):
			b.WriteRune(r)
		default:
			b.WriteString("#" + strconv.Itoa(int(r)) + ";")
		}
	}
	return b.String()
}
