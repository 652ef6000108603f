package cli

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/pvlint/pvlint/parsers/load"
	"github.com/pvlint/pvlint/rules/baseline"
	"github.com/pvlint/pvlint/rules/lint"
)

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
	var refused *revRefusal
	if errors.As(err, &refused) {
		// A repository pvlint will not read cannot say what is old: every finding is
		// new, and one PVL000 (reported even with PVL000 disabled, as the report is
		// then not what was asked) says why.
		acc.addDiagnostic(dir, refused.file, fmt.Sprintf("--new-from-rev %s: %s; every finding is reported as new", c.NewFromRev, refused.msg))
		return nil
	}
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
	repo, root, sink, err := openConfinedRepo(dir, fileSizeLimit(c))
	if err != nil {
		return nil, err
	}
	defer closeRepo(repo)
	if d, err := filepath.EvalSymlinks(dir); err == nil {
		dir = d
	}
	hash, err := repo.ResolveRevision(plumbing.Revision(c.NewFromRev))
	if err != nil {
		return nil, sink.or(err)
	}
	commit, err := repo.CommitObject(*hash)
	if err != nil {
		return nil, sink.or(err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return nil, sink.or(err)
	}
	sweepRevTrees()
	tmp, err := os.MkdirTemp("", revTreePrefix(os.Getpid()))
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := writeTree(repo.Storer, tree, tmp, fileSizeLimit(c)); err != nil {
		return nil, sink.or(err)
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
	oc.Targets = nil // the run at rev writes no report: it keeps no world's graph for one
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
	// And the chart cache: charts of other repositories, filled for this run.
	oc.Charts = slices.Clone(c.Charts)
	for i, p := range oc.Charts {
		if !filepath.IsAbs(p) {
			oc.Charts[i] = filepath.Join(dir, p)
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
// entries are refused, symbolic links and submodules skipped, as are files over
// maxFile bytes. The walk is bounded: maxRevEntries entries visited (a subtree named
// many times counted each time), maxTreeDepth levels, maxRevFiles files and
// maxRevTreeSize bytes written; past a bound the revision is refused (revRefusal).
//
// The tree is walked twice: once to count, writing nothing, so that a tree past a
// bound (a 30 KB tree naming one subtree thousands of times is millions of files)
// writes no file at all; then to write.
func writeTree(s storer.EncodedObjectStorer, tree *object.Tree, dir string, maxFile int64) error {
	count := &treeWriter{s: s, dir: dir, maxFile: maxFile, dry: true}
	if err := count.walk(tree, "", 0); err != nil {
		return err
	}
	w := &treeWriter{s: s, dir: dir, maxFile: maxFile}
	return w.walk(tree, "", 0)
}

type treeWriter struct {
	s                     storer.EncodedObjectStorer
	dir                   string
	maxFile               int64
	dry                   bool // count only
	entries, files, bytes int64
}

func (w *treeWriter) walk(tree *object.Tree, prefix string, depth int) error {
	if depth > maxTreeDepth {
		return refuse(w.dir, "the revision's tree is nested deeper than %d levels; not read", maxTreeDepth)
	}
	for _, e := range tree.Entries {
		if w.entries++; w.entries > maxRevEntries {
			return refuse(w.dir, "the revision's tree has more than %d entries (counting a subtree each time it is named); not read", maxRevEntries)
		}
		if e.Name == "" || e.Name == "." || e.Name == ".." || strings.ContainsAny(e.Name, "/\\\x00") || e.Name == ".git" {
			return fmt.Errorf("the revision's tree has an entry named %q", e.Name)
		}
		name := prefix + e.Name
		switch e.Mode {
		case filemode.Dir:
			sub, err := object.GetTree(w.s, e.Hash)
			if err != nil {
				return err
			}
			if err := w.walk(sub, name+"/", depth+1); err != nil {
				return err
			}
		case filemode.Regular, filemode.Executable, filemode.Deprecated:
			if err := w.file(e, name); err != nil {
				return err
			}
		}
	}
	return nil
}

func (w *treeWriter) file(e object.TreeEntry, name string) error {
	blob, err := object.GetBlob(w.s, e.Hash)
	if err != nil {
		return err
	}
	if blob.Size > w.maxFile {
		return nil
	}
	if w.files++; w.files > maxRevFiles {
		return refuse(w.dir, "the revision's tree has more than %d files; not read", maxRevFiles)
	}
	if w.bytes += blob.Size; w.bytes > maxRevTreeSize {
		return refuse(w.dir, "the revision's tree is larger than %d bytes; not read", maxRevTreeSize)
	}
	if w.dry {
		return nil
	}
	r, err := blob.Reader()
	if err != nil {
		return err
	}
	defer r.Close()
	p := filepath.Join(w.dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return err
	}
	out, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = io.Copy(out, io.LimitReader(r, blob.Size))
	if cerr := out.Close(); err == nil {
		err = cerr
	}
	return err
}

// revTreePrefix names the private directories (0700) the revision's tree is written
// in by process pid.
func revTreePrefix(pid int) string { return fmt.Sprintf("pvlint-rev-%d-", pid) }

// sweepRevTrees removes the revision trees of pvlint processes that are gone: a run
// killed while linting its revision (SIGKILL runs no deferred removal) leaves its
// bounded tree behind until the next --new-from-rev run.
func sweepRevTrees() {
	tmp := os.TempDir()
	entries, err := os.ReadDir(tmp)
	if err != nil {
		return
	}
	for _, e := range entries {
		rest, ok := strings.CutPrefix(e.Name(), "pvlint-rev-")
		pidText, _, found := strings.Cut(rest, "-")
		pid, err := strconv.Atoi(pidText)
		if !ok || !found || err != nil || pid <= 0 || !e.IsDir() || processAlive(pid) {
			continue
		}
		os.RemoveAll(filepath.Join(tmp, e.Name()))
	}
}

// fileSizeLimit is the file-size limit of the run (--limit file-size).
func fileSizeLimit(c *Config) int64 {
	o := load.Options{MaxFileSize: load.DefaultMaxFileSize}
	applyLimits(&o, c.Limits)
	return o.MaxFileSize
}
