package policy

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/open-policy-agent/opa/v1/ast"

	"github.com/pvlint/pvlint/rules/lint"
)

// CompileError is a set of policies that does not compile. Each problem carries the
// file, line and column OPA or the metadata check found it at, so that a user can
// jump to it; the CLI prints one line per problem.
type CompileError struct {
	Problems []Problem
}

// Problem is one reason a policy does not compile.
type Problem struct {
	File         string
	Line, Column int // 0 when unknown
	// Msg says what is wrong, with OPA's error code first for OPA's errors
	// ("rego_parse_error: unexpected } token").
	Msg string
}

func (p Problem) String() string {
	switch {
	case p.File == "":
		return p.Msg
	case p.Line == 0:
		return p.File + ": " + p.Msg
	case p.Column == 0:
		return fmt.Sprintf("%s:%d: %s", p.File, p.Line, p.Msg)
	}
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Column, p.Msg)
}

func (e *CompileError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// problemAt is a CompileError with one problem at an OPA location.
func problemAt(loc *ast.Location, file, format string, args ...any) *CompileError {
	p := Problem{File: file, Msg: fmt.Sprintf(format, args...)}
	if loc != nil {
		p.Line, p.Column = loc.Row, loc.Col
		if loc.File != "" {
			p.File = loc.File
		}
	}
	return &CompileError{Problems: []Problem{p}}
}

// compileError converts OPA's errors (ast.Errors from the parser or the compiler)
// into a CompileError; other errors become a problem of file.
func compileError(file string, err error) *CompileError {
	var errs ast.Errors
	if !errors.As(err, &errs) {
		var one *ast.Error
		if !errors.As(err, &one) {
			return &CompileError{Problems: []Problem{{File: file, Msg: err.Error()}}}
		}
		errs = ast.Errors{one}
	}
	out := &CompileError{}
	for _, e := range errs {
		p := Problem{File: file, Msg: e.Code + ": " + e.Message}
		if name, ok := strings.CutPrefix(e.Message, "undefined function "); ok && forbidden[name] != "" {
			p.Msg += fmt.Sprintf(" (pvlint denies builtin %s: %s; policies run without network, file system or the process's environment)", name, forbidden[name])
		}
		if e.Location != nil {
			p.Line, p.Column = e.Location.Row, e.Location.Col
			if e.Location.File != "" {
				p.File = e.Location.File
			}
		}
		out.Problems = append(out.Problems, p)
	}
	return out
}

// parse reads one module. pvlint's own policies are Rego v1. A user's policy may
// also be Rego v0, the dialect of Conftest and Gatekeeper policies written before
// OPA 1.0 (`deny[msg] { ... }`): it is read as v1 first and, when that fails, as v0
// (where `import rego.v1` and `import future.keywords` also work). A module valid in
// neither reports the errors of the dialect that read further into the file, which is
// the one its author meant.
func parse(m Module, caps *ast.Capabilities, v0 bool) (*ast.Module, error) {
	opts := ast.ParserOptions{ProcessAnnotation: true, RegoVersion: ast.RegoV1, Capabilities: caps}
	mod, err := ast.ParseModuleWithOpts(m.Name, m.Source, opts)
	if err == nil || !v0 {
		if err != nil {
			return nil, compileError(m.Name, err)
		}
		return mod, nil
	}
	opts.RegoVersion = ast.RegoV0
	mod0, err0 := ast.ParseModuleWithOpts(m.Name, m.Source, opts)
	if err0 == nil {
		return mod0, nil
	}
	if furthest(err0) > furthest(err) {
		err = err0
	}
	return nil, compileError(m.Name, err)
}

// furthest is the last line an OPA error list points at.
func furthest(err error) int {
	var errs ast.Errors
	if !errors.As(err, &errs) {
		return 0
	}
	line := 0
	for _, e := range errs {
		if e.Location != nil {
			line = max(line, e.Location.Row)
		}
	}
	return line
}

// Load reads every .rego file of each file system (test files *_test.rego excluded)
// and compiles them together, so a policy may import a helper library from another
// directory.
func Load(fsyss []fs.FS, opts Options) ([]*lint.Rule, error) {
	var mods []Module
	for _, fsys := range fsyss {
		ms, err := ReadModules(fsys)
		if err != nil {
			return nil, err
		}
		mods = append(mods, ms...)
	}
	return Compile(mods, opts)
}

// ReadModules returns the .rego files of fsys (excluding *_test.rego) in lexical
// order, named by their path within fsys.
func ReadModules(fsys fs.FS) ([]Module, error) {
	return readRego(fsys, func(p string) bool { return !IsTest(p) })
}

// IsTest reports whether a file name is a Rego test file (*_test.rego), which
// `pvlint test` runs and linting skips.
func IsTest(name string) bool { return strings.HasSuffix(name, "_test.rego") }

// readRego returns the .rego files of fsys that keep accepts, in lexical order.
func readRego(fsys fs.FS, keep func(string) bool) ([]Module, error) {
	var mods []Module
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("read policies: %w", err)
		}
		if d.IsDir() || path.Ext(p) != ".rego" || !keep(p) {
			return nil
		}
		b, err := fs.ReadFile(fsys, p)
		if err != nil {
			return fmt.Errorf("read policy %s: %w", p, err)
		}
		mods = append(mods, Module{Name: p, Source: string(b)})
		return nil
	})
	return mods, err
}

// parseAll parses every module, collecting the problems of all of them.
func parseAll(modules []Module, caps *ast.Capabilities, custom bool) (map[string]*ast.Module, []string, error) {
	parsed := make(map[string]*ast.Module, len(modules))
	var order []string
	bad := &CompileError{}
	for _, m := range modules {
		if _, dup := parsed[m.Name]; dup {
			return nil, nil, &CompileError{Problems: []Problem{{File: m.Name, Msg: "module given twice"}}}
		}
		mod, err := parse(m, caps, custom)
		if err != nil {
			bad.Problems = append(bad.Problems, err.(*CompileError).Problems...)
			continue
		}
		if custom {
			for _, r := range reservedPackages {
				if p := mod.Package.Path; len(p) > 1 && p[1].Value.Compare(ast.String(r)) == 0 {
					bad.Problems = append(bad.Problems, compileError(m.Name, ast.NewError(ast.CompileErr, mod.Package.Location,
						"package %s is reserved for pvlint's data.%s document", strings.TrimPrefix(p.String(), "data."), r)).Problems...)
				}
			}
		}
		parsed[m.Name] = mod
		order = append(order, m.Name)
	}
	if len(bad.Problems) > 0 {
		return nil, nil, bad
	}
	return parsed, order, nil
}
