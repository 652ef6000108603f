package helm

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/pvlint/pvlint/parsers/graph"
)

// localDeps adds to a chart read from dir the dependencies its Chart.yaml (or a v1
// chart's requirements.yaml) takes from a file:// repository and its charts/
// directory lacks, read from their directories as `helm dependency build` would
// copy them there: openstack-helm's `repository: file://../helm-toolkit`. Nothing is
// downloaded, and a directory outside the linted root is not read, not even looked
// at: a note at the repository line says so (checkDependencies).
func (rd *reader) localDeps(dir string, root *chartFiles) {
	file := "Chart.yaml"
	if root.file("requirements.yaml") != nil {
		file = "requirements.yaml"
	}
	if !bytes.Contains(root.file(file), []byte("file://")) {
		return // the common case: nothing to parse
	}
	deps := dependencyNodes(root.file(file))
	if len(deps) == 0 {
		return
	}
	have := map[string]bool{}
	for _, sub := range root.subs {
		have[chartNameOf(sub)] = true
	}
	base, err := filepath.Abs(dir)
	if err != nil {
		return
	}
	if real, err := filepath.EvalSymlinks(base); err == nil {
		base = real
	}
	for _, d := range deps {
		repo := d.field("repository")
		name := d.field("name")
		rel, ok := strings.CutPrefix(repo.Value, "file://")
		if !ok || name.Value == "" || have[name.Value] {
			continue
		}
		at := func(msg string, note bool) {
			if root.refused == nil {
				root.refused = map[string]graph.Diagnostic{}
			}
			root.refused[name.Value] = graph.Diagnostic{
				Range:   graph.Range{File: root.display(file), Start: graph.NewPos(repo.Line, repo.Column, 0)},
				Message: fmt.Sprintf("dependency %q is not in charts/ and its %s", name.Value, msg),
				Note:    note,
			}
		}
		p := filepath.FromSlash(rel)
		if !filepath.IsAbs(p) {
			p = filepath.Join(base, p)
		}
		p = filepath.Clean(p)
		// Confinement is decided on the path as written before any file system call,
		// then again on the path its symlinks lead to.
		if !rd.env.inside(p) {
			at(fmt.Sprintf("repository %q leads outside the linted root: pvlint does not read it, so its templates are not linted (run `helm dependency build` to vendor it in charts/)", repo.Value), true)
			continue
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil || !IsChart(real) {
			at(fmt.Sprintf("repository %q is not a chart directory (no Chart.yaml there): its templates are not linted", repo.Value), false)
			continue
		}
		if !rd.env.inside(real) {
			at(fmt.Sprintf("repository %q leads outside the linted root through a symlink: pvlint does not read it, so its templates are not linted", repo.Value), true)
			continue
		}
		files, _ := rd.readDir(real)
		sub := rd.split(rd.env.display(real), files, 1)
		if got := chartNameOf(sub); got != name.Value {
			at(fmt.Sprintf("repository %q holds chart %q, not %q: its templates are not linted", repo.Value, got, name.Value), false)
			continue
		}
		root.subs = append(root.subs, sub)
		have[name.Value] = true
	}
}

// depNode is one entry of a dependencies list.
type depNode struct{ *yaml.Node }

// field is the value node of a key of the entry (an empty node when absent).
func (d depNode) field(key string) *yaml.Node {
	for i := 0; i+1 < len(d.Content); i += 2 {
		if d.Content[i].Value == key && d.Content[i+1].Kind == yaml.ScalarNode {
			return d.Content[i+1]
		}
	}
	return &yaml.Node{Line: d.Line, Column: d.Column}
}

// dependencyNodes is the dependencies list of a Chart.yaml or requirements.yaml.
func dependencyNodes(data []byte) []depNode {
	var doc yaml.Node
	if data == nil || yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return nil
	}
	m := doc.Content[0]
	for k := 0; k+1 < len(m.Content); k += 2 {
		if m.Content[k].Value != "dependencies" || m.Content[k+1].Kind != yaml.SequenceNode {
			continue
		}
		var out []depNode
		for _, d := range m.Content[k+1].Content {
			if d.Kind == yaml.MappingNode {
				out = append(out, depNode{d})
			}
		}
		return out
	}
	return nil
}

// chartNameOf is the name in a chart's Chart.yaml ("" when it has none).
func chartNameOf(cf *chartFiles) string {
	var md struct {
		Name string `yaml:"name"`
	}
	if yaml.Unmarshal(cf.file("Chart.yaml"), &md) != nil {
		return ""
	}
	return md.Name
}
