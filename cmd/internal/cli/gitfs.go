package cli

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-billy/v5"
)

// guardFS is a read-only view of a git directory that opens regular files only
// (never a named pipe, device or socket, whose open or read may block), each within
// a size bound that depends on what the file is (gitFileLimit); the osfs beneath it
// is bound to the directory (symbolic links out of it are refused).
type guardFS struct {
	billy.Filesystem
	dir  string
	sink *refusals
}

// rel is name relative to the directory: go-git names some files (packs) by their
// absolute path.
func (g guardFS) rel(name string) string {
	if filepath.IsAbs(name) {
		if r, err := filepath.Rel(g.dir, name); err == nil {
			return r
		}
	}
	return name
}

// path is name's absolute path, for messages.
func (g guardFS) path(name string) string { return filepath.Join(g.dir, g.rel(name)) }

// gitFileLimit is the largest size of a file of a git directory that is read, by
// its name relative to the git directory.
func gitFileLimit(name string) int64 {
	name = filepath.ToSlash(name)
	base := filepath.Base(name)
	switch {
	case strings.HasPrefix(name, "objects/pack/") && strings.HasSuffix(base, ".pack"):
		return maxGitPack
	case strings.HasPrefix(name, "objects/pack/") && strings.HasSuffix(base, ".idx"):
		return maxGitIdx
	case strings.HasPrefix(name, "objects/"):
		return maxGitLoose
	case base == "packed-refs":
		return maxGitRefs
	}
	return maxGitSmall
}

// escaped turns the bound osfs's error for a path whose symbolic links lead out of
// its directory (which wraps fs.ErrNotExist, and would read as a missing ref or
// object) into a refusal.
func (g guardFS) escaped(name string, err error) error {
	if err == nil {
		return nil
	}
	path := g.path(name)
	// The bound osfs reads an absolute link target as a path under its directory,
	// where it is missing: a link out of the directory reads as a missing file.
	if errors.Is(err, fs.ErrNotExist) {
		if real, e := filepath.EvalSymlinks(path); e == nil {
			if rel, e := filepath.Rel(g.dir, real); e != nil || !filepath.IsLocal(rel) && rel != "." {
				err = fmt.Errorf("path outside base dir")
			}
		}
	}
	if strings.Contains(err.Error(), "path outside base dir") {
		return g.sink.note(refuse(path, "%s leads outside the repository's directory %s; not read", path, g.dir))
	}
	return err
}

func (g guardFS) Stat(name string) (os.FileInfo, error) {
	info, err := g.Filesystem.Stat(name)
	return info, g.escaped(name, err)
}

func (g guardFS) Lstat(name string) (os.FileInfo, error) {
	info, err := g.Filesystem.Lstat(name)
	return info, g.escaped(name, err)
}

func (g guardFS) ReadDir(name string) ([]os.FileInfo, error) {
	entries, err := g.Filesystem.ReadDir(name)
	return entries, g.escaped(name, err)
}

func (g guardFS) check(name string) error {
	info, err := g.Stat(name)
	if err != nil {
		return err
	}
	path := g.path(name)
	if !info.Mode().IsRegular() {
		return g.sink.note(refuse(path, "%s is not a regular file (%v); not read", path, info.Mode().Type()))
	}
	if limit := gitFileLimit(g.rel(name)); info.Size() > limit {
		return g.sink.note(refuse(path, "%s is larger than %d bytes; not read", path, limit))
	}
	return nil
}

func (g guardFS) Open(name string) (billy.File, error) {
	return g.OpenFile(name, os.O_RDONLY, 0)
}

func (g guardFS) OpenFile(name string, flag int, perm os.FileMode) (billy.File, error) {
	if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
		return nil, fmt.Errorf("%s: the repository is read only", name)
	}
	if err := g.check(name); err != nil {
		return nil, err
	}
	f, err := g.Filesystem.OpenFile(name, flag, perm)
	if err != nil {
		return nil, err
	}
	return limitedFile{f, gitFileLimit(g.rel(name))}, nil
}

func (g guardFS) Create(name string) (billy.File, error) {
	return nil, fmt.Errorf("%s: the repository is read only", name)
}

func (g guardFS) TempFile(dir, prefix string) (billy.File, error) {
	return nil, fmt.Errorf("%s: the repository is read only", dir)
}

func (g guardFS) Rename(from, to string) error {
	return fmt.Errorf("%s: the repository is read only", from)
}

func (g guardFS) Remove(name string) error {
	return fmt.Errorf("%s: the repository is read only", name)
}

func (g guardFS) MkdirAll(name string, perm os.FileMode) error {
	return fmt.Errorf("%s: the repository is read only", name)
}

func (g guardFS) Symlink(target, link string) error {
	return fmt.Errorf("%s: the repository is read only", link)
}

func (g guardFS) Chroot(p string) (billy.Filesystem, error) {
	c, err := g.Filesystem.Chroot(p)
	if err != nil {
		return nil, err
	}
	return guardFS{c, filepath.Join(g.dir, p), g.sink}, nil
}

// limitedFile reads at most limit bytes from its start: a file that grows after
// its size was checked is still read within its bound.
type limitedFile struct {
	billy.File
	limit int64
}

func (f limitedFile) Read(p []byte) (int, error) {
	pos, err := f.File.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, err
	}
	if pos >= f.limit {
		return 0, io.EOF
	}
	if rest := f.limit - pos; int64(len(p)) > rest {
		p = p[:rest]
	}
	return f.File.Read(p)
}

func (f limitedFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= f.limit {
		return 0, io.EOF
	}
	if rest := f.limit - off; int64(len(p)) > rest {
		p = p[:rest]
	}
	return f.File.ReadAt(p, off)
}
