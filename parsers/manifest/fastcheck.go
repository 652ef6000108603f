package manifest

import (
	"bytes"
	"fmt"

	"github.com/pvlint/pvlint/parsers/graph"
	yaml "go.yaml.in/yaml/v3"
)

// CheckFastPath reads every document of data with both readers, the fast path and
// yaml.v3 followed by the converter. Whatever the fast path accepts must be what the
// yaml.v3 path reads, node for node and range for range, and must not be an error
// there. It returns how many documents the fast path accepted, how many there were,
// and one line per document read differently. The package's tests and the benchmark
// corpus test (which must not let the fast path silently give up on the corpus it is
// timed on) use it.
func CheckFastPath(name string, data []byte) (fast, total int, problems []string) {
	fast, total = checkFastPath(name, data, func(line int, want, _ *graph.Node, err error) {
		if err != nil {
			problems = append(problems, fmt.Sprintf("%s:%d: the fast path read a document that yaml.v3 rejects: %v", name, line, err))
			return
		}
		problems = append(problems, fmt.Sprintf("%s:%d: the fast path reads the document differently from yaml.v3", name, line))
	})
	return fast, total, problems
}

// checkFastPath is CheckFastPath with the two readings of a document that differ
// (or yaml.v3's error) handed to mismatch.
func checkFastPath(name string, data []byte, mismatch func(line int, want, got *graph.Node, err error)) (fast, total int) {
	if !bytes.Equal(data, bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))) {
		return 0, 0
	}
	lines := graph.NewLines(data)
	mem := &slab{}
	for _, d := range splitDocuments(data) {
		total++
		c := converter{file: name, src: data, lines: lines, lineOff: d.line - 1, limits: DefaultLimits}
		got, ok := fastDocument(&c, string(data), mem, d, false)
		if !ok {
			continue
		}
		fast++
		c.count = 0
		want, err := slowDocument(&c, d)
		if err != nil || !sameNode(want, got) {
			mismatch(d.line, want, got, err)
		}
	}
	return fast, total
}

// slowDocument reads a document the way parseDoc does without the fast path:
// yaml.v3, then the converter.
func slowDocument(c *converter, d document) (*graph.Node, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(c.src[d.start:d.end], &root); err != nil {
		return nil, err
	}
	doc := &root
	if doc.Kind == yaml.DocumentNode {
		if len(doc.Content) == 0 {
			return nil, nil
		}
		doc = doc.Content[0]
	}
	return c.convert(doc, 0)
}

// sameNode compares two trees by kind, range, scalar and keys.
func sameNode(a, b *graph.Node) bool {
	if a == nil || b == nil {
		return a == b
	}
	if a.Kind != b.Kind || a.Range != b.Range || a.Scalar != b.Scalar || len(a.Fields()) != len(b.Fields()) || len(a.Items()) != len(b.Items()) {
		return false
	}
	for i, f := range a.Fields() {
		g := b.Fields()[i]
		if f.Key != g.Key || f.KeyRange != g.KeyRange || !sameNode(f.Value, g.Value) {
			return false
		}
	}
	for i, it := range a.Items() {
		if !sameNode(it, b.Items()[i]) {
			return false
		}
	}
	return true
}
