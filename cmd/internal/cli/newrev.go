package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/rules/baseline"
	"github.com/pvlint/pvlint/rules/lint"
)

// maxRevTree bounds the bytes --new-from-rev writes out of the revision's tree.
const maxRevTree = 1 << 30

// keepNewSinceRev keeps the findings (reported and suppressed) that the same command
// line does not find at revision rev of the repository dir is in: what the changes
// since rev introduced. Findings are matched by fingerprint (rule, resource, variant
// and field path, not line), as a baseline matches them, so moved findings are not
// new and each old finding accepts one current one.
//
// The revision's tree is read with an in-process Git implementation, never by running
// git, and written to a temporary directory that the run at that revision lints:
// regular files only (no symlinks or submodules), each at most the file-size limit.
func (e *Env) keepNewSinceRev(c *Config, dir string, acc *accepted) error {
	old, err := e.findingsAtRev(c, dir)
	if err != nil {
		return fmt.Errorf("--new-from-rev %s: %w", c.NewFromRev, err)
	}
	filter := func(fs []lint.Finding) []lint.Finding {
		accepted := make([]lint.Finding, len(old))
		copy(accepted, old)
		for i := range accepted {
			accepted[i].Suppression = nil // New records only unsuppressed findings
		}
		kept, _ := baseline.New(accepted).Filter(fs)
		return kept
	}
	acc.findings = filter(acc.findings)
	return nil
}

// findingsAtRev lints the tree of c.NewFromRev with c's settings and returns its
// findings, suppressed ones included.
func (e *Env) findingsAtRev(c *Config, dir string) ([]lint.Finding, error) {
	// EnableDotGitCommonDir: in a checkout made by `git worktree add`, objects and
	// refs other than HEAD live in the main repository's directory (commondir).
	repo, err := git.PlainOpenWithOptions(dir, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return nil, fmt.Errorf("open the repository: %w", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return nil, err
	}
	root := wt.Filesystem.Root()
	if r, err := filepath.EvalSymlinks(root); err == nil {
		root = r
	}
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	hash, err := repo.ResolveRevision(plumbing.Revision(c.NewFromRev))
	if err != nil {
		return nil, err
	}
	commit, err := repo.CommitObject(*hash)
	if err != nil {
		return nil, err
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "pvlint-rev-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := writeTree(tree, tmp, fileSizeLimit(c)); err != nil {
		return nil, err
	}
	// The configuration file is looked for up to the repository root, which a .git
	// directory marks: the copy's root is marked the same way.
	if err := os.Mkdir(filepath.Join(tmp, ".git"), 0o755); err != nil {
		return nil, err
	}
	// The run at rev is the same command line in the same place of the old tree.
	within, err := filepath.Rel(root, dir)
	if err != nil || !filepath.IsLocal(within) && within != "." {
		return nil, fmt.Errorf("the working directory is outside the repository at %s", root)
	}
	oldDir := filepath.Join(tmp, within)
	if err := os.MkdirAll(oldDir, 0o755); err != nil {
		return nil, err
	}
	move := func(p string) (string, bool) {
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		rel, err := filepath.Rel(root, p)
		if err != nil || !filepath.IsLocal(rel) && rel != "." {
			return p, false // outside the repository: the same file then and now
		}
		return filepath.Join(tmp, rel), true
	}
	oc := *c
	oc.NewFromRev, oc.NewFromPatch, oc.Baseline, oc.WriteBaseline = "", "", "", ""
	oc.Verbose, oc.Quiet, oc.FailIfNoObjects = false, true, false
	oc.Paths = nil
	for _, p := range c.Paths {
		if p == "-" {
			return nil, errors.New("standard input has no revision to compare with")
		}
		m, _ := move(p)
		if _, err := os.Lstat(m); err == nil {
			oc.Paths = append(oc.Paths, m) // a path the revision does not have had no findings
		}
	}
	if len(c.Paths) > 0 && len(oc.Paths) == 0 {
		return nil, nil
	}
	oc.Helm.ValueFiles = slices.Clone(c.Helm.ValueFiles)
	for i, f := range oc.Helm.ValueFiles {
		oc.Helm.ValueFiles[i], _ = move(f)
	}
	oc.TerraformVars = slices.Clone(c.TerraformVars)
	for i, v := range oc.TerraformVars {
		if v.File != "" {
			oc.TerraformVars[i].File, _ = move(v.File)
		}
	}
	if c.ConfigFile != "" && c.ConfigFile != "none" {
		oc.ConfigFile, _ = move(c.ConfigFile)
	}
	// Custom policies are today's on both sides, so a new policy does not make every
	// one of its findings new.
	oc.Policies = slices.Clone(c.Policies)
	for i, p := range oc.Policies {
		if !filepath.IsAbs(p) {
			oc.Policies[i] = filepath.Join(dir, p)
		}
	}
	// So is the cluster: a snapshot describes it now, whatever the revision.
	oc.Context = slices.Clone(c.Context)
	for i, p := range oc.Context {
		if !filepath.IsAbs(p) {
			oc.Context[i] = filepath.Join(dir, p)
		}
	}
	oe := *e
	oe.Stdin, oe.Stdout, oe.Stderr = strings.NewReader(""), io.Discard, io.Discard
	oe.IsPipe = nil
	oe.workers = nil // the run at the old revision has its own worker pool
	an, err := oe.analyzeIn(&oc, oldDir)
	if err != nil {
		return nil, fmt.Errorf("at that revision: %w", err)
	}
	return an.acc.findings, nil
}

// writeTree writes the regular files of tree under dir. Names that are not local
// paths (never written by Git, but a crafted repository may hold them) and .git
// entries are skipped, as are files over maxFile bytes; the whole tree may not
// exceed maxRevTree bytes.
func writeTree(tree *object.Tree, dir string, maxFile int64) error {
	var total int64
	return tree.Files().ForEach(func(f *object.File) error {
		if f.Mode != filemode.Regular && f.Mode != filemode.Executable {
			return nil
		}
		name := filepath.FromSlash(f.Name)
		if !filepath.IsLocal(name) || slices.Contains(strings.Split(f.Name, "/"), ".git") || f.Size > maxFile {
			return nil
		}
		if total += f.Size; total > maxRevTree {
			return fmt.Errorf("the tree is larger than %d bytes", maxRevTree)
		}
		r, err := f.Reader()
		if err != nil {
			return err
		}
		defer r.Close()
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		_, err = io.Copy(out, io.LimitReader(r, maxFile))
		if cerr := out.Close(); err == nil {
			err = cerr
		}
		return err
	})
}

// fileSizeLimit is the file-size limit of the run (--limit file-size).
func fileSizeLimit(c *Config) int64 {
	o := load.Options{MaxFileSize: load.DefaultMaxFileSize}
	applyLimits(&o, c.Limits)
	return o.MaxFileSize
}
