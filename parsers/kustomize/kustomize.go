// Package kustomize builds Kustomize overlays with kustomize's own library (krusty) and
// maps every output object back to the file a user would edit: the resource file it
// came from, or the patch (or replicas entry) that set a field. The caller may run
// krusty in another process (Env.Run, a worker under a memory and time budget); the
// checks before the build and the mapping after it run here.
//
// Builds never reach the network or run anything: remote bases and resources are left
// out of the build (one diagnostic each, the rest built), other remote references and
// helmCharts are refused with a diagnostic before kustomize is called; plugins are
// disabled; kustomize reads through a read-only filesystem confined to the linted
// directory and to regular files, which serves it pvlint's checked copy of each
// kustomization with every path anchored, so that kustomize cannot take one for a
// repository to clone or a URL to download (serve.go). Each top-level kustomization
// is its own world (docs/rules.md#decision-12); a kustomization another one builds on is
// not built alone.
package kustomize

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/types"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
)

// Env is what the caller (the loader) decides about files.
type Env struct {
	// Display returns the name users see for a path.
	Display func(path string) string
	// Inside reports whether an absolute, symlink-free path is within what the user
	// asked to lint; nothing outside it is read.
	Inside func(path string) bool
	// MaxFileSize bounds every file read (32 MiB when zero).
	MaxFileSize int64
	// Limits bound YAML parsing.
	Limits manifest.Limits
	// MaxOutput bounds the bytes of one build's output (DefaultMaxOutput when zero):
	// bases used many times can multiply small files into a huge stream.
	MaxOutput int64
	// SkipConfigData leaves ConfigMap and Secret data of the build's output unread
	// (manifest.Options.SkipConfigData); patches and generators still read theirs.
	SkipConfigData bool
	// Run runs kustomize on a checked tree (what BuildStream does) somewhere else: in a
	// worker process under the memory and time budgets of a chart render. Nil runs it
	// in this process. An error is a failure of where the build ran, not of the build
	// (Built.Err): its text is the message of a diagnostic at the kustomization.
	Run func(dir string, served map[string][]byte) (*Built, error)
}

// DefaultMaxOutput is the largest build output linted unless told otherwise.
const DefaultMaxOutput = 32 << 20

func (e Env) maxOutput() int64 {
	if e.MaxOutput <= 0 {
		return DefaultMaxOutput
	}
	return e.MaxOutput
}

func (e Env) display(p string) string {
	if e.Display == nil {
		return filepath.ToSlash(p)
	}
	return e.Display(p)
}

// insideResolved reports whether an absolute path, once symlinks are resolved, is in
// the linted directory. A path that does not exist is judged as written.
func (e Env) insideResolved(abs string) bool {
	if e.Inside == nil {
		return true
	}
	if r, err := filepath.EvalSymlinks(abs); err == nil {
		abs = r
	}
	return e.Inside(abs)
}

func (e Env) maxFileSize() int64 {
	if e.MaxFileSize <= 0 {
		return 32 << 20
	}
	return e.MaxFileSize
}

// read reads a file within the linted directory and the size limit.
func (e Env) read(abs string) ([]byte, *graph.Diagnostic) {
	name := e.display(abs)
	fail := func(format string, args ...any) *graph.Diagnostic {
		return &graph.Diagnostic{Range: graph.Range{File: name, Start: graph.Pos{Line: 1, Column: 1}}, Message: fmt.Sprintf(format, args...)}
	}
	if !e.insideResolved(abs) {
		return nil, fail("file is outside the linted directory; not read")
	}
	data, err := readRegular(abs, e.maxFileSize())
	if r, ok := err.(refusal); ok {
		return nil, fail("file is %v; not read", r)
	}
	if err != nil {
		return nil, fail("cannot read: %v", unwrapPath(err))
	}
	return data, nil
}

// Result is one top-level build.
type Result struct {
	// Variant names the build: the kustomization directory as displayed.
	Variant   string
	Resources []*graph.Resource
	// Diagnostics are refused references and failed builds, at the line they name.
	Diagnostics []graph.Diagnostic
	// Sources maps displayed names to content: every file the build read that
	// findings may point at, and the build output under BuiltName.
	Sources map[string][]byte
}

// BuiltName is the virtual file name under which a build's output is kept in
// Result.Sources and referred to by related locations.
func BuiltName(dirDisplay string) string { return dirDisplay + "#built" }

// Build builds the kustomization in dir. Nothing is built when the kustomization (or
// one it builds on) names something missing or outside the linted directory, or a
// remote file (a patch, a generator's file); a remote resources, bases or components
// entry is left out and the rest built, with a diagnostic at the entry.
func Build(dir string, env Env) *Result {
	abs, _ := filepath.Abs(dir)
	return buildDir(abs, env).withVariant()
}

func buildDir(abs string, env Env) *Result {
	return buildTree(abs, env, nil, env.display(abs))
}

// buildTree builds the kustomization in abs, or over instead of its file when set.
func buildTree(abs string, env Env, over *kfile, variant string) *Result {
	res := &Result{Variant: variant, Sources: map[string][]byte{}}
	tree, diags := loadTreeWith(abs, env, nil, over)
	res.Diagnostics = append(res.Diagnostics, diags...)
	res.Diagnostics = append(res.Diagnostics, tree.skipped...)
	top := tree.byDir[abs]
	if top == nil || len(diags) > 0 {
		return res
	}
	for _, k := range tree.order {
		if k.data != nil {
			res.Sources[k.display] = k.data
		}
	}
	srcs, diags := tree.readSources(env)
	if len(diags) > 0 {
		res.Diagnostics = append(res.Diagnostics, diags...)
		return res
	}
	for _, s := range srcs {
		res.Sources[s.display] = s.data
	}
	if d := tree.patchGrowth(env, srcs); d != nil {
		res.Diagnostics = append(res.Diagnostics, *d)
		return res
	}
	served := map[string][]byte{}
	for _, k := range tree.order {
		text, err := k.served(k == top)
		if err != nil {
			res.Diagnostics = append(res.Diagnostics, graph.Diagnostic{Range: graph.Range{File: k.display, Start: graph.Pos{Line: 1, Column: 1}},
				Message: fmt.Sprintf("cannot prepare the kustomization for kustomize: %v", err)})
			return res
		}
		served[k.path] = text
		if r, err := filepath.EvalSymlinks(k.path); err == nil {
			served[r] = text
		} else if d, err := filepath.EvalSymlinks(k.dir); err == nil {
			served[filepath.Join(d, filepath.Base(k.path))] = text // a generated kustomization (overlay.go)
		}
	}
	virtual := BuiltName(res.Variant)
	if over != nil {
		// Several GitOps objects may build one directory: each output is its own.
		virtual = BuiltName(env.display(abs)) + "(" + strings.ReplaceAll(res.Variant, " ", ":") + ")"
	}
	var out *Built
	var err error
	if env.Run != nil {
		out, err = env.Run(abs, served)
	} else {
		out = BuildStream(abs, served, env)
	}
	switch {
	case err != nil:
		rg := graph.Range{File: top.display, Start: graph.Pos{Line: 1, Column: 1}}
		if top.at.IsValid() {
			rg = top.at
		}
		res.Diagnostics = append(res.Diagnostics, graph.Diagnostic{Range: rg, Message: err.Error()})
		return res
	case out.Err != "":
		res.Diagnostics = append(res.Diagnostics, tree.buildDiag(top, errors.New(out.Err)))
		return res
	case out.OverLimit:
		res.Sources[virtual] = nil
		res.Diagnostics = append(res.Diagnostics, graph.Diagnostic{Range: graph.Range{File: top.display, Start: graph.Pos{Line: 1, Column: 1}},
			Message: fmt.Sprintf("the build output is more than %d bytes (the kustomize output limit); not linted", env.maxOutput())})
		return res
	}
	b := &builder{env: env, tree: tree, top: top, srcs: srcs, variant: res.Variant, virtual: virtual, sources: res.Sources}
	res.Resources, diags = b.resources(out)
	res.Diagnostics = append(res.Diagnostics, diags...)
	res.Sources[b.virtual] = b.stream
	return res
}

// withVariant names the build in every diagnostic, as findings name it.
func (r *Result) withVariant() *Result {
	for i := range r.Diagnostics {
		r.Diagnostics[i].Variant = r.Variant
	}
	return r
}

// Built is the output of kustomize on one tree, as pvlint lints it: the objects as
// one YAML stream, and where each came from. It is what a worker sends back.
type Built struct {
	Stream []byte
	// Origins maps the line each object starts on in Stream to its origin.
	Origins map[int]Origin
	// Err is the text of kustomize's error when the build failed.
	Err string
	// OverLimit says the output passed Env.MaxOutput: nothing was kept.
	OverLimit bool
}

// Origin is where kustomize says an object came from: the resource file (Path) or the
// kustomization whose generator made it (ConfiguredIn), relative to the build.
type Origin struct{ Path, ConfiguredIn string }

// BuildStream runs kustomize on the kustomization in dir (served as in run) and
// serialises its output, bounded by env's output limit. Of env it uses Inside,
// MaxFileSize and MaxOutput: a worker process runs it with those alone.
func BuildStream(dir string, served map[string][]byte, env Env) *Built {
	m, err := run(dir, served, env)
	if err != nil {
		return &Built{Err: err.Error()}
	}
	return serialise(m, env.maxOutput())
}

// serialise writes a build's objects as one YAML stream, each document after a
// "---" line, with the origin of each by its start line.
func serialise(m resmap.ResMap, max int64) *Built {
	var sb bytes.Buffer
	origins := map[int]Origin{}
	line := 1
	for _, r := range m.Resources() {
		o, _ := r.GetOrigin()
		if err := r.SetOrigin(nil); err != nil {
			continue
		}
		y, err := r.AsYAML()
		if err != nil {
			continue
		}
		y = append(trimDoc(y), '\n')
		sb.WriteString("---\n")
		if o != nil {
			origins[line+1] = Origin{Path: o.Path, ConfiguredIn: o.ConfiguredIn}
		}
		sb.Write(y)
		line += 1 + bytes.Count(y, []byte("\n"))
		if int64(sb.Len()) > max {
			return &Built{OverLimit: true}
		}
	}
	return &Built{Stream: sb.Bytes(), Origins: origins}
}

// run calls krusty with plugins disabled and loads restricted to each
// kustomization's root, on the confined filesystem serving the kustomizations pvlint
// checked (served, by absolute path), with no way to reach the network.
func run(dir string, served map[string][]byte, env Env) (m resmap.ResMap, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in kustomize: %v", p)
		}
	}()
	noNetwork()
	opts := krusty.MakeDefaultOptions()
	opts.PluginConfig = types.DisabledPluginConfig()
	opts.LoadRestrictions = types.LoadRestrictionsRootOnly
	opts.AddManagedbyLabel = false
	silence(func() { m, err = krusty.MakeKustomizer(opts).Run(newFS(env, served), dir) })
	return m, err
}

var noNetworkOnce sync.Once

// noNetwork replaces Go's default HTTP transport with one that refuses every
// request. Kustomize downloads a resource, patch or configuration file named by an
// http(s) URL with a plain http.Client, which uses that transport; pvlint itself makes
// no HTTP request, so nothing else in the process loses anything.
func noNetwork() {
	noNetworkOnce.Do(func() { http.DefaultTransport = refuseTransport{} })
}

type refuseTransport struct{}

func (refuseTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return nil, fmt.Errorf("pvlint never downloads (%s)", r.URL.Redacted())
}

// buildDiag reports a failed build at the top kustomization, or at a file the error
// names when it is one the build reads.
func (t *tree) buildDiag(top *kfile, err error) graph.Diagnostic {
	msg := strings.TrimSpace(err.Error())
	at := top
	for _, k := range t.order {
		if strings.Contains(msg, k.path) {
			at = k
			break
		}
	}
	// Kustomize names files by absolute path; the report names them as the user does,
	// relative to where the displayed paths are.
	for _, k := range t.order {
		if prefix, ok := strings.CutSuffix(k.path, filepath.FromSlash(k.display)); ok && !filepath.IsAbs(k.display) && strings.HasSuffix(prefix, string(filepath.Separator)) {
			msg = strings.ReplaceAll(msg, prefix, "")
			break
		}
	}
	rg := graph.Range{File: at.display, Start: graph.Pos{Line: 1, Column: 1}}
	if at.at.IsValid() {
		rg = at.at
	}
	return graph.Diagnostic{Range: rg, Message: "kustomize build failed: " + msg}
}

// unwrapPath drops the path from an *os.PathError: the diagnostic names the file.
func unwrapPath(err error) error {
	if pe, ok := err.(*os.PathError); ok {
		return pe.Err
	}
	return err
}

// trimDoc removes a trailing newline run so documents join with one "---".
func trimDoc(b []byte) []byte { return bytes.TrimRight(b, "\n") }
