package gitops

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"text/template"
	"text/template/parse"
)

// expander renders an ApplicationSet's template strings with one Application's
// parameters, under a byte budget shared by all the Applications of the set.
type expander struct {
	goTpl   bool
	options []string // goTemplateOptions pvlint knows (missingkey=...)
	budget  int
	cache   map[string]*template.Template
}

// text renders one string: Argo CD's default {{name}} replacement (an unknown name
// is left as written), or a Go template (spec.goTemplate) restricted to what is
// bounded (below).
func (ex *expander) text(s string, p params) (string, error) {
	if !strings.Contains(s, "{{") {
		return s, nil
	}
	if !ex.goTpl {
		return replaceFlat(s, p.flat)
	}
	t, err := ex.parse(s)
	if err != nil {
		return "", err
	}
	w := &limitWriter{left: maxScalar}
	if err := t.Execute(w, p.tree); err != nil {
		if w.left < 0 {
			return "", fmt.Errorf("a templated value is longer than %d bytes", maxScalar)
		}
		return "", fmt.Errorf("template %q: %v", clip(s), unwrapExec(err))
	}
	return w.b.String(), nil
}

// replaceFlat is Argo CD's default template: {{ name }} is the parameter, an unknown
// name stays as written.
func replaceFlat(s string, flat map[string]string) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(s, "{{")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+2:], "}}")
		if j < 0 {
			break
		}
		tag := s[i+2 : i+2+j]
		b.WriteString(s[:i])
		if v, ok := flat[strings.TrimSpace(tag)]; ok && strings.TrimSpace(tag) != "" {
			b.WriteString(v)
		} else {
			b.WriteString("{{" + tag + "}}")
		}
		s = s[i+2+j+2:]
		if b.Len() > maxScalar {
			return "", fmt.Errorf("a templated value is longer than %d bytes", maxScalar)
		}
	}
	b.WriteString(s)
	if b.Len() > maxScalar {
		return "", fmt.Errorf("a templated value is longer than %d bytes", maxScalar)
	}
	return b.String(), nil
}

// templateFuncs are the functions a goTemplate string may call besides text/template's
// comparisons, index, len, not, and, or: the Sprig functions ApplicationSets use on
// names and paths, each bounded in what it returns. Others (printf, which can pad a
// value to a gigabyte, and the rest of Sprig) make the Application a note.
var templateFuncs = template.FuncMap{
	"lower":      strings.ToLower,
	"upper":      strings.ToUpper,
	"trim":       strings.TrimSpace,
	"trimPrefix": func(prefix, s string) string { return strings.TrimPrefix(s, prefix) },
	"trimSuffix": func(suffix, s string) string { return strings.TrimSuffix(s, suffix) },
	"replace": func(old, repl, s string) (string, error) {
		if old == "" || len(s)+strings.Count(s, old)*max(0, len(repl)-len(old)) > maxScalar {
			return "", fmt.Errorf("replace makes a value longer than %d bytes", maxScalar)
		}
		return strings.ReplaceAll(s, old, repl), nil
	},
	"default": func(def any, v ...any) any {
		if len(v) == 0 || v[0] == nil || v[0] == "" {
			return def
		}
		return v[0]
	},
	"quote": func(v any) string { return strconv.Quote(fmt.Sprint(v)) },
}

// allowedIdents are the functions a template may name.
var allowedIdents = map[string]bool{"index": true, "len": true, "not": true, "and": true, "or": true, "eq": true, "ne": true, "lt": true, "le": true, "gt": true, "ge": true}

func init() {
	for k := range templateFuncs {
		allowedIdents[k] = true
	}
}

// parse parses a goTemplate string, refusing what could run without bound: define,
// template and block (recursion, or definitions that call each other twice over),
// range, and functions outside the allowed set.
func (ex *expander) parse(s string) (*template.Template, error) {
	if t, ok := ex.cache[s]; ok {
		return t, nil
	}
	t, err := template.New("").Funcs(templateFuncs).Option(ex.options...).Parse(s)
	if err != nil {
		return nil, fmt.Errorf("template %q: %v", clip(s), err)
	}
	if len(t.Templates()) > 1 {
		return nil, fmt.Errorf("template %q defines templates, which pvlint does not run", clip(s))
	}
	if err := checkTree(t.Tree.Root); err != nil {
		return nil, fmt.Errorf("template %q: %v, which pvlint does not run", clip(s), err)
	}
	if ex.cache == nil {
		ex.cache = map[string]*template.Template{}
	}
	ex.cache[s] = t
	return t, nil
}

func checkTree(n parse.Node) error {
	switch n := n.(type) {
	case nil:
		return nil
	case *parse.ListNode:
		if n == nil {
			return nil
		}
		for _, c := range n.Nodes {
			if err := checkTree(c); err != nil {
				return err
			}
		}
	case *parse.ActionNode:
		return checkTree(n.Pipe)
	case *parse.PipeNode:
		if n == nil {
			return nil
		}
		for _, c := range n.Cmds {
			if err := checkTree(c); err != nil {
				return err
			}
		}
	case *parse.CommandNode:
		for _, a := range n.Args {
			if err := checkTree(a); err != nil {
				return err
			}
		}
	case *parse.IdentifierNode:
		if !allowedIdents[n.Ident] {
			return fmt.Errorf("it calls %s", n.Ident)
		}
	case *parse.IfNode:
		return checkBranch(&n.BranchNode)
	case *parse.WithNode:
		return checkBranch(&n.BranchNode)
	case *parse.ChainNode:
		return checkTree(n.Node)
	case *parse.RangeNode:
		return errors.New("it ranges")
	case *parse.TemplateNode:
		return errors.New("it calls a template")
	case *parse.TextNode, *parse.FieldNode, *parse.VariableNode, *parse.DotNode, *parse.StringNode,
		*parse.NumberNode, *parse.BoolNode, *parse.NilNode, *parse.CommentNode:
	default:
		return fmt.Errorf("it uses %s", n.String())
	}
	return nil
}

func checkBranch(b *parse.BranchNode) error {
	for _, c := range []parse.Node{b.Pipe, b.List, b.ElseList} {
		if l, ok := c.(*parse.ListNode); ok && l == nil {
			continue
		}
		if p, ok := c.(*parse.PipeNode); ok && p == nil {
			continue
		}
		if err := checkTree(c); err != nil {
			return err
		}
	}
	return nil
}

// limitWriter keeps what a template writes up to left bytes, then fails the write.
type limitWriter struct {
	b    strings.Builder
	left int
}

func (w *limitWriter) Write(p []byte) (int, error) {
	w.left -= len(p)
	if w.left < 0 {
		return 0, errors.New("too long")
	}
	return w.b.Write(p)
}

// unwrapExec drops text/template's "template: :1:2: executing ..." prefix.
func unwrapExec(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ">: "); i >= 0 && strings.HasPrefix(msg, "template:") {
		return msg[i+3:]
	}
	return msg
}

// clip shortens a template for a message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
