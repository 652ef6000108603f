package storagegraph

// FindingsOnly returns the parts of the picture that have findings: in each world,
// the connected groups of nodes (a workload with its claims, classes, volumes and
// autoscalers) in which a node or an edge carries a rule ID. Worlds with none are
// left out, so a clean run draws an empty picture. The job summary of the GitHub
// Action shows this picture: the chains a reviewer has to look at, not the whole
// cluster.
func (p *Picture) FindingsOnly() *Picture {
	out := &Picture{}
	for _, s := range p.Subgraphs {
		group := map[string]string{} // node ID → its group's root
		var find func(string) string
		find = func(id string) string {
			if r, ok := group[id]; ok && r != id {
				root := find(r)
				group[id] = root
				return root
			}
			return id
		}
		for _, n := range s.Nodes {
			group[n.ID] = n.ID
		}
		for _, e := range s.Edges {
			if a, b := find(e.From), find(e.To); a != b {
				group[a] = b
			}
		}
		hot := map[string]bool{}
		for _, n := range s.Nodes {
			if len(n.Rules) > 0 {
				hot[find(n.ID)] = true
			}
		}
		for _, e := range s.Edges {
			if len(e.Rules) > 0 {
				hot[find(e.From)] = true
			}
		}
		if len(hot) == 0 {
			continue
		}
		kept := &Subgraph{ID: s.ID, Name: s.Name}
		for _, n := range s.Nodes {
			if hot[find(n.ID)] {
				kept.Nodes = append(kept.Nodes, n)
			}
		}
		for _, e := range s.Edges {
			if hot[find(e.From)] {
				kept.Edges = append(kept.Edges, e)
			}
		}
		out.Subgraphs = append(out.Subgraphs, kept)
	}
	return out
}
