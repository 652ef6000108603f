package gitops

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Bounds of ApplicationSet expansion: what one ApplicationSet may generate is read
// from the repository under review, so a list of 100,000 elements or a template that
// multiplies its text is refused (PVL000 at the generator) instead of being expanded.
const (
	// MaxGenerated bounds the Applications one generator makes.
	MaxGenerated = 1000
	// maxGeneratedBytes bounds the text of all the Applications one ApplicationSet
	// makes (every templated scalar counted).
	maxGeneratedBytes = 8 << 20
	// maxScalar bounds one templated scalar.
	maxScalar = 64 << 10
	// maxDirs bounds the directories the git directory generator lists.
	maxDirs = 100000
)

// params are one generated Application's parameters: flat names for Argo CD's
// default templates ({{path.basename}}), a tree for goTemplate ({{.path.basename}}).
type params struct {
	flat map[string]string
	tree map[string]any
}

// applicationSet expands an Argo CD ApplicationSet's list and git directory
// generators over this repository, each generated Application read as an Application
// (rendered, or noted on the ApplicationSet); any other generator is one note, never
// guessed.
func (f *finder) applicationSet(r *graph.Resource) {
	spec := r.Get("spec")
	gens := spec.Get("generators").List()
	if len(gens) == 0 {
		f.unrendered(r, r.Locate("spec"), "it has no generators")
		return
	}
	tmpl := spec.Get("template")
	goTpl, _ := spec.Get("goTemplate").Bool()
	ex := &expander{goTpl: goTpl, budget: maxGeneratedBytes}
	for _, o := range spec.Get("goTemplateOptions").Strings() {
		switch o {
		case "missingkey=default", "missingkey=invalid", "missingkey=zero", "missingkey=error":
			ex.options = append(ex.options, o)
		}
	}
	names := map[string]bool{}
	for _, g := range gens {
		kind := "unknown"
		if fs := g.Fields(); len(fs) > 0 {
			kind = fs[0].Key
		}
		gen := g.Get(kind)
		skip := func(why string) {
			f.note(r, g.Range, "%s is not rendered: the Applications of its %s generator are not generated: %s", title(r), kind, why)
			f.plan.Unrendered++
		}
		switch {
		case spec.Get("templatePatch").Exists():
			skip("pvlint does not apply templatePatch")
			continue
		case !tmpl.Is(graph.Map):
			skip("it has no template")
			continue
		case gen.Get("template").Exists() || gen.Get("selector").Exists() || g.Get("selector").Exists():
			skip("pvlint does not apply a generator's own template or selector")
			continue
		}
		var ps []params
		var err error
		switch {
		case kind == "list" && gen.Get("elements").Is(graph.List):
			ps, err = f.listParams(gen, goTpl)
		case kind == "list":
			skip("only its elements are read (elementsYaml is not)")
			continue
		case kind == "git" && gen.Get("directories").Is(graph.List):
			url := gen.Get("repoURL").Str()
			if !f.thisRepository(url) {
				skip("its repository " + quoteEmpty(url) + " is not this repository; list its URL under gitops.repositories in .pvlint.yaml if it is")
				continue
			}
			ps, err = f.gitDirParams(gen, ex)
		case kind == "git":
			skip("only the git generator's directories are expanded (not its files)")
			continue
		default:
			skip("pvlint expands only the list and git directory generators; what the " + kind + " generator makes is known only to Argo CD")
			continue
		}
		if err != nil {
			f.refuse(g.Range, "%s: its %s generator is not expanded: %v", title(r), kind, err)
			f.plan.Unrendered++
			continue
		}
		for _, p := range ps {
			app, err := ex.application(r, tmpl, p)
			if err != nil {
				if ex.budget < 0 {
					f.refuse(g.Range, "%s: its %s generator is not expanded further: %v", title(r), kind, err)
					f.plan.Unrendered++
					break
				}
				at := tmpl.Range
				var te *templateError
				if errors.As(err, &te) {
					at, err = te.at, te.err
				}
				f.note(r, at, "%s is not rendered: an Application of its %s generator cannot be generated: %v", title(r), kind, err)
				f.plan.Unrendered++
				continue
			}
			if app.Name == "" || names[app.Name] {
				f.note(r, r.Locate("spec", "template", "metadata", "name"), "%s is not rendered: its %s generator makes the Application name %s twice or empty, which Argo CD refuses", title(r), kind, quoteEmpty(app.Name))
				f.plan.Unrendered++
				continue
			}
			names[app.Name] = true
			f.hosts[app] = r
			f.application(app)
		}
	}
}

// listParams are the parameters of a list generator's elements.
func (f *finder) listParams(gen *graph.Node, goTpl bool) ([]params, error) {
	els := gen.Get("elements").Items()
	if len(els) > MaxGenerated {
		return nil, fmt.Errorf("%d elements, more than the %d Applications one generator may make", len(els), MaxGenerated)
	}
	var out []params
	for _, el := range els {
		p := params{flat: map[string]string{}, tree: map[string]any{}}
		for _, fd := range el.Fields() {
			if goTpl {
				p.tree[fd.Key] = fd.Value.Interface()
				continue
			}
			if fd.Key == "values" && fd.Value.Is(graph.Map) {
				for _, vf := range fd.Value.Fields() {
					p.flat["values."+vf.Key] = scalarText(vf.Value)
				}
				continue
			}
			p.flat[fd.Key] = scalarText(fd.Value)
		}
		out = append(out, p)
	}
	return out, nil
}

// scalarText is a parameter's text: a scalar as written, a collection as JSON (as
// Argo CD passes non-string elements to its default templates).
func scalarText(n *graph.Node) string {
	if n.Is(graph.Map) || n.Is(graph.List) {
		data, err := json.Marshal(n.Interface())
		if err != nil {
			return ""
		}
		return string(data)
	}
	return n.Scalar
}

// gitDirParams lists the directories of this repository the git generator selects:
// every directory (not starting with ".", symbolic links not followed) that a path of
// directories matches (path.Match, "*" within one segment) and no exclude entry
// matches, in lexical order, as Argo CD's repo server does.
func (f *finder) gitDirParams(gen *graph.Node, ex *expander) ([]params, error) {
	type pattern struct {
		glob    string
		exclude bool
	}
	var pats []pattern
	depth := 0
	for _, d := range gen.Get("directories").Items() {
		g := strings.TrimPrefix(path.Clean("/"+d.Get("path").Str()), "/")
		excl, _ := d.Get("exclude").Bool()
		pats = append(pats, pattern{g, excl})
		if !excl {
			depth = max(depth, strings.Count(g, "/")+1)
		}
	}
	var dirs []string
	err := filepath.WalkDir(f.root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		rel, rerr := filepath.Rel(f.root, p)
		if rerr != nil || rel == "." {
			return nil
		}
		if strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		if len(dirs) >= maxDirs {
			return fmt.Errorf("the repository has more than %d directories to match", maxDirs)
		}
		rel = filepath.ToSlash(rel)
		dirs = append(dirs, rel)
		if strings.Count(rel, "/")+1 >= depth {
			return filepath.SkipDir // deeper directories match no pattern
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	var out []params
	for _, dir := range dirs {
		in, excluded := false, false
		for _, p := range pats {
			if ok, _ := path.Match(p.glob, dir); ok {
				if p.exclude {
					excluded = true
				} else {
					in = true
				}
			}
		}
		if !in || excluded {
			continue
		}
		if len(out) >= MaxGenerated {
			return nil, fmt.Errorf("it selects more than %d directories, the Applications one generator may make", MaxGenerated)
		}
		p, err := dirParams(dir, gen, ex)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, nil
}

// dirParams are Argo CD's parameters of one directory: path, path.basename,
// path.basenameNormalized, path[N] (under pathParamPrefix when set), and the
// generator's values rendered with them.
func dirParams(dir string, gen *graph.Node, ex *expander) (params, error) {
	segs := strings.Split(dir, "/")
	base := segs[len(segs)-1]
	prefix := gen.Get("pathParamPrefix").Str()
	name := "path"
	if prefix != "" {
		name = prefix + ".path"
	}
	p := params{flat: map[string]string{name: dir, name + ".basename": base, name + ".basenameNormalized": sanitizeName(base)}, tree: map[string]any{}}
	anySegs := make([]any, len(segs))
	for i, s := range segs {
		p.flat[name+"["+strconv.Itoa(i)+"]"] = s
		anySegs[i] = s
	}
	tree := map[string]any{"path": dir, "basename": base, "basenameNormalized": sanitizeName(base), "segments": anySegs}
	if prefix != "" {
		p.tree[prefix] = map[string]any{"path": tree}
	} else {
		p.tree["path"] = tree
	}
	if vs := gen.Get("values"); vs.Is(graph.Map) {
		values := map[string]any{}
		for _, fd := range vs.Fields() {
			s, err := ex.text(fd.Value.Scalar, p)
			if err != nil {
				return p, err
			}
			p.flat["values."+fd.Key] = s
			values[fd.Key] = s
		}
		p.tree["values"] = values
	}
	return p, nil
}

var invalidDNSChars = regexp.MustCompile(`[^-a-z0-9.]`)

// sanitizeName is Argo CD's basenameNormalized: lower case, every character not
// allowed in a DNS name a "-", at most 253 characters, no leading or trailing "-"/".".
func sanitizeName(s string) string {
	s = invalidDNSChars.ReplaceAllString(strings.ToLower(s), "-")
	if len(s) > 253 {
		s = s[:253]
	}
	return strings.Trim(s, "-.")
}

// application is the Application the template makes with p: every string of the
// template rendered, positions kept (a note on a generated Application is at the
// template line that made the value).
func (ex *expander) application(set *graph.Resource, tmpl *graph.Node, p params) (*graph.Resource, error) {
	obj, err := ex.node(tmpl, p)
	if err != nil {
		return nil, err
	}
	obj.AddFields(graph.Field{Key: "apiVersion", Value: &graph.Node{Kind: graph.String, Scalar: "argoproj.io/v1alpha1"}},
		graph.Field{Key: "kind", Value: &graph.Node{Kind: graph.String, Scalar: "Application"}})
	ns := obj.Get("metadata", "namespace").Str()
	if ns == "" {
		ns = namespaceOf(set)
	}
	return &graph.Resource{APIVersion: "argoproj.io/v1alpha1", Kind: "Application", Name: obj.Get("metadata", "name").Str(), Namespace: ns,
		Origin: set.Origin, Range: set.Range, Object: obj}, nil
}

// templateError is a string of the template that cannot be rendered, at its line.
type templateError struct {
	at  graph.Range
	err error
}

func (e *templateError) Error() string { return e.err.Error() }

// node copies n with its strings rendered.
func (ex *expander) node(n *graph.Node, p params) (*graph.Node, error) {
	if n == nil {
		return nil, nil
	}
	out := &graph.Node{Kind: n.Kind, Range: n.Range, Scalar: n.Scalar}
	if n.Kind == graph.String {
		s, err := ex.text(n.Scalar, p)
		if err != nil {
			return nil, &templateError{n.Range, err}
		}
		out.Scalar = s
	}
	ex.budget -= len(out.Scalar) + 16
	if ex.budget < 0 {
		return nil, fmt.Errorf("the Applications it makes hold more than %d bytes", maxGeneratedBytes)
	}
	for _, fd := range n.Fields() {
		v, err := ex.node(fd.Value, p)
		if err != nil {
			return nil, err
		}
		out.AddFields(graph.Field{Key: fd.Key, KeyRange: fd.KeyRange, Value: v})
	}
	for _, it := range n.Items() {
		v, err := ex.node(it, p)
		if err != nil {
			return nil, err
		}
		out.AddItems(v)
	}
	return out, nil
}
