package load

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"

	"github.com/pvlint/pvlint/parsers/graph"
	"github.com/pvlint/pvlint/parsers/manifest"
	"github.com/pvlint/pvlint/parsers/terraform"
)

// terraformFile classifies Terraform inputs: a .tf or .tf.json file makes its
// directory a module (read as a whole, as Terraform does); variable files belong to
// their module. It reports whether the file was Terraform's.
func (l *loader) terraformFile(path string) bool {
	base := strings.ToLower(filepath.Base(path))
	switch {
	case strings.HasSuffix(base, ".tf") || strings.HasSuffix(base, ".tf.json"):
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

// readRoot is the directory Terraform reads must stay inside for a path the user
// named: the working directory when the path is inside it, otherwise the named
// directory itself (or the directory of a named file).
func (l *loader) readRoot(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		if resolved, err := filepath.EvalSymlinks(abs); err == nil && l.inside(resolved) {
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
	return parseYAMLFile(name, data, manifest.Options{Limits: l.opts.Limits})
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
	res := terraform.Load(l.tfDirs, l.display, opts)
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
	for name, data := range res.Sources {
		l.res.Sources[name] = data
	}
	l.res.Base = append(l.res.Base, res.Resources...)
	l.res.Diagnostics = append(l.res.Diagnostics, res.Diagnostics...)
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
