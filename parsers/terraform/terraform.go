// Package terraform reads Terraform and OpenTofu configurations (module directories of
// .tf, .tf.json, .tofu and .tofu.json files, with their variables, locals, references and local modules) and
// Terraform plan or state JSON into pvlint's graph, so that a StorageClass written with
// the hashicorp/kubernetes provider is linted by the same rules as one written in YAML.
//
// Each kubernetes_* resource is normalised into the Kubernetes-shaped object the
// provider would send (camelCase fields, single-item blocks flattened, repeated blocks
// as lists, the provider's own defaults made explicit), and every node keeps the HCL
// range it came from. What cannot be known without running Terraform — resources of
// other providers, data sources, computed attributes, remote modules, variables
// without a value — is a graph.Unknown node, never a guess, and never an error: a
// module Terraform accepts yields no diagnostic. Nothing here reaches the network or
// reads outside the linted directory.
package terraform

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/pvlint/pvlint/parsers/graph"
)

// Options configure how Terraform inputs are read.
type Options struct {
	// Vars are the --var and --var-file arguments in command-line order: later ones
	// win, as in Terraform. They apply to every root module that declares the variable.
	Vars []Var
	// MaxInstances bounds the instances one count or for_each may expand to
	// (DefaultMaxInstances when zero); a larger expansion is a diagnostic.
	MaxInstances int
	// MaxFileSize bounds every file read, including file() and templatefile()
	// (DefaultMaxFileSize when zero).
	MaxFileSize int64
	// MaxModuleDepth bounds how deep local module calls nest (DefaultMaxModuleDepth
	// when zero); a deeper call is a diagnostic and is not read.
	MaxModuleDepth int
	// Only, when set, evaluates only the root module in that directory (one of the
	// Dir paths given to Load): the others are read, to know which directories are
	// called as modules, but not evaluated. A caller evaluating each root in a process
	// of its own uses it to keep one module's failure from costing the others.
	Only string
}

// Var is one --var name=value (Name and Value) or --var-file (File) argument.
type Var struct {
	Name, Value string
	File        string
}

// ParseVar reads a --var argument of the form name=value.
func ParseVar(s string) (Var, error) {
	name, value, ok := strings.Cut(s, "=")
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Var{}, fmt.Errorf("invalid --var %q: want name=value", s)
	}
	return Var{Name: name, Value: value}, nil
}

// Defaults for Options.
const (
	DefaultMaxInstances = 1000
	DefaultMaxFileSize  = 32 << 20
	// DefaultMaxModuleDepth bounds nested module calls; plans always use it.
	DefaultMaxModuleDepth = 32
)

// maxRunInstances bounds every instance (of counted blocks and module calls) of one
// root module together. A variable so that tests can lower it.
var maxRunInstances = 200_000

// Dir is one module directory found in the inputs.
type Dir struct {
	// Path is the directory.
	Path string
	// Root is the directory every read (module sources, file(), templatefile()) must
	// stay inside; symlinks are resolved before the check.
	Root string
}

// Result is what a Load produced.
type Result struct {
	// Resources in a deterministic order: root directories in the order given, then
	// declaration order within each module.
	Resources []*graph.Resource
	// Diagnostics are problems with the inputs, each at its position.
	Diagnostics []graph.Diagnostic
	// Sources maps displayed file names to their content: the .tf files and every file
	// read through file() or templatefile().
	Sources map[string][]byte
	// Consumed holds the displayed names of files read through file() or
	// templatefile(): they belong to the configuration and are not plain manifests.
	Consumed map[string]bool
}

// Load reads module directories. A directory called as a local module by another one
// in dirs is evaluated only through its calls (with the caller's inputs), not also on
// its own. Display turns an OS path into the name users see (nil: the path as is).
//
// Directories are read and evaluated one after another (as many at once as there are
// processors), and a root module's syntax trees are released as soon as it is
// evaluated, so that holding a parsed repository is never needed: only the modules
// other directories call stay parsed. Which directories are roots is only known once
// every directory is read, so a directory no module read so far calls is evaluated as
// a root when it is read; should a directory read later call it, that evaluation is
// dropped (and the module is parsed again for its callers), and a root that was not
// evaluated when it was read (one that only a cycle of calls reaches) is evaluated at
// the end. What is kept does not depend on the order, only the work does.
func Load(dirs []Dir, display func(path string) string, opts Options) *Result {
	if display == nil {
		display = filepath.ToSlash
	}
	return load(dirs, display, opts, false).result(display)
}

// loaded is what a load evaluated: every directory's module, and the evaluation of
// each root (by directory index).
type loaded struct {
	infos []*modInfo
	outs  []*outcome
	roots []int
}

// load reads and evaluates dirs (see Load); wire encodes each root module's resources
// as soon as it is evaluated (see Wire).
func load(dirs []Dir, display func(path string) string, opts Options, wire bool) *loaded {
	if opts.MaxInstances <= 0 {
		opts.MaxInstances = DefaultMaxInstances
	}
	if opts.MaxModuleDepth <= 0 {
		opts.MaxModuleDepth = DefaultMaxModuleDepth
	}
	if opts.MaxFileSize <= 0 {
		opts.MaxFileSize = DefaultMaxFileSize
	}
	if display == nil {
		display = filepath.ToSlash
	}
	ld := &loader{opts: opts, display: display, modules: map[string]*modEntry{}, wire: wire}
	index := make(map[string]int, len(dirs))
	for i, d := range dirs {
		index[cleanAbs(d.Path)] = i
	}
	infos := make([]*modInfo, len(dirs))
	outs := make([]*outcome, len(dirs))
	called := make([]bool, len(dirs)) // by a module read so far
	evaluable := func(i int) bool { return opts.Only == "" || dirs[i].Path == opts.Only }
	parallel(len(dirs), func(i int) {
		m := ld.module(dirs[i].Path, dirs[i].Root)
		infos[i] = m.summary()
		ld.mu.Lock()
		for _, j := range callees(dirs, index, i, infos[i].calls) {
			called[j] = true
		}
		skip := called[i]
		ld.mu.Unlock()
		if !skip && evaluable(i) {
			outs[i] = evaluateRoot(ld, dirs[i], m)
		}
		ld.mu.Lock()
		if !called[i] {
			// No module read so far calls it: release its trees. A caller read later
			// parses it again.
			ld.release(cleanAbs(dirs[i].Path))
		}
		ld.mu.Unlock()
	})
	roots := rootDirs(dirs, index, infos)
	kept := roots[:0]
	var late []int
	for _, i := range roots {
		if !evaluable(i) {
			continue
		}
		kept = append(kept, i)
		if outs[i] == nil {
			late = append(late, i)
		}
	}
	parallel(len(late), func(j int) {
		i := late[j]
		outs[i] = evaluateRoot(ld, dirs[i], ld.module(dirs[i].Path, dirs[i].Root))
	})
	return &loaded{infos: infos, outs: outs, roots: kept}
}

// result assembles the Result of a load (its resources only when not encoded).
func (l *loaded) result(display func(string) string) *Result {
	res := &Result{Sources: map[string][]byte{}, Consumed: map[string]bool{}}
	seen := map[string]bool{}
	add := func(ds []graph.Diagnostic) {
		for _, d := range ds {
			k := d.Range.String() + "\x00" + d.Message
			if !seen[k] {
				seen[k] = true
				res.Diagnostics = append(res.Diagnostics, d)
			}
		}
	}
	// Every directory's module, and every module a kept evaluation called, is read:
	// their problems are reported and their files are sources.
	modules := slices.Clone(l.infos)
	for _, i := range l.roots {
		modules = append(modules, l.outs[i].used...)
	}
	for _, mi := range modules {
		add(mi.diags)
		for _, s := range mi.sources {
			res.Sources[s.name] = s.data
		}
		for _, p := range mi.inputs {
			res.Consumed[display(p)] = true
		}
	}
	for _, i := range l.roots {
		o := l.outs[i]
		res.Resources = append(res.Resources, o.out...)
		add(o.diags)
		for _, s := range o.reads {
			res.Sources[s.name] = s.data
			if s.consumed {
				res.Consumed[s.name] = true
			}
		}
	}
	sort.SliceStable(res.Diagnostics, func(i, j int) bool {
		a, b := res.Diagnostics[i].Range, res.Diagnostics[j].Range
		if a.File != b.File {
			return a.File < b.File
		}
		return a.Start.Byte < b.Start.Byte
	})
	return res
}

// callees lists the directories of dirs (by index) that directory i calls as local
// modules, given the sources of its module calls; a call of itself does not count.
func callees(dirs []Dir, index map[string]int, i int, calls []string) []int {
	var out []int
	for _, src := range calls {
		if p, ok := localSource(src); ok {
			if j, found := index[cleanAbs(filepath.Join(dirs[i].Path, p))]; found && j != i {
				out = append(out, j)
			}
		}
	}
	return out
}

// rootDirs picks the directories to evaluate on their own: those no other directory
// calls as a local module. A group of directories that only call each other (a
// cycle) is entered at its first directory, so nothing is silently skipped.
func rootDirs(dirs []Dir, index map[string]int, infos []*modInfo) []int {
	calls := make([][]int, len(dirs))
	called := make([]bool, len(dirs))
	for i, mi := range infos {
		calls[i] = callees(dirs, index, i, mi.calls)
		for _, j := range calls[i] {
			called[j] = true
		}
	}
	reached := make([]bool, len(dirs))
	var visit func(int)
	visit = func(i int) {
		if reached[i] {
			return
		}
		reached[i] = true
		for _, j := range calls[i] {
			visit(j)
		}
	}
	var roots []int
	for i := range dirs {
		if !called[i] {
			roots = append(roots, i)
			visit(i)
		}
	}
	for i := range dirs {
		if !reached[i] {
			roots = append(roots, i)
			visit(i)
		}
	}
	sort.Ints(roots)
	return roots
}

// outcome is what evaluating a root module leaves once its run is done: the
// resources, the problems, the files the evaluation read and the modules it called.
type outcome struct {
	out   []*graph.Resource
	wire  []byte // out encoded (see Wire), in a load for a worker; out is then nil
	diags []graph.Diagnostic
	reads []fileData
	used  []*modInfo
}

// evaluateRoot evaluates the root module m of directory d.
func evaluateRoot(ld *loader, d Dir, m *module) *outcome {
	r := newRun(ld, d, m)
	r.evaluate()
	o := &outcome{out: r.out, diags: r.diags, reads: r.reads}
	if ld.wire {
		o.wire, o.out = encodeResources(o.out), nil
	}
	for _, cm := range r.used {
		o.used = append(o.used, cm.summary())
	}
	return o
}

// loader holds what every root module of one Load shares: parsed modules and the
// files read.
type loader struct {
	opts    Options
	display func(string) string

	wire    bool // encode each root's resources once evaluated (LoadWire)
	mu      sync.Mutex
	modules map[string]*modEntry // by cleaned absolute directory
	files   map[string][]byte    // file() reads by absolute path
}

// modEntry is a module parsed once, however many runs ask for it at once.
type modEntry struct {
	once sync.Once
	m    *module
}

// module returns the parsed module in dir, parsing it on first use.
func (ld *loader) module(dir, root string) *module {
	key := cleanAbs(dir)
	ld.mu.Lock()
	e := ld.modules[key]
	if e == nil {
		e = &modEntry{}
		ld.modules[key] = e
	}
	ld.mu.Unlock()
	e.once.Do(func() { e.m = parseModule(ld, dir, root) })
	return e.m
}

// release forgets the parsed module of a directory (by its cleaned absolute path), so
// that its trees can be collected once no evaluation holds it; a later use parses it
// again. The caller holds ld.mu.
func (ld *loader) release(key string) { delete(ld.modules, key) }

// fileData is a file's content under its displayed name.
type fileData struct {
	name string
	data []byte
	// consumed is set for a file read through file() or templatefile(): it belongs
	// to the configuration and is not a plain manifest.
	consumed bool
}

func cleanAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return filepath.Clean(a)
	}
	return filepath.Clean(p)
}

// localSource reports whether a module source is a local path, and returns it.
// Everything else (registry, git, http, s3...) is remote and never fetched.
func localSource(src string) (string, bool) {
	if strings.HasPrefix(src, "./") || strings.HasPrefix(src, "../") || src == "." || src == ".." {
		return filepath.FromSlash(src), true
	}
	return "", false
}

// inside reports whether path, with symlinks resolved, lies within root (also
// resolved). It returns the resolved path.
func inside(root, path string) (string, bool) {
	r, err := filepath.EvalSymlinks(root)
	if err != nil {
		r = root
	}
	r = cleanAbs(r)
	p, err := filepath.EvalSymlinks(path)
	if err != nil {
		// A path that does not exist cannot be read either; judge it lexically.
		p = path
	}
	p = cleanAbs(p)
	rel, err := filepath.Rel(r, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return p, false
	}
	return p, true
}

// readLimited reads a regular file within the size limit.
func readLimited(path string, max int64) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("not a regular file")
	}
	if info.Size() > max {
		return nil, fmt.Errorf("file is %d bytes, larger than the %d-byte limit", info.Size(), max)
	}
	return os.ReadFile(path)
}
