package load

import (
	"bytes"
	"maps"
	"os"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/parsers/terraform"
)

// terraformFile classifies Terraform inputs: a .tf, .tf.json, .tofu or .tofu.json file
// makes its directory a module (read as a whole, as Terraform does); variable files belong to
// their module. It reports whether the file was Terraform's.
func (l *loader) terraformFile(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	switch {
	case terraform.IsConfigFile(base):
		dir := filepath.Dir(path)
		if l.tfSeen == nil {
			l.tfSeen = map[string]bool{}
		}
		if !l.tfSeen[dir] {
			l.tfSeen[dir] = true
			l.tfDirs = append(l.tfDirs, terraform.Dir{Path: dir, Root: l.tfRoot})
		}
		return true
	case strings.HasSuffix(base, ".tfvars") || strings.HasSuffix(base, ".tfvars.json"):
		return true
	}
	return false
}

// readRoot is the directory reads must stay inside for a path the user named
// (Terraform module sources, file() and templatefile(), Helm's .Files, kustomize's
// filesystem): the top level of the git checkout that holds the path, when it is in
// one; otherwise the working directory when the path is inside it, otherwise the
// named directory itself (or the directory of a named file). `cd envs/prod && pvlint
// .` thus reads the ../../modules the configuration calls, as terraform would, and
// nothing outside the repository.
func (l *loader) readRoot(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		resolved, err := filepath.EvalSymlinks(abs)
		if err == nil {
			if top := checkoutTop(resolved); top != "" {
				return top
			}
		}
		if err == nil && l.inside(resolved) {
			return l.opts.Dir
		}
		if isDir(abs) {
			return abs
		}
		return filepath.Dir(abs)
	}
	return l.opts.Dir
}

// parse reads one file's content: Terraform plan or state JSON when it is one,
// otherwise manifests (and Prometheus rules).
func (l *loader) parse(name string, data []byte) ([]*graph.Resource, []graph.Diagnostic) {
	if t := bytes.TrimLeft(data, " \t\r\n\xef\xbb\xbf"); len(t) > 0 && t[0] == '{' && terraform.LooksLikePlan(data) {
		if rs, ds, ok := terraform.ParsePlan(name, data); ok {
			return rs, ds
		}
	}
	return parseYAMLFile(name, data, manifest.Options{Limits: l.opts.Limits, SkipConfigData: l.opts.SkipConfigData})
}

// loadTerraform evaluates the module directories found. Files a configuration reads
// through file() or templatefile() are part of it: their plain-manifest reading is
// dropped, so one object is not linted twice.
func (l *loader) loadTerraform() {
	if len(l.tfDirs) == 0 {
		return
	}
	opts := l.opts.Terraform
	if opts.MaxFileSize == 0 {
		opts.MaxFileSize = l.opts.MaxFileSize
	}
	opts.Vars = append([]terraform.Var(nil), opts.Vars...)
	for i, v := range opts.Vars {
		if v.File != "" && !filepath.IsAbs(v.File) {
			opts.Vars[i].File = filepath.Join(l.opts.Dir, v.File)
		}
	}
	var res *terraform.Result
	if l.opts.Workers != nil {
		res, _ = l.loadTerraformIsolated(opts)
	}
	if res == nil && l.spent() {
		res = &terraform.Result{}
		for _, d := range l.tfDirs {
			res.Diagnostics = append(res.Diagnostics, l.unfinishedDiag(l.firstTF(d.Path), "the Terraform module "+l.display(d.Path)))
		}
	}
	if res == nil {
		res = terraform.Load(l.tfDirs, l.display, opts)
	}
	l.opts.Progress.evaluated()
	if len(res.Consumed) > 0 {
		base := l.res.Base[:0]
		for _, r := range l.res.Base {
			if !res.Consumed[r.Origin.File] || r.Origin.Format != graph.FormatYAML {
				base = append(base, r)
			}
		}
		l.res.Base = base
		diags := l.res.Diagnostics[:0]
		for _, d := range l.res.Diagnostics {
			if !res.Consumed[d.Range.File] {
				diags = append(diags, d)
			}
		}
		l.res.Diagnostics = diags
	}
	maps.Copy(l.res.Sources, res.Sources)
	l.res.Base = withoutPlanCopies(append(l.res.Base, res.Resources...))
	l.res.Diagnostics = append(l.res.Diagnostics, res.Diagnostics...)
}

// withoutPlanCopies drops the resources of plan or state JSON (`terraform show -json`)
// that a configuration of the run also declares. A plan linted next to its own
// configuration describes the same objects twice, and every finding would be reported
// twice (the contract does not settle it: docs/rules.md#decision-12 joins Terraform
// with the other inputs of a run, and a plan is not a variant). A plan resource is a
// copy when a configuration resource has its Terraform address and kind, and the same
// name and namespace wherever both know them: two root modules of one repository may
// share an address, and then their objects differ by name. The configuration's
// resource is kept: its positions are in the .tf files users edit, where their inline
// suppressions live, while a plan is generated output. What only the plan knows
// (values of variables set outside the run) is lost for those resources; pass them
// with --var or --var-file.
func withoutPlanCopies(rs []*graph.Resource) []*graph.Resource {
	config := map[string][]*graph.Resource{}
	for _, r := range rs {
		if r.Origin.Format == graph.FormatTerraform && r.Origin.Address != "" {
			config[r.Origin.Address] = append(config[r.Origin.Address], r)
		}
	}
	if len(config) == 0 {
		return rs
	}
	out := rs[:0]
	for _, r := range rs {
		if r.Origin.Format != graph.FormatPlan || !declared(r, config[r.Origin.Address]) {
			out = append(out, r)
		}
	}
	return out
}

// declared reports whether a plan resource is one of the configuration's resources of
// its address: same kind, and no known name or namespace that differs.
func declared(plan *graph.Resource, config []*graph.Resource) bool {
	for _, c := range config {
		if c.Kind == plan.Kind &&
			agree(plan.Object.Get("metadata", "name"), c.Object.Get("metadata", "name")) &&
			agree(plan.Object.Get("metadata", "namespace"), c.Object.Get("metadata", "namespace")) {
			return true
		}
	}
	return false
}

// agree reports whether two values may be the same: equal, or either not known
// (unset, or known only after apply).
func agree(a, b *graph.Node) bool {
	if a.Str() == "" || b.Str() == "" || a.IsUnknown() || b.IsUnknown() {
		return true
	}
	return a.Str() == b.Str()
}

// tfNames lists the Terraform module directories found, for an internal error.
func (l *loader) tfNames() string {
	names := make([]string, len(l.tfDirs))
	for i, d := range l.tfDirs {
		names[i] = l.display(d.Path)
	}
	return strings.Join(names, ", ")
}

func isDir(p string) bool {
	info, err := os.Stat(p)
	return err == nil && info.IsDir()
}

// maxCheckoutDepth bounds how many directories checkoutTop looks at.
const maxCheckoutDepth = 256

// checkoutTop is the top level of the git checkout holding the absolute,
// symlink-free path p: the nearest directory at or above it (above the file, for a
// file) that holds a .git entry, a directory or, for worktrees and submodules, a
// file; "" outside a checkout. It only looks at names: git is never run, and nothing
// in .git is read.
func checkoutTop(p string) string {
	d := p
	if !isDir(d) {
		d = filepath.Dir(d)
	}
	for range maxCheckoutDepth {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		up := filepath.Dir(d)
		if up == d {
			return ""
		}
		d = up
	}
	return ""
}
