package config

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// A configuration file found in the linted tree is part of the checkout, and on a
// pull request whoever opened it wrote it. Such a file may only name files inside
// the checkout it belongs to (the repository: the directory where the search for it
// stopped at .git, or the file's own directory when there is no .git above it), and
// it must itself be a regular file there. Files named on the command line (--config,
// --policy, --values, --var-file) were chosen by whoever runs pvlint and may be
// anywhere.

// maxSize bounds a configuration file; a real one is a few kilobytes.
const maxSize = 1 << 20

// Discover returns the configuration file that applies in dir (see Find) and the
// checkout it belongs to. It returns "", "" when there is none.
func Discover(dir string) (path, root string, err error) {
	path, err = Find(dir)
	if err != nil || path == "" {
		return "", "", err
	}
	return path, Checkout(path), nil
}

// Checkout is the checkout a configuration file found in the tree belongs to: the
// nearest directory at or above the file's own that holds .git, or the file's own
// directory when none does. Its files are the only ones the configuration may name.
func Checkout(path string) string {
	root := filepath.Dir(path)
	for d := root; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return root
		}
		d = parent
	}
}

// LoadDiscovered reads a configuration file found in the tree (Discover): it must be
// a regular file inside root, checked before it is opened, and every file it names
// must be inside root (Confine).
func LoadDiscovered(path, display, root string) (*Config, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("configuration %s: %w", display, err)
	}
	if !Inside(root, abs) {
		return nil, fmt.Errorf("configuration %s: a symbolic link to a file outside the checkout; not read", display)
	}
	data, err := ReadRegular(abs, maxSize)
	if err != nil {
		return nil, fmt.Errorf("read configuration %s: %w", display, err)
	}
	c, err := Parse(display, filepath.Dir(abs), data)
	if err != nil {
		return nil, err
	}
	c.Root = root
	return c, c.Confine(root)
}

// Confine checks that every file the configuration names is inside root once
// symbolic links are resolved; the first that is not is an Error at its entry.
func (c *Config) Confine(root string) error {
	for _, f := range c.Files {
		if !Inside(root, f.Path) {
			return c.errorAt(f.Pos, "%s entry %q is outside the checkout: a configuration file found in the linted tree may only name files inside its repository (name other files on the command line)", f.Key, f.Written)
		}
	}
	return nil
}

// Inside reports whether p (absolute) is root or below it once symbolic links are
// resolved in both. Of a path that does not exist, the longest part that does is
// resolved and the rest judged as written, so a link to outside cannot hide behind a
// missing file.
func Inside(root, p string) bool {
	root, p = resolve(root), resolve(p)
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

func resolve(p string) string {
	p = filepath.Clean(p)
	rest := ""
	for {
		if r, err := filepath.EvalSymlinks(p); err == nil {
			return filepath.Join(r, rest)
		}
		parent := filepath.Dir(p)
		if parent == p {
			return filepath.Join(p, rest)
		}
		rest = filepath.Join(filepath.Base(p), rest)
		p = parent
	}
}

// ReadRegular reads a regular file of at most limit bytes, refusing any other kind of
// file before opening it (a named pipe would block the open, a device never end) and
// opening it without blocking.
func ReadRegular(p string, limit int64) ([]byte, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, unwrapPath(err)
	}
	if err := regular(info, limit); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, unwrapPath(err)
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, unwrapPath(err)
	}
	if err := regular(info, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, unwrapPath(err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("larger than %d bytes", limit)
	}
	return data, nil
}

func regular(info os.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return fmt.Errorf("not a regular file (%v)", info.Mode().Type())
	}
	if info.Size() > limit {
		return fmt.Errorf("larger than %d bytes", limit)
	}
	return nil
}

func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
