// Reading files inside the linted root: display names, confinement, bounded reads.

package load

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
)

// Display returns the name users see for a path: relative to the working directory
// when inside it, or inside the git checkout that holds the working directory
// (../../modules/app/main.tf, read from envs/prod), with forward slashes.
func (l *loader) display(path string) string { return displayIn(l.opts.Dir, path) }

// displayIn is loader.display for the working directory dir.
func displayIn(dir, path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(dir, abs)
	if err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	if top := topOf(dir); err == nil && top != "" && lexicallyInside(top, abs) {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(path)
}

// tops caches checkoutTop of working directories, for displayIn.
var tops sync.Map

// topOf is the top level of the git checkout holding the working directory dir, or "".
func topOf(dir string) string {
	if t, ok := tops.Load(dir); ok {
		return t.(string)
	}
	top := ""
	if resolved, err := filepath.EvalSymlinks(dir); err == nil {
		top = checkoutTop(resolved)
		if top != "" && resolved != dir {
			top = "" // names are relative to dir as given: keep them absolute
		}
	}
	tops.Store(dir, top)
	return top
}

// lexicallyInside reports whether the clean absolute path p lies within dir, by
// names alone.
func lexicallyInside(dir, p string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// read reads a file within the size limit, following a symlink only when its target
// stays inside the directory tree the user named.
// info is the file's lstat when the walk has it.
func (l *loader) read(path string, info fs.FileInfo) ([]byte, bool) {
	return l.readIn(path, info, "")
}

// readIn is read for a file under root, an absolute directory a symlink must not
// leave ("" for the working directory).
func (l *loader) readIn(path string, info fs.FileInfo, root string) ([]byte, bool) {
	name := l.display(path)
	if info == nil {
		var err error
		if info, err = os.Lstat(path); err != nil {
			l.diag(name, 0, 0, "cannot read: %v", unwrapPath(err))
			return nil, false
		}
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		if _, err := os.Stat(path); errors.Is(err, syscall.ELOOP) {
			l.diag(name, 0, 0, "symlink loop: following it leads back to itself; not read")
			return nil, false
		}
		target, err := filepath.EvalSymlinks(path)
		if err != nil {
			l.diag(name, 0, 0, "cannot follow symlink: %v", unwrapPath(err))
			return nil, false
		}
		if root == "" && !l.inside(target) {
			l.diag(name, 0, 0, "symlink points outside the linted directory (to %q); not read", target)
			return nil, false
		}
		if root != "" && !insideDir(root, target) {
			l.diag(name, 0, 0, "symlink points outside the context path %s (to %q); not read", l.display(root), target)
			return nil, false
		}
		if info, err = os.Stat(target); err != nil {
			l.diag(name, 0, 0, "cannot read: %v", unwrapPath(err))
			return nil, false
		}
	}
	if !info.Mode().IsRegular() {
		l.diag(name, 0, 0, "not a regular file")
		return nil, false
	}
	if info.Size() > l.opts.MaxFileSize {
		l.diag(name, 1, 1, "file is %d bytes, larger than the %d-byte limit; not read", info.Size(), l.opts.MaxFileSize)
		return nil, false
	}
	data, err := readFile(path, info.Size(), l.opts.MaxFileSize)
	if err != nil {
		l.diag(name, 0, 0, "cannot read: %v", unwrapPath(err))
		return nil, false
	}
	if int64(len(data)) > l.opts.MaxFileSize { // it grew since it was examined
		l.diag(name, 1, 1, "file is larger than the %d-byte limit; not read", l.opts.MaxFileSize)
		return nil, false
	}
	return data, true
}

// readAll reads at most limit+1 bytes of f into a buffer sized for the size the file
// had when it was examined, so that reading the usual file allocates once instead of
// growing a buffer the way io.ReadAll does.
func readAll(f io.Reader, size, limit int64) ([]byte, error) {
	data := make([]byte, 0, min(size, limit)+1)
	for {
		n, err := f.Read(data[len(data):cap(data)])
		data = data[:len(data)+n]
		if err == io.EOF {
			return data, nil
		}
		if err != nil {
			return data, err
		}
		if int64(len(data)) > limit {
			return data, nil
		}
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // the file grew: let append pick a larger buffer
		}
	}
}

// inside reports whether an absolute target lies within the working directory.
func (l *loader) inside(target string) bool { return insideDir(l.opts.Dir, target) }

// insideDir reports whether an absolute, symlink-free target lies within dir (whose
// own symlinks are resolved first).
func insideDir(dir, target string) bool {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		root = dir
	}
	rel, err := filepath.Rel(root, target)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// unwrapPath drops the path from *fs.PathError: the diagnostic already names the file.
func unwrapPath(err error) error {
	if pe, ok := err.(*fs.PathError); ok {
		return pe.Err
	}
	return err
}
