// Package rewrite turns the fixes rules attach to findings (lint.Fix: edits on graph
// nodes) into exact text changes of the files users edit, and applies them. YAML is
// changed at the byte level from node ranges and Terraform through hclsyntax ranges
// with hclwrite-rendered values, so every byte outside a fix stays as it was. Files
// that pvlint only sees rendered (Helm templates, Kustomize builds, Terraform plans)
// are never rewritten: the fix says where to change them instead.
package rewrite

import (
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/rules/lint"
)

// A Resolver turns fixes' edits into text changes of their files, or the reason they
// cannot be applied; the fixes themselves, the rules' values, are left as they are. It works against one set of file
// contents (src returns a file's content by its displayed name), parsing each Terraform
// file once however many fixes it holds (a run with a thousand findings in .tf files
// parsed them a thousand times).
type Resolver struct {
	src    func(file string) ([]byte, bool)
	unsafe bool
	hcl    map[hclKey]parsedHCL
}

type parsedHCL struct {
	body *hclsyntax.Body
	err  error
}

// NewResolver returns a Resolver over src; unsafe fixes resolve only when unsafe is set.
func NewResolver(src func(file string) ([]byte, bool), unsafe bool) *Resolver {
	return &Resolver{src: src, unsafe: unsafe, hcl: map[hclKey]parsedHCL{}}
}

// Resolution is a fix resolved against the text of its file.
type Resolution struct {
	// Changes are the fix's edits as exact text changes, sorted; nil when the fix
	// cannot be applied.
	Changes []lint.Change
	// NotApplied says why the edits cannot be written to the file users edit (the
	// resource was rendered from a Helm template, built by Kustomize, or the node is
	// not a literal); empty when Changes are set.
	NotApplied string
}

// Resolve resolves fix, the remedy of a finding about resource r.
func (rv *Resolver) Resolve(fix *lint.Fix, r *graph.Resource) Resolution {
	if fix == nil {
		return Resolution{}
	}
	changes, reason := rv.resolve(fix, r)
	if reason != "" {
		return Resolution{NotApplied: reason}
	}
	return Resolution{Changes: changes}
}

// parseHCL returns the body of a .tf file, parsed on first use.
func (rv *Resolver) parseHCL(src []byte, file string) (*hclsyntax.Body, error) {
	k := hclKey{file: file, start: -1}
	p, ok := rv.hcl[k]
	if !ok {
		p.body, p.err = parseHCL(src, file)
		rv.hcl[k] = p
	}
	return p.body, p.err
}

// hclKey names a parsed .tf file, or with start >= 0 the block at [start, end) of it.
type hclKey struct {
	file       string
	start, end int
}

// parseHCLFor returns a body holding every place the edits of a fix to r may touch:
// the resource's own block, parsed alone, when r is a Terraform resource block in file
// and every edit lies inside it; otherwise the whole file. A fix changes its resource,
// and a Terraform file is mostly other blocks (the bulky configuration of ConfigMaps,
// heredocs that are slow to parse): parsing just the block is what made resolving the
// fixes of a large Terraform tree cost a tenth of the run. The block keeps its place in
// the file (byte offsets, lines), so what is found in it is what the whole file's parse
// finds there.
func (rv *Resolver) parseHCLFor(src []byte, file string, r *graph.Resource, edits []lint.Edit) (*hclsyntax.Body, error) {
	rg := r.Range
	start, end := int(rg.Start.Byte), int(rg.End.Byte)
	inside := func(n *graph.Node) bool {
		return n == nil || n.Range.File == file && int(n.Range.Start.Byte) >= start && int(n.Range.End.Byte) <= end
	}
	whole := r.Origin.Format != graph.FormatTerraform || rg.File != file || !rg.Start.IsValid() || start < 0 || end <= start || end > len(src)
	for _, e := range edits {
		whole = whole || !inside(e.Node) || !inside(e.Parent)
	}
	if whole {
		return rv.parseHCL(src, file)
	}
	k := hclKey{file: file, start: start, end: end}
	p, ok := rv.hcl[k]
	if !ok {
		f, diags := hclsyntax.ParseConfig(src[start:end], file, hcl.Pos{Line: int(rg.Start.Line), Column: int(rg.Start.Column), Byte: start})
		p.body, ok = f.Body.(*hclsyntax.Body)
		if diags.HasErrors() || !ok {
			return rv.parseHCL(src, file) // reported as the whole file's parse reports it
		}
		rv.hcl[k] = p
	}
	return p.body, p.err
}

func (rv *Resolver) resolve(fix *lint.Fix, r *graph.Resource) ([]lint.Change, string) {
	if fix.Unsafe && !rv.unsafe {
		return nil, "an unsafe fix, applied only with --unsafe-fixes"
	}
	if r == nil || len(fix.Edits) == 0 {
		return nil, "the fix has no edits"
	}
	switch r.Origin.Format {
	case graph.FormatHelm:
		where := r.Origin.File
		if r.Origin.Source != "" {
			where = r.Origin.Source
		}
		return nil, "rendered from the Helm template " + where + ": change the chart's values or the template instead"
	case graph.FormatKustomize:
		return nil, "built by Kustomize (" + r.Origin.Variant + "): change the base or the patch that sets the field instead"
	case graph.FormatPlan:
		return nil, "read from a Terraform plan: change the configuration that produced it instead"
	}
	file := ""
	for _, e := range fix.Edits {
		if e.Node == nil || e.Node.Range.File == "" || file != "" && e.Node.Range.File != file {
			return nil, "the edits are not all in one file"
		}
		file = e.Node.Range.File
	}
	data, ok := rv.src(file)
	if !ok {
		return nil, "the content of " + file + " is not available"
	}
	var spans []span
	var err error
	switch ext := strings.ToLower(filepath.Ext(file)); {
	case ext == ".tf" || ext == ".tofu":
		var root *hclsyntax.Body
		if root, err = rv.parseHCLFor(data, file, r, fix.Edits); err == nil {
			spans, err = hclEdits(data, root, fix.Edits)
		}
	case (ext == ".yaml" || ext == ".yml") && (r.Origin.Format == graph.FormatYAML || r.Origin.Format == graph.FormatTerraform):
		for _, e := range fix.Edits {
			if r.Range.File != file || e.Node.Range.Start.Byte < r.Range.Start.Byte || e.Node.Range.End.Byte > r.Range.End.Byte {
				return nil, "the value is shared through a YAML anchor outside the resource"
			}
		}
		spans, err = editSpans(data, fix.Edits, yamlEdit)
	case ext == ".json" && r.Origin.Format == graph.FormatYAML:
		for _, e := range fix.Edits {
			if r.Range.File != file || e.Node.Range.Start.Byte < r.Range.Start.Byte || e.Node.Range.End.Byte > r.Range.End.Byte {
				return nil, "the value is outside the resource"
			}
		}
		spans, err = editSpans(data, fix.Edits, jsonEdit)
	default:
		return nil, "only YAML and JSON manifests and Terraform .tf files are rewritten, not " + filepath.Base(file)
	}
	if err != nil {
		return nil, err.Error()
	}
	if overlapping(spans) {
		return nil, "the fix's own edits overlap"
	}
	out := make([]lint.Change, 0, len(spans))
	lines := graph.NewLines(data)
	for _, s := range spans {
		out = append(out, lint.Change{Range: graph.Range{File: file, Start: lines.Pos(data, s.start), End: lines.Pos(data, s.end)}, Text: s.text})
	}
	sortChanges(out)
	return out, ""
}

// Select picks the fixes to apply together: in order, each fix whose changes overlap
// none already picked (a change identical to a picked one is the same fix reported
// twice, and is applied once). fixes are each fix's resolved changes. It returns the
// picked changes per file, sorted, and the indexes in fixes of the fixes left out for
// overlapping, which a later round may apply.
func Select(fixes [][]lint.Change) (byFile map[string][]lint.Change, deferred []int) {
	byFile = map[string][]lint.Change{}
	for i, f := range fixes {
		var add []lint.Change
		ok := true
		for _, c := range f {
			dup := false
			for _, p := range byFile[c.Range.File] {
				if p == c {
					dup = true
				} else if overlap(p, c) {
					ok = false
				}
			}
			if !dup {
				add = append(add, c)
			}
		}
		if !ok {
			deferred = append(deferred, i)
			continue
		}
		for _, c := range add {
			byFile[c.Range.File] = append(byFile[c.Range.File], c)
		}
	}
	for _, cs := range byFile {
		sortChanges(cs)
	}
	return byFile, deferred
}

// Apply returns src with the sorted, non-overlapping changes made.
func Apply(src []byte, changes []lint.Change) []byte {
	var out []byte
	at := 0
	for _, c := range changes {
		out = append(out, src[at:c.Range.Start.Byte]...)
		out = append(out, c.Text...)
		at = endOf(c.Range)
	}
	return append(out, src[at:]...)
}

// overlap reports whether two changes cannot both be made: their spans intersect, an
// insertion falls inside the other's span, or two different texts go to one place.
func overlap(a, b lint.Change) bool {
	as, ae, bs, be := a.Range.Start.Byte, a.Range.End.Byte, b.Range.Start.Byte, b.Range.End.Byte
	if as == ae && bs == be {
		return as == bs
	}
	if as == ae {
		return bs < as && as < be
	}
	if bs == be {
		return as < bs && bs < ae
	}
	return as < be && bs < ae
}

func overlapping(spans []span) bool {
	for i := range spans {
		for j := i + 1; j < len(spans); j++ {
			a := lint.Change{Range: graph.Range{Start: graph.Pos{Byte: int32(spans[i].start)}, End: graph.Pos{Byte: int32(spans[i].end)}}}
			b := lint.Change{Range: graph.Range{Start: graph.Pos{Byte: int32(spans[j].start)}, End: graph.Pos{Byte: int32(spans[j].end)}}}
			if overlap(a, b) {
				return true
			}
		}
	}
	return false
}

// sortChanges orders changes by position, an insertion before a replacement that
// starts where it is.
func sortChanges(cs []lint.Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i].Range, cs[j].Range
		if a.Start.Byte != b.Start.Byte {
			return a.Start.Byte < b.Start.Byte
		}
		return a.End.Byte < b.End.Byte
	})
}
