package kustomize

import (
	"fmt"
	"math"

	"github.com/pvlint/pvlint/parsers/graph"
)

// patchGrowth bounds what JSON 6902 patches can build before kustomize applies them.
// A "copy" operation can double the object it applies to (copy the whole spec into
// a field of itself), and a few dozen of them in a patch file of a kilobyte made
// kustomize build gigabytes in pvlint's own process (issue 27: 2.4 GiB), long before
// the output's size limit could be measured. Every copy of the tree's patches may
// apply to the same object, so the build can grow to its inputs times two to the
// number of copies; a build whose bound passes the output limit (Env.MaxOutput) is
// not run, with a diagnostic at the copy that passed it. A real kustomization has a
// copy or two at most, which costs nothing here.
func (t *tree) patchGrowth(env Env, srcs map[string]*srcFile) *graph.Diagnostic {
	var input int64
	for _, k := range t.order {
		input += int64(len(k.data))
	}
	for _, s := range srcs {
		input += int64(len(s.data))
	}
	input = max(input, 1)
	limit := env.maxOutput()
	copies := 0
	b := &builder{env: env, tree: t, sources: map[string][]byte{}, patches: map[string][]*graph.Node{}}
	for _, k := range t.order {
		for _, p := range k.patches {
			for _, d := range b.patchDocs(k, p) {
				if d == nil || d.Kind != graph.List {
					continue
				}
				for _, op := range d.Items() {
					if op.Get("op").Str() != "copy" {
						continue
					}
					copies++
					if copies >= 62 || float64(input)*math.Pow(2, float64(copies)) > float64(limit) {
						return &graph.Diagnostic{Range: op.Range, Message: fmt.Sprintf(
							"JSON patches of this build copy %d times: the %d bytes of its inputs could grow to more than the %d-byte output limit (--limit kustomize-output-size); not built",
							copies, input, limit)}
					}
				}
			}
		}
	}
	return nil
}
