package terraform

import (
	"maps"
	"path/filepath"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/zclconf/go-cty/cty"
)

// emit adds the graph resource of one resource instance.
func (in *instance) emit(d *resDecl, ri *resInst) {
	if ri.tf == nil {
		return
	}
	origin := graph.Origin{Format: graph.FormatTerraform, File: d.file.name, Address: ri.addr, Root: in.run.ld.display(in.run.dir.Path)}
	rg := blockRange(d.block, d.file)
	unknown := func(n *graph.Node) string {
		t := exprText(d.file, n)
		if in.addr != "" {
			t = strings.TrimSuffix(in.addr, ".") + ": " + t
		}
		return t
	}
	if d.typ == manifestType {
		in.emitManifest(d, ri, origin, rg)
		return
	}
	anchor := headerRange(d.block, d.file)
	z := &normalizer{isBlock: func(n *graph.Node) bool { return ri.blocks[n] }, facts: map[string]*graph.Node{}}
	obj := z.object(ri.tf, shapeOf(d.typ), anchor)
	res := resourceOf(kinds[d.typ], obj, anchor, origin, rg, unknown)
	waitFact(z.facts, res, ri.tf, anchor)
	ri.deps.facts(z.facts, in.deps, anchor)
	if len(z.facts) > 0 {
		res.Facts = z.facts
	}
	res.Related = in.calls
	in.run.out = append(in.run.out, res)
}

// waitFact records wait_until_bound on a claim of kubernetes_persistent_volume_claim:
// the attribute, or the provider's default (true) at the resource block when it is
// unset. Claims of kubernetes_manifest and YAML have no such fact: nothing waits.
func waitFact(facts map[string]*graph.Node, res *graph.Resource, tf *graph.Node, anchor graph.Range) {
	if res.Kind != "PersistentVolumeClaim" {
		return
	}
	if w := tf.Get("wait_until_bound"); w != nil && !w.IsNull() {
		facts[graph.FactWaitUntilBound] = w
		return
	}
	facts[graph.FactWaitUntilBound] = &graph.Node{Kind: graph.Bool, Scalar: "true", Range: anchor}
}

// emitManifest adds the object of a kubernetes_manifest. When the manifest is
// yamldecode(file(PATH)), the object is read from that file with its YAML positions,
// so findings point into the file the user edits.
func (in *instance) emitManifest(d *resDecl, ri *resInst, origin graph.Origin, rg graph.Range) {
	m := ri.tf.Get("manifest")
	if m == nil || m.Kind != graph.Map {
		return
	}
	site := graph.Location{Range: headerRange(d.block, d.file), Message: ri.addr + " is declared here"}
	if rs := in.manifestFile(d, ri); len(rs) == 1 {
		r := rs[0]
		r.Origin.Format, r.Origin.Address, r.Origin.Root = graph.FormatTerraform, ri.addr, origin.Root
		r.Related = append([]graph.Location{site}, in.calls...)
		in.depFacts(r, ri)
		in.run.out = append(in.run.out, r)
		return
	}
	for _, r := range manifest.Objects(m, origin) {
		r.Range = rg
		r.Related = in.calls
		in.depFacts(r, ri)
		in.run.out = append(in.run.out, r)
	}
}

// depFacts records the dependencies of a kubernetes_manifest's object.
func (in *instance) depFacts(r *graph.Resource, ri *resInst) {
	facts := map[string]*graph.Node{}
	ri.deps.facts(facts, in.deps, r.Range)
	if len(facts) == 0 {
		return
	}
	if r.Facts == nil {
		r.Facts = facts
		return
	}
	maps.Copy(r.Facts, facts)
}

// manifestFile re-reads the file of a manifest = yamldecode(file(PATH)) with
// positions. It returns nil when the manifest has another form.
func (in *instance) manifestFile(d *resDecl, ri *resInst) []*graph.Resource {
	sb, ok := d.body.(*hclsyntax.Body)
	if !ok {
		return nil
	}
	a := sb.Attributes["manifest"]
	if a == nil {
		return nil
	}
	dec, ok := unwrap(a.Expr).(*hclsyntax.FunctionCallExpr)
	if !ok || len(dec.Args) != 1 || !(dec.Name == "yamldecode" || dec.Name == "provider::kubernetes::manifest_decode") {
		return nil
	}
	file, ok := unwrap(dec.Args[0]).(*hclsyntax.FunctionCallExpr)
	if !ok || file.Name != "file" || len(file.Args) != 1 {
		return nil
	}
	p := scope{in: in}.with(instKey{key: ri.key, value: ri.each}).eval(file.Args[0])
	if !p.IsKnown() || p.IsNull() || p.Type() != cty.String {
		return nil
	}
	data, name, err := in.run.readFile(p.AsString())
	if err != nil {
		return nil
	}
	rs, diags := manifest.Parse(name, data, manifest.Options{Format: graph.FormatTerraform})
	if len(diags) > 0 {
		return nil
	}
	return rs
}

// headerRange is the first line of a block: its type and labels, where findings
// about what the block leaves out are reported.
func headerRange(blk *hcl.Block, sf *srcFile) graph.Range {
	if _, ok := blk.Body.(*hclsyntax.Body); ok {
		return convRange(sf, blk.DefRange)
	}
	if len(blk.LabelRanges) > 0 {
		return convRange(sf, blk.LabelRanges[len(blk.LabelRanges)-1])
	}
	return convRange(sf, blk.DefRange)
}

// readFile reads a file for file(), templatefile() and manifests: relative paths are
// relative to the root module (Terraform's working directory), and nothing outside
// the linted directory is read, whatever the path or its symlinks say.
func (r *run) readFile(p string) ([]byte, string, error) {
	path := filepath.FromSlash(p)
	if !filepath.IsAbs(path) {
		path = filepath.Join(r.dir.Path, path)
	}
	resolved, ok := inside(r.dir.Root, path)
	if !ok || inHome(p) {
		return nil, "", errOutside(p)
	}
	name := r.ld.display(path)
	r.ld.mu.Lock()
	if r.ld.files == nil {
		r.ld.files = map[string][]byte{}
	}
	data, cached := r.ld.files[resolved]
	r.ld.mu.Unlock()
	if !cached {
		var err error
		data, err = readLimited(resolved, r.ld.opts.MaxFileSize)
		if err != nil {
			return nil, "", errRead(p, err)
		}
		r.ld.mu.Lock()
		r.ld.files[resolved] = data
		r.ld.mu.Unlock()
	}
	r.reads = append(r.reads, fileData{name: name, data: data, consumed: true})
	return data, name, nil
}
