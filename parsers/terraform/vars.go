package terraform

import (
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	hcljson "github.com/hashicorp/hcl/v2/json"
	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/convert"
)

// assigned is a variable value with where it was set, for conversion errors.
type assigned struct {
	val cty.Value
	at  graph.Range
}

// rootVars decides the root module's variables with Terraform's precedence: the
// default, then terraform.tfvars, terraform.tfvars.json, *.auto.tfvars(.json) in
// lexical order, then --var and --var-file in command-line order. Environment
// variables (TF_VAR_*) are not read: a lint must not depend on the shell it runs in.
// A variable with no value is unknown.
func (r *run) rootVars(m *module) map[string]cty.Value {
	set := map[string]assigned{}
	var files []string
	for _, n := range []string{"terraform.tfvars", "terraform.tfvars.json"} {
		if p := filepath.Join(m.dir, n); isFile(p) {
			files = append(files, p)
		}
	}
	if entries, err := os.ReadDir(m.dir); err == nil {
		var auto []string
		for _, e := range entries {
			if n := e.Name(); !e.IsDir() && (strings.HasSuffix(n, ".auto.tfvars") || strings.HasSuffix(n, ".auto.tfvars.json")) {
				auto = append(auto, filepath.Join(m.dir, n))
			}
		}
		sort.Strings(auto)
		files = append(files, auto...)
	}
	for _, f := range files {
		r.varFile(f, m, set, true)
	}
	for _, v := range r.ld.opts.Vars {
		if v.File != "" {
			r.varFile(v.File, m, set, false)
			continue
		}
		decl := m.vars[v.Name]
		if decl == nil {
			continue
		}
		at := graph.Range{File: "--var " + v.Name, Start: graph.Pos{Line: 1, Column: 1}}
		if isPrimitive(decl.typ) {
			set[v.Name] = assigned{cty.StringVal(v.Value), at}
			continue
		}
		expr, diags := hclsyntax.ParseExpression([]byte(v.Value), "--var "+v.Name, hcl.InitialPos)
		if diags.HasErrors() {
			r.diag(at, "invalid value for variable %q: %s", v.Name, diags.Error())
			continue
		}
		val, diags := expr.Value(nil)
		if diags.HasErrors() {
			r.diag(at, "invalid value for variable %q: %s", v.Name, diags.Error())
			continue
		}
		set[v.Name] = assigned{val, at}
	}
	out := make(map[string]cty.Value, len(m.vars))
	root := newInstance(r, m, "", nil, 0)
	for name, decl := range m.vars {
		if a, ok := set[name]; ok {
			out[name] = root.given(decl, a.val, a.at)
		} else {
			out[name] = root.defaultVar(decl).Mark(defaultMark{})
		}
	}
	return out
}

// varFile reads a .tfvars (HCL) or .tfvars.json file. Values in it are constants:
// it may not refer to anything.
func (r *run) varFile(path string, m *module, set map[string]assigned, inModule bool) {
	name := r.ld.display(path)
	if inModule {
		if _, ok := inside(r.dir.Root, path); !ok {
			r.diag(graph.Range{File: name, Start: graph.Pos{Line: 1, Column: 1}}, "symlink points outside the linted directory; not read")
			return
		}
	}
	data, err := readLimited(path, r.ld.opts.MaxFileSize)
	if err != nil {
		r.diag(graph.Range{File: name, Start: graph.Pos{Line: 1, Column: 1}}, "cannot read variables file: %v", unwrapPath(err))
		return
	}
	r.reads = append(r.reads, fileData{name: name, data: data})
	sf := &srcFile{name: name, lines: newLines(name, data)}
	var f *hcl.File
	var diags hcl.Diagnostics
	if diags = nestingDiags(name, data, syntaxOf(path)); diags != nil {
		r.hclDiags(sf, diags)
		return
	}
	if strings.HasSuffix(path, ".json") {
		f, diags = hcljson.Parse(data, name)
	} else {
		f, diags = hclsyntax.ParseConfig(data, name, hcl.InitialPos)
	}
	r.hclDiags(sf, diags)
	if f == nil || f.Body == nil {
		return
	}
	attrs, diags := f.Body.JustAttributes()
	r.hclDiags(sf, diags)
	for n, a := range attrs {
		if m.vars[n] == nil {
			continue
		}
		v, diags := a.Expr.Value(nil)
		r.hclDiags(sf, diags)
		if diags.HasErrors() {
			continue
		}
		set[n] = assigned{v, convRange(sf, a.Expr.Range())}
	}
}

func (r *run) hclDiags(sf *srcFile, diags hcl.Diagnostics) {
	for _, d := range diags {
		if d.Severity == hcl.DiagError {
			r.diags = append(r.diags, toDiag(sf, d))
		}
	}
}

// childVars evaluates a module call's inputs in the caller's scope.
func (s scope) childVars(c *callDecl, m *module) map[string]cty.Value {
	out := make(map[string]cty.Value, len(m.vars))
	given := make(map[string]assigned, len(c.inputs))
	for name, a := range c.inputs {
		decl := m.vars[name]
		if decl == nil {
			s.in.run.diag(s.in.rangeOf(a.NameRange), "module %q has no variable %q", c.name, name)
			continue
		}
		given[name] = assigned{s.evalMarked(a.Expr), s.in.rangeOf(a.Expr.Range())}
	}
	kid := newInstance(s.in.run, m, "", nil, 0)
	for name, decl := range m.vars {
		if a, ok := given[name]; ok {
			out[name] = kid.given(decl, a.val, a.at)
		} else {
			out[name] = kid.defaultVar(decl)
		}
	}
	return out
}

// given is the value of a variable set to v (by a module call's input or a
// variables file): converted to its type, or its default when v is null and the
// variable is not nullable, as Terraform does.
func (in *instance) given(decl *varDecl, v cty.Value, at graph.Range) cty.Value {
	if decl.notNull && v.IsNull() {
		if decl.def != nil {
			return in.defaultVar(decl)
		}
		in.run.diag(at, "invalid value for variable %q: the variable is not nullable and has no default, so it cannot be null", decl.name)
		return cty.UnknownVal(decl.typ)
	}
	return in.run.convertVar(decl, v, at)
}

// defaultVar is a variable's default, or unknown without one.
func (in *instance) defaultVar(decl *varDecl) cty.Value {
	if decl.def == nil {
		return cty.UnknownVal(decl.typ)
	}
	v, diags := decl.def.Value(nil)
	in.run.hclDiags(in.mod.files[decl.def.Range().Filename], diags)
	if diags.HasErrors() {
		return cty.UnknownVal(decl.typ)
	}
	return in.run.convertVar(decl, v, in.rangeOf(decl.def.Range()))
}

// convertVar applies a variable's type constraint (with optional attribute defaults)
// as Terraform does; a value of the wrong type is a diagnostic and unknown.
//
// Marks (which say that a value comes from a resource's attributes) are kept, on
// the whole value.
func (r *run) convertVar(decl *varDecl, v cty.Value, at graph.Range) cty.Value {
	v, marks := v.UnmarkDeep()
	if decl.defaults != nil {
		v = decl.defaults.Apply(v)
	}
	out, err := convert.Convert(v, decl.typ)
	if err != nil {
		r.diag(at, "invalid value for variable %q: %v", decl.name, err)
		return cty.UnknownVal(decl.typ)
	}
	return out.WithMarks(marks)
}

func isPrimitive(t cty.Type) bool { return t.IsPrimitiveType() }

func isFile(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.Mode().IsRegular()
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}
