package terraform

import (
	"encoding/base64"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
	"github.com/zclconf/go-cty/cty"
	"github.com/zclconf/go-cty/cty/function"
)

// outsideError is a read that would leave the linted directory. pvlint never makes
// it, and the value is unknown rather than an error: the module is valid Terraform
// (terraform validate reads the file), pvlint only declines to look. File functions
// return it; evaluation turns it into an unknown value with no finding.
type outsideError struct{ path string }

func (e *outsideError) Error() string {
	if inHome(e.path) {
		return fmt.Sprintf("%q is in the home directory, outside the linted directory; pvlint does not read it", e.path)
	}
	return fmt.Sprintf("%q is outside the linted directory; pvlint does not read it", e.path)
}

// errOutside is the error of a read that would leave the linted directory.
func errOutside(p string) error { return &outsideError{path: p} }

// isOutside reports whether err is a read pvlint declined to make.
func isOutside(err error) bool {
	var o *outsideError
	return errors.As(err, &o)
}

// inHome reports whether Terraform reads a path from the home directory: its file
// functions expand a leading ~ (alone or before a slash) to it.
func inHome(p string) bool {
	return p == "~" || strings.HasPrefix(p, "~/") || strings.HasPrefix(p, "~"+string(filepath.Separator))
}

func errRead(p string, err error) error {
	return fmt.Errorf("cannot read %q: %v", p, unwrapPath(err))
}

// fileFunc is file(path): a UTF-8 file inside the linted directory.
func (r *run) fileFunc() function.Function {
	return stringFunc(func(p string) (string, error) {
		data, _, err := r.readFile(p)
		if err != nil {
			return "", err
		}
		if !utf8.Valid(data) {
			return "", fmt.Errorf("contents of %q are not valid UTF-8; use filebase64", p)
		}
		return string(data), nil
	})
}

func (r *run) fileBase64Func() function.Function {
	return stringFunc(func(p string) (string, error) {
		data, _, err := r.readFile(p)
		if err != nil {
			return "", err
		}
		return base64.StdEncoding.EncodeToString(data), nil
	})
}

// fileHashFunc is filemd5, filesha256 and the others.
func (r *run) fileHashFunc(algo string) function.Function {
	b64 := false
	if len(algo) > 6 && algo[:6] == "base64" {
		algo, b64 = algo[6:], true
	}
	return stringFunc(func(p string) (string, error) {
		data, _, err := r.readFile(p)
		if err != nil {
			return "", err
		}
		return digest(algo, b64, data), nil
	})
}

// fileExistsFunc is fileexists(path). Outside the linted directory it is an error,
// not false: pvlint cannot know.
func (r *run) fileExistsFunc() function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{param("path", cty.String)},
		Type:   function.StaticReturnType(cty.Bool),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			path := filepath.FromSlash(p)
			if !filepath.IsAbs(path) {
				path = filepath.Join(r.dir.Path, path)
			}
			resolved, ok := inside(r.dir.Root, path)
			if !ok || inHome(p) {
				return cty.UnknownVal(cty.Bool), nil // not looked at: unknown
			}
			return cty.BoolVal(isFile(resolved)), nil
		},
	})
}

// absPathFunc is abspath(path), relative to the root module.
func (r *run) absPathFunc() function.Function {
	return stringFunc(func(p string) (string, error) {
		path := filepath.FromSlash(p)
		if !filepath.IsAbs(path) {
			path = filepath.Join(r.dir.Path, path)
		}
		return filepath.ToSlash(cleanAbs(path)), nil
	})
}

// templateFileFunc is templatefile(path, vars): the file rendered as a template
// that sees only vars and the functions (not templatefile itself, as in Terraform).
func (r *run) templateFileFunc(funcs map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{param("path", cty.String), dynParam("vars")},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			p := args[0].AsString()
			data, name, err := r.readFile(p)
			if isOutside(err) {
				return cty.DynamicVal, nil // not read: unknown
			}
			if err != nil {
				return cty.DynamicVal, err
			}
			return renderTemplate(data, name, args[1], funcs, "templatefile")
		},
	})
}

// templateStringFunc is templatestring(template, vars).
func templateStringFunc(funcs map[string]function.Function) function.Function {
	return function.New(&function.Spec{
		Params: []function.Parameter{param("template", cty.String), dynParam("vars")},
		Type:   function.StaticReturnType(cty.DynamicPseudoType),
		Impl: func(args []cty.Value, _ cty.Type) (cty.Value, error) {
			return renderTemplate([]byte(args[0].AsString()), "<templatestring>", args[1], funcs, "templatestring")
		},
	})
}

func renderTemplate(src []byte, name string, vars cty.Value, funcs map[string]function.Function, self string) (cty.Value, error) {
	if err := nestingError(src, DefaultMaxNesting, syntaxTemplate); err != nil {
		return cty.DynamicVal, err
	}
	expr, diags := hclsyntax.ParseTemplate(src, name, hcl.InitialPos)
	if diags.HasErrors() {
		return cty.DynamicVal, errors.New(diags.Error())
	}
	ty := vars.Type()
	if vars.IsNull() || !(ty.IsObjectType() || ty.IsMapType()) {
		return cty.DynamicVal, errors.New("template variables must be given as a map or object")
	}
	if !vars.IsWhollyKnown() {
		return cty.DynamicVal, nil
	}
	inner := make(map[string]function.Function, len(funcs))
	for n, f := range funcs {
		if n != "templatefile" && n != "templatestring" && n != "core::templatefile" && n != "core::templatestring" {
			inner[n] = f
		}
	}
	if b, ok := boundsByFuncs.Load(funcsKey(funcs)); ok {
		// The template is part of the expression that called it: the same bounds.
		boundExprs(expr)
		defer registerBounds(inner, b.(*exprBounds))()
	}
	v, diags := expr.Value(&hcl.EvalContext{Variables: vars.AsValueMap(), Functions: inner})
	if diags.HasErrors() {
		return cty.DynamicVal, fmt.Errorf("%s: %s", self, diags.Error())
	}
	return v, nil
}
