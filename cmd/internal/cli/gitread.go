package cli

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/storage/filesystem"
	"github.com/go-git/go-git/v5/storage/filesystem/dotgit"
)

// The bounds of reading a repository for --new-from-rev. The repository comes with
// the pull request being linted: every read is confined to the checkout and bounded,
// and a repository past a bound is refused (revRefusal), never read whole.
const (
	maxGitSmall    = 1 << 20   // a .git file, HEAD, commondir, a loose ref, config
	maxGitRefs     = 64 << 20  // packed-refs
	maxGitLoose    = 64 << 20  // a loose object file, compressed
	maxGitIdx      = 256 << 20 // a pack index, read whole into memory
	maxGitPack     = 8 << 30   // a pack, read at offsets
	maxGitObject   = 16 << 20  // a commit, tree or tag object, inflated
	maxDeltaDepth  = 1000      // links of a delta chain (git's own default is 50)
	maxRevEntries  = 200_000   // tree entries visited, a subtree counted each time it is named
	maxRevFiles    = 50_000    // files written out of the revision's tree
	maxRevTreeSize = 512 << 20 // bytes written out of the revision's tree
	maxTreeDepth   = 256       // nested trees
)

// revRefusal is a repository pvlint refuses to read at --new-from-rev: its metadata
// leads outside the checkout, or it is past one of the bounds above. The run reports
// it as one PVL000 at file (absolute) and reports every finding as new.
type revRefusal struct {
	file string
	msg  string
}

func (r *revRefusal) Error() string { return r.msg }

// refusals keeps the first refusal met while reading a repository: go-git turns
// some errors into others (a ref whose object cannot be read is "reference not
// found"), and the refusal is what the run must report.
type refusals struct{ first *revRefusal }

// note records err when it is a refusal, and returns it.
func (r *refusals) note(err error) error {
	var rr *revRefusal
	if r != nil && r.first == nil && errors.As(err, &rr) {
		r.first = rr
	}
	return err
}

// or returns the first refusal when there was one, else err.
func (r *refusals) or(err error) error {
	if r != nil && r.first != nil {
		return r.first
	}
	return err
}

func refuse(file, format string, args ...any) error {
	return &revRefusal{file: file, msg: fmt.Sprintf(format, args...)}
}

// errNoRepository is a working directory in no repository: a usage error.
var errNoRepository = errors.New("open the repository: repository does not exist")

// openConfinedRepo opens the repository dir is in without following anything out of
// its checkout: the .git directory (or the directory a .git file names), its
// commondir and every file read through them must resolve inside the checkout (the
// directory holding .git); symbolic links out of it are refused as they are met;
// alternates, which name other object stores, are refused. It returns the repository
// and the checkout's root, with symbolic links resolved.
func openConfinedRepo(dir string, maxBlob int64) (*git.Repository, string, *refusals, error) {
	d, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, "", nil, err
	}
	root := d
	for {
		if _, err := os.Lstat(filepath.Join(root, ".git")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			return nil, "", nil, errNoRepository
		}
		root = parent
	}
	dotGit := filepath.Join(root, ".git")
	inside := func(p string) bool {
		rel, err := filepath.Rel(root, p)
		return err == nil && filepath.IsLocal(rel)
	}
	// linked is set for a checkout made by `git worktree add`, whose git directory
	// (<common>/worktrees/<name>) and common directory lie outside it: they are read
	// only when the git directory's own gitdir file points back at this checkout's
	// .git, which no file inside the checkout can forge.
	linked := false
	resolve := func(named, from string) (string, error) {
		if !filepath.IsAbs(named) {
			named = filepath.Join(from, named)
		}
		r, err := filepath.EvalSymlinks(named)
		if err != nil {
			return "", refuse(dotGit, "the repository directory %s cannot be read: %v", named, err)
		}
		if !inside(r) && !linked {
			return "", refuse(dotGit, "the repository's git directory %s is outside the checkout %s; not read", named, root)
		}
		return r, nil
	}
	gitDir, err := resolve(dotGit, root)
	if err != nil {
		return nil, "", nil, err
	}
	info, err := os.Stat(gitDir)
	if err != nil {
		return nil, "", nil, err
	}
	if info.Mode().IsRegular() {
		text, err := readSmall(gitDir, maxGitSmall)
		if err != nil {
			return nil, "", nil, err
		}
		line, _, _ := strings.Cut(text, "\n")
		named, ok := strings.CutPrefix(strings.TrimSpace(line), "gitdir:")
		if !ok {
			return nil, "", nil, refuse(dotGit, ".git file has no gitdir: line")
		}
		named = strings.TrimSpace(named)
		if !filepath.IsAbs(named) {
			named = filepath.Join(root, named)
		}
		linked = linkedWorktree(named, dotGit)
		if gitDir, err = resolve(named, root); err != nil {
			return nil, "", nil, err
		}
	}
	if info, err := os.Stat(gitDir); err != nil || !info.IsDir() {
		return nil, "", nil, refuse(dotGit, "the repository's git directory %s is not a directory", gitDir)
	}
	dirs := []string{gitDir}
	sink := &refusals{}
	var gitFS billy.Filesystem = guardFS{osfs.New(gitDir, osfs.WithBoundOS()), gitDir, sink}
	if text, err := readSmall(filepath.Join(gitDir, "commondir"), maxGitSmall); err == nil {
		common, err := resolve(strings.TrimSpace(text), gitDir)
		if err != nil {
			return nil, "", nil, err
		}
		if linked && filepath.Dir(gitDir) != filepath.Join(common, "worktrees") {
			return nil, "", nil, refuse(dotGit, "the worktree's git directory %s is not one of %s's worktrees; not read", gitDir, common)
		}
		dirs = append(dirs, common)
		gitFS = dotgit.NewRepositoryFilesystem(gitFS, guardFS{osfs.New(common, osfs.WithBoundOS()), common, sink})
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, "", nil, err
	}
	for _, g := range dirs {
		alt := filepath.Join(g, "objects", "info", "alternates")
		if _, err := os.Lstat(alt); err == nil {
			return nil, "", nil, refuse(alt, "the repository names other object stores (objects/info/alternates); not read")
		}
	}
	st := filesystem.NewStorageWithOptions(gitFS, cache.NewObjectLRUDefault(), filesystem.Options{
		KeepDescriptors: true, // a pack is opened once, not per object (closeRepo closes it)
		// Larger objects are streams, read only when written out (within the bound).
		LargeObjectThreshold: min(maxGitObject, maxBlob),
		AlternatesFS:         gitFS,
	})
	g := &objectGuard{maxBlob: maxBlob, fs: gitFS, dirs: dirs, sink: sink}
	repo, err := git.Open(guardedStorer{st, g}, nil)
	if err != nil {
		return nil, "", nil, sink.or(err)
	}
	return repo, root, sink, nil
}

// linkedWorktree reports whether gitDir, named by the checkout's .git file dotGit,
// is the administrative directory git made for this checkout with `git worktree
// add`: its gitdir file names dotGit back. A .git file that names another repository
// (an attack on --new-from-rev: an outside history deciding which findings are old)
// has no such file pointing here.
func linkedWorktree(gitDir, dotGit string) bool {
	back, err := readSmall(filepath.Join(gitDir, "gitdir"), maxGitSmall)
	if err != nil {
		return false
	}
	back = strings.TrimSpace(back)
	if !filepath.IsAbs(back) {
		back = filepath.Join(gitDir, back)
	}
	b, err1 := filepath.EvalSymlinks(back)
	d, err2 := filepath.EvalSymlinks(dotGit)
	return err1 == nil && err2 == nil && b == d
}

// closeRepo closes the files a repository of openConfinedRepo keeps open.
func closeRepo(repo *git.Repository) {
	if s, ok := repo.Storer.(guardedStorer); ok {
		s.Storage.Close()
		s.g.close()
	}
}

// readSmall reads a regular file of at most limit bytes; anything else is refused.
func readSmall(path string, limit int64) (string, error) {
	info, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !info.Mode().IsRegular() {
		return "", refuse(path, "%s is not a regular file (%v); not read", path, info.Mode().Type())
	}
	if info.Size() > limit {
		return "", refuse(path, "%s is larger than %d bytes; not read", path, limit)
	}
	data, err := os.ReadFile(path)
	return string(data), err
}
