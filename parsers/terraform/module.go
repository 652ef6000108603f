package terraform

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/ext/typeexpr"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
)

// srcFile is one parsed file of a module.
type srcFile struct {
	name  string // displayed name, also the HCL filename of every range in it
	file  *hcl.File
	lines *lines
	// jsonIdx maps the start offset of each value of a .tf.json file to its node, so
	// JSON expressions get ranges for their parts; jsonEnd maps the end offset of each
	// object, to find a body's object.
	jsonIdx, jsonEnd map[int]*graph.Node
}

// module is one directory of .tf, .tf.json, .tofu and .tofu.json files, read together
// as Terraform and OpenTofu do.
type module struct {
	dir, root string // OS paths: the directory, and where its reads must stay
	files     map[string]*srcFile
	vars      map[string]*varDecl
	locals    map[string]*hcl.Attribute
	resources []*resDecl
	byAddr    map[string]*resDecl // "type.name" → the first block declaring it
	calls     []*callDecl
	callByKey map[string]*callDecl
	outputs   map[string]*hcl.Attribute
	// funcs are the names of functions called in native-syntax files.
	funcs map[string]hcl.Range
	// fileArgs are the path arguments of every file() and templatefile() call in
	// native-syntax files, evaluated or not (see inputs).
	fileArgs []hcl.Expression
	diags    []graph.Diagnostic
	// sources are the module's files as read, in lexical order.
	sources []fileData
	info    *modInfo
	infoOne sync.Once
}

// modInfo is what stays of a module once its syntax trees are released: its problems,
// its files and the sources of its module calls.
type modInfo struct {
	diags   []graph.Diagnostic
	sources []fileData
	calls   []string
	// inputs are the files the module's file() and templatefile() calls name, as far
	// as their paths are known without evaluating the module (absolute paths, inside
	// the module's root): they are the configuration's, not plain manifests, even
	// where pvlint evaluates no call (another provider's resource).
	inputs []string
}

// summary is the module's modInfo. The module must be fully read.
func (m *module) summary() *modInfo {
	m.infoOne.Do(func() {
		inputs := m.inputs()
		m.info = &modInfo{diags: m.diags, sources: m.sources, inputs: inputs}
		for _, c := range m.calls {
			m.info.calls = append(m.info.calls, c.source)
		}
	})
	return m.info
}

// varDecl is a variable block.
type varDecl struct {
	name     string
	def      hcl.Expression // nil when there is no default
	typ      cty.Type
	defaults *typeexpr.Defaults
	// notNull is nullable = false: a null value given to the variable means its
	// default.
	notNull bool
	rng     hcl.Range
}

// resDecl is a managed resource block.
type resDecl struct {
	typ, name string
	block     *hcl.Block
	body      hcl.Body // the body without meta-arguments
	count     hcl.Expression
	forEach   hcl.Expression
	dependsOn hcl.Expression
	file      *srcFile
}

// callDecl is a module block.
type callDecl struct {
	name    string
	source  string
	block   *hcl.Block
	srcRng  hcl.Range
	count   hcl.Expression
	forEach hcl.Expression
	// dependsOn is the call's depends_on: every resource of the module waits for them.
	dependsOn hcl.Expression
	inputs    hcl.Attributes
}

var rootSchema = &hcl.BodySchema{Blocks: []hcl.BlockHeaderSchema{
	{Type: "terraform"}, {Type: "provider", LabelNames: []string{"name"}},
	{Type: "variable", LabelNames: []string{"name"}}, {Type: "locals"},
	{Type: "output", LabelNames: []string{"name"}}, {Type: "module", LabelNames: []string{"name"}},
	{Type: "resource", LabelNames: []string{"type", "name"}},
	{Type: "data", LabelNames: []string{"type", "name"}},
}}

var varSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "default"}, {Name: "type"}, {Name: "description"}, {Name: "sensitive"},
	{Name: "nullable"}, {Name: "ephemeral"},
}}

// metaSchema holds a resource's meta-arguments: they configure Terraform, not the
// object.
var metaSchema = &hcl.BodySchema{
	Attributes: []hcl.AttributeSchema{{Name: "count"}, {Name: "for_each"}, {Name: "provider"}, {Name: "depends_on"}},
	Blocks:     []hcl.BlockHeaderSchema{{Type: "lifecycle"}, {Type: "provisioner", LabelNames: []string{"type"}}, {Type: "connection"}},
}

var callSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "source", Required: true}, {Name: "version"}, {Name: "count"}, {Name: "for_each"},
	{Name: "providers"}, {Name: "depends_on"},
}}

// callOverrideSchema is callSchema for the module blocks of override files, which
// need not repeat the source.
var callOverrideSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "source"}, {Name: "version"}, {Name: "count"}, {Name: "for_each"},
	{Name: "providers"}, {Name: "depends_on"},
}}

var outputSchema = &hcl.BodySchema{Attributes: []hcl.AttributeSchema{
	{Name: "value"}, {Name: "description"}, {Name: "sensitive"}, {Name: "depends_on"}, {Name: "ephemeral"},
}}

// parseModule reads every .tf, .tf.json, .tofu and .tofu.json file of dir in lexical
// order, as Terraform and OpenTofu do (a .tf file OpenTofu ignores for the .tofu file of
// the same name is not read), then merges the override files (override.tf,
// *_override.tf, override.tofu, ...) into the blocks they override. A file that does not parse is a diagnostic and the others are
// still read.
func parseModule(ld *loader, dir, root string) *module {
	m := newModule(dir, root)
	entries, err := os.ReadDir(dir)
	if err != nil {
		m.diagAt(ld.display(dir), "cannot read module directory: %v", unwrapPath(err))
		return m
	}
	present := map[string]bool{}
	for _, e := range entries {
		if !e.IsDir() && IsConfigFile(e.Name()) {
			present[e.Name()] = true
		}
	}
	var names, overrides []string
	for _, e := range entries {
		n := e.Name()
		if !present[n] || tofuShadowed(n, present) {
			continue
		}
		base := strings.TrimSuffix(n, ConfigExt(n))
		if base == "override" || strings.HasSuffix(base, "_override") {
			overrides = append(overrides, n)
			continue
		}
		names = append(names, n)
	}
	sort.Strings(names)
	sort.Strings(overrides)
	primary := len(names)
	names = append(names, overrides...)
	// Files are read and parsed in parallel; their declarations join the module in
	// lexical order, so the result does not depend on scheduling.
	type parsed struct {
		name  string
		data  []byte
		sf    *srcFile
		diags hcl.Diagnostics
		err   string
	}
	out := make([]parsed, len(names))
	parallel(len(names), func(i int) {
		path := filepath.Join(dir, names[i])
		p := parsed{name: ld.display(path)}
		if _, ok := inside(root, path); !ok {
			p.err = "symlink points outside the linted directory; not read"
		} else if data, err := readLimited(path, ld.opts.MaxFileSize); err != nil {
			p.err = fmt.Sprintf("cannot read: %v", unwrapPath(err))
		} else {
			p.data = data
			p.sf, p.diags = parseFile(p.name, data)
		}
		out[i] = p
	})
	for i, p := range out {
		if p.err != "" {
			m.diagAt(p.name, "%s", p.err)
			continue
		}
		m.sources = append(m.sources, fileData{name: p.name, data: p.data})
		if i < primary {
			m.addParsed(p.sf, p.diags)
		} else {
			m.addOverride(p.sf, p.diags)
		}
	}
	return m
}

// parallel runs f(0..n-1) on as many goroutines as there are processors. A panic in
// f is raised again in the caller once every call has returned, where the loader's
// recovery reports it: a panic left in a worker goroutine would end the process.
func parallel(n int, f func(int)) {
	workers := min(runtime.GOMAXPROCS(0), n)
	if workers <= 1 {
		for i := range n {
			f(i)
		}
		return
	}
	next := make(chan int)
	var wg sync.WaitGroup
	var once sync.Once
	var caught any
	for range workers {
		wg.Go(func() {
			for i := range next {
				func() {
					defer func() {
						if p := recover(); p != nil {
							once.Do(func() { caught = fmt.Sprintf("%v\n%s", p, debug.Stack()) })
						}
					}()
					f(i)
				}()
			}
		})
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if caught != nil {
		panic(caught)
	}
}

func newModule(dir, root string) *module {
	return &module{dir: dir, root: root, files: map[string]*srcFile{}, vars: map[string]*varDecl{},
		locals: map[string]*hcl.Attribute{}, byAddr: map[string]*resDecl{}, callByKey: map[string]*callDecl{},
		outputs: map[string]*hcl.Attribute{}, funcs: map[string]hcl.Range{}}
}

// parseFile parses one file's content (HCL native syntax, or JSON for .json).
func parseFile(name string, data []byte) (*srcFile, hcl.Diagnostics) {
	sf := &srcFile{name: name, lines: newLines(name, data)}
	if diags := nestingDiags(name, data, syntaxOf(name)); diags != nil {
		return sf, diags
	}
	var diags hcl.Diagnostics
	if strings.HasSuffix(name, ".json") {
		sf.file, diags = hcljson.Parse(data, name)
		if tree, err := decodeJSON(sf.lines); err == nil {
			sf.jsonIdx, sf.jsonEnd = index(tree)
		}
	} else {
		sf.file, diags = hclsyntax.ParseConfig(data, name, hcl.InitialPos)
		if sf.file != nil {
			if b, ok := sf.file.Body.(*hclsyntax.Body); ok {
				boundExprs(b)
			}
		}
	}
	return sf, diags
}

// addFile parses one file's content and collects its declarations.
func (m *module) addFile(name string, data []byte) {
	m.addParsed(parseFile(name, data))
}

// addParsed collects the declarations of a parsed file.
func (m *module) addParsed(sf *srcFile, diags hcl.Diagnostics) {
	m.hclDiags(sf, diags)
	m.files[sf.name] = sf
	f := sf.file
	if f == nil || f.Body == nil || diags.HasErrors() {
		// Terraform rejects a file that does not parse; what HCL recovered from it
		// is not linted (its errors are), and the module's other files still are.
		sf.file = nil
		return
	}
	if sb, ok := f.Body.(*hclsyntax.Body); ok {
		m.scanCalls(sb, false)
	}
	content, _, diags := f.Body.PartialContent(rootSchema)
	m.hclDiags(sf, diags)
	for _, b := range content.Blocks {
		switch b.Type {
		case "variable":
			m.addVariable(sf, b)
		case "locals":
			attrs, diags := b.Body.JustAttributes()
			m.hclDiags(sf, diags)
			maps.Copy(m.locals, attrs)
		case "output":
			c, _, diags := b.Body.PartialContent(outputSchema)
			m.hclDiags(sf, diags)
			if a := c.Attributes["value"]; a != nil {
				m.outputs[b.Labels[0]] = a
			}
		case "module":
			m.addCall(sf, b)
		case "resource":
			c, rest, diags := b.Body.PartialContent(metaSchema)
			m.hclDiags(sf, diags)
			d := &resDecl{typ: b.Labels[0], name: b.Labels[1], block: b, body: rest, file: sf}
			if a := c.Attributes["count"]; a != nil {
				d.count = a.Expr
			}
			if a := c.Attributes["for_each"]; a != nil {
				d.forEach = a.Expr
			}
			if a := c.Attributes["depends_on"]; a != nil {
				d.dependsOn = a.Expr
			}
			// A duplicate is an error Terraform reports; both blocks are still linted,
			// and references resolve to the first.
			addr := d.typ + "." + d.name
			if first, dup := m.byAddr[addr]; dup {
				m.diag(sf, b.DefRange, "duplicate resource %s: the block at %s already declares it (Terraform refuses the module); references use the first",
					addr, convRange(first.file, first.block.DefRange))
			} else {
				m.byAddr[addr] = d
			}
			m.resources = append(m.resources, d)
		}
	}
}

func (m *module) addVariable(sf *srcFile, b *hcl.Block) {
	c, _, diags := b.Body.PartialContent(varSchema)
	m.hclDiags(sf, diags)
	v := &varDecl{name: b.Labels[0], typ: cty.DynamicPseudoType, rng: b.DefRange}
	m.setVariable(sf, v, c)
	m.vars[v.name] = v
}

// setVariable reads the attributes a variable block sets.
func (m *module) setVariable(sf *srcFile, v *varDecl, c *hcl.BodyContent) {
	if a := c.Attributes["type"]; a != nil {
		ty, defs, diags := variableType(a.Expr)
		m.hclDiags(sf, diags)
		if !diags.HasErrors() {
			v.typ, v.defaults = ty, defs
		}
	}
	if a := c.Attributes["default"]; a != nil {
		v.def = a.Expr
	}
	if a := c.Attributes["nullable"]; a != nil {
		if nv, d := a.Expr.Value(nil); !d.HasErrors() && nv.Type() == cty.Bool && nv.IsKnown() && !nv.IsNull() {
			v.notNull = nv.False()
		}
	}
}

func (m *module) addCall(sf *srcFile, b *hcl.Block) {
	c, rest, diags := b.Body.PartialContent(callSchema)
	m.hclDiags(sf, diags)
	call := &callDecl{name: b.Labels[0], block: b}
	if a := c.Attributes["source"]; a != nil {
		v, d := a.Expr.Value(nil)
		if d.HasErrors() || !v.Type().Equals(cty.String) || v.IsNull() || !v.IsKnown() {
			m.diag(sf, a.Expr.Range(), "module source must be a literal string")
		} else {
			call.source = v.AsString()
		}
		call.srcRng = a.Expr.Range()
	}
	if a := c.Attributes["count"]; a != nil {
		call.count = a.Expr
	}
	if a := c.Attributes["for_each"]; a != nil {
		call.forEach = a.Expr
	}
	if a := c.Attributes["depends_on"]; a != nil {
		call.dependsOn = a.Expr
	}
	call.inputs, diags = rest.JustAttributes()
	m.hclDiags(sf, diags)
	if _, dup := m.callByKey[call.name]; dup {
		m.diag(sf, b.DefRange, "duplicate module call %q; the first one is used", call.name)
		return
	}
	m.callByKey[call.name] = call
	m.calls = append(m.calls, call)
}

// variableType reads a variable's type constraint as Terraform does. Besides type
// expressions (with optional attributes and their defaults), Terraform keeps two
// shorthands from before 0.12: a bare list or map keyword means list(any) or
// map(any). The quoted forms of 0.11 ("string", "list", "map") are errors in
// Terraform, and stay errors here; in JSON files every type is a string, so there
// "map" is the shorthand.
func variableType(expr hcl.Expression) (cty.Type, *typeexpr.Defaults, hcl.Diagnostics) {
	if t, ok := expr.(*hclsyntax.TemplateExpr); ok && t.IsStringLiteral() {
		v, _ := t.Value(nil)
		var detail string
		switch s := v.AsString(); s {
		case "string", "number", "bool":
			detail = fmt.Sprintf("Remove the quotes around %q.", s)
		case "list", "map", "set":
			detail = fmt.Sprintf("Remove the quotes around %q and write %s(string) or %s(any).", s, s, s)
		default:
			detail = "Remove the quotes and give the type expression directly."
		}
		return cty.DynamicPseudoType, nil, hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Invalid quoted type constraints",
			Detail:   "Terraform 0.11 and earlier required type constraints to be given in quotes; Terraform now refuses them. " + detail,
			Subject:  expr.Range().Ptr(),
		}}
	}
	switch hcl.ExprAsKeyword(expr) {
	case "list":
		return cty.List(cty.DynamicPseudoType), nil, nil
	case "map":
		return cty.Map(cty.DynamicPseudoType), nil, nil
	}
	return typeexpr.TypeConstraintWithDefaults(expr)
}

// scanCalls records the functions a native-syntax body calls, so unknown ones are
// reported even in blocks pvlint never evaluates. A variable's type is a type
// expression, not calls: list(string) names no function.
func (m *module) scanCalls(b *hclsyntax.Body, variable bool) {
	for name, a := range b.Attributes {
		if variable && name == "type" {
			continue
		}
		// convert's second argument is a type expression: list(string) in it names
		// no function. VisitAll visits a call before its arguments, so the range of
		// that argument is known before anything inside it is visited.
		var types []hcl.Range
		hclsyntax.VisitAll(a.Expr, func(n hclsyntax.Node) hcl.Diagnostics {
			call, ok := n.(*hclsyntax.FunctionCallExpr)
			if !ok || within(call.NameRange, types) {
				return nil
			}
			if (call.Name == "convert" || call.Name == "core::convert") && len(call.Args) == 2 {
				types = append(types, call.Args[1].Range())
			}
			if (call.Name == "file" || call.Name == "templatefile") && len(call.Args) > 0 && len(m.fileArgs) < maxFileArgs {
				m.fileArgs = append(m.fileArgs, call.Args[0])
			}
			if prev, seen := m.funcs[call.Name]; !seen || call.NameRange.Filename == prev.Filename && call.NameRange.Start.Byte < prev.Start.Byte {
				m.funcs[call.Name] = call.NameRange
			}
			return nil
		})
	}
	for _, blk := range b.Blocks {
		m.scanCalls(blk.Body, blk.Type == "variable")
	}
}

// maxFileArgs bounds the file() and templatefile() paths one module records.
const maxFileArgs = 10_000

// inputs evaluates the path arguments of the module's file() and templatefile()
// calls that need nothing but literals and path.module (or path.root and path.cwd,
// taken as the module's own directory, as for a root module): the usual
// "${path.module}/manifests/app.yaml". Paths that stay unknown are left out.
func (m *module) inputs() []string {
	if len(m.fileArgs) == 0 {
		return nil
	}
	dir := cleanAbs(m.dir)
	ctx := &hcl.EvalContext{Variables: map[string]cty.Value{"path": cty.ObjectVal(map[string]cty.Value{
		"module": cty.StringVal(filepath.ToSlash(dir)), "root": cty.StringVal(filepath.ToSlash(dir)), "cwd": cty.StringVal(filepath.ToSlash(dir)),
	})}}
	var out []string
	seen := map[string]bool{}
	for _, e := range m.fileArgs {
		ok := true
		for _, t := range e.Variables() {
			if t.RootName() != "path" {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		v, diags := e.Value(ctx)
		if diags.HasErrors() || !v.IsKnown() || v.IsNull() || v.Type() != cty.String {
			continue
		}
		p := filepath.FromSlash(v.AsString())
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if seen[p] {
			continue
		}
		seen[p] = true
		if _, in := inside(m.root, p); in {
			out = append(out, p)
			continue
		}
		// Never silent: file() returns an unknown value for it, and a note says why.
		r := e.Range()
		m.diags = append(m.diags, graph.Diagnostic{Range: convRange(m.files[r.Filename], r), Note: true, Message: fmt.Sprintf(
			"%q leads outside the linted root: pvlint does not read it, and what the configuration reads from it is unknown", relPath(dir, p))})
	}
	return out
}

// relPath is p relative to dir when it can be written so, with forward slashes.
func relPath(dir, p string) string {
	if rel, err := filepath.Rel(dir, p); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(p)
}

// within reports whether r lies inside one of the ranges (of the same file).
func within(r hcl.Range, in []hcl.Range) bool {
	for _, o := range in {
		if r.Filename == o.Filename && r.Start.Byte >= o.Start.Byte && r.End.Byte <= o.End.Byte {
			return true
		}
	}
	return false
}
