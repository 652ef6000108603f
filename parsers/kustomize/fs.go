package kustomize

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// errReadOnly is what kustomize gets if it ever tries to write: a build only reads.
var errReadOnly = errors.New("pvlint's kustomize filesystem is read-only")

// confinedFS is the filesystem kustomize builds from: the disk, read-only, limited
// to the linted directory, to regular files and to the size limit, with one change:
// kustomization files are served from what pvlint read and checked (serve.go), and
// no other kustomization file is read.
type confinedFS struct {
	disk   filesys.FileSystem
	env    Env
	served map[string][]byte // absolute path (as written and resolved) → text
}

func newFS(env Env, served map[string][]byte) *confinedFS {
	return &confinedFS{disk: filesys.MakeFsOnDisk(), env: env, served: served}
}

// allowed reports whether a path (resolved through symlinks when it exists) lies in
// the linted directory.
func (c *confinedFS) allowed(p string) bool {
	abs, err := filepath.Abs(p)
	if err != nil {
		return false
	}
	return c.env.insideResolved(abs)
}

func (c *confinedFS) deny(p string) error {
	return fmt.Errorf("%s is outside the linted directory", p)
}

// Create implements filesys.FileSystem; writing is refused.
func (c *confinedFS) Create(string) (filesys.File, error) { return nil, errReadOnly }

// Mkdir implements filesys.FileSystem; writing is refused.
func (c *confinedFS) Mkdir(string) error { return errReadOnly }

// MkdirAll implements filesys.FileSystem; writing is refused.
func (c *confinedFS) MkdirAll(string) error { return errReadOnly }

// RemoveAll implements filesys.FileSystem; writing is refused.
func (c *confinedFS) RemoveAll(string) error { return errReadOnly }

// WriteFile implements filesys.FileSystem; writing is refused.
func (c *confinedFS) WriteFile(string, []byte) error { return errReadOnly }

// Open implements filesys.FileSystem within the linted directory, for regular files
// and directories only (a FIFO or a device would block or never end).
func (c *confinedFS) Open(p string) (filesys.File, error) {
	if !c.allowed(p) {
		return nil, c.deny(p)
	}
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() && !info.IsDir() {
		return nil, fmt.Errorf("%s is not a regular file", p)
	}
	return c.disk.Open(p)
}

// IsDir implements filesys.FileSystem within the linted directory.
func (c *confinedFS) IsDir(p string) bool { return c.allowed(p) && c.disk.IsDir(p) }

// ReadDir implements filesys.FileSystem within the linted directory.
func (c *confinedFS) ReadDir(p string) ([]string, error) {
	if !c.allowed(p) {
		return nil, c.deny(p)
	}
	return c.disk.ReadDir(p)
}

// CleanedAbs implements filesys.FileSystem within the linted directory. A
// kustomization pvlint generated for a directory without one (overlay.go) is served
// though no file holds it.
func (c *confinedFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	if !c.allowed(p) {
		return "", "", c.deny(p)
	}
	if abs, err := filepath.Abs(p); err == nil && IsFileName(filepath.Base(abs)) {
		if _, ok := c.served[abs]; ok {
			if _, err := os.Lstat(abs); err != nil {
				if d, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
					return filesys.ConfirmedDir(d), filepath.Base(abs), nil
				}
			}
		}
	}
	return c.disk.CleanedAbs(p)
}

// Exists implements filesys.FileSystem within the linted directory.
func (c *confinedFS) Exists(p string) bool { return c.allowed(p) && c.disk.Exists(p) }

// Glob implements filesys.FileSystem, keeping matches in the linted directory; a
// pattern whose fixed directory part is outside it is refused before any directory
// is listed.
func (c *confinedFS) Glob(pattern string) ([]string, error) {
	fixed := pattern
	if i := strings.IndexAny(fixed, `*?[\`); i >= 0 {
		fixed = filepath.Dir(fixed[:i] + "x")
	}
	if !c.allowed(fixed) {
		return nil, c.deny(pattern)
	}
	all, err := c.disk.Glob(pattern)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, p := range all {
		if c.allowed(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Walk implements filesys.FileSystem within the linted directory.
func (c *confinedFS) Walk(p string, fn filepath.WalkFunc) error {
	if !c.allowed(p) {
		return c.deny(p)
	}
	return c.disk.Walk(p, func(q string, info os.FileInfo, err error) error {
		if err == nil && !c.allowed(q) {
			if info != nil && info.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		return fn(q, info, err)
	})
}

// ReadFile implements filesys.FileSystem within the linted directory and the size
// limit. A kustomization file is served as pvlint re-emitted it, or refused.
func (c *confinedFS) ReadFile(p string) ([]byte, error) {
	if !c.allowed(p) {
		return nil, c.deny(p)
	}
	if IsFileName(filepath.Base(p)) {
		abs, _ := filepath.Abs(p)
		if text, ok := c.served[abs]; ok {
			return text, nil
		}
		if _, err := os.Lstat(p); err != nil {
			return nil, err // kustomize probes every name; a missing one is no error
		}
		return nil, fmt.Errorf("%s: pvlint did not read this kustomization, so kustomize may not", p)
	}
	data, err := readRegular(p, c.env.maxFileSize())
	if r, ok := err.(refusal); ok {
		return nil, fmt.Errorf("%s is %v", p, r)
	}
	return data, err
}

// readRegular reads a regular file of at most limit bytes. The type and size are
// checked before the file is opened (a FIFO would block the open, a device would
// never end), and again on the open file, which is opened without blocking.
func readRegular(p string, limit int64) ([]byte, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, err
	}
	if err := regular(info, limit); err != nil {
		return nil, err
	}
	f, err := os.OpenFile(p, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if info, err = f.Stat(); err != nil {
		return nil, err
	}
	if err := regular(info, limit); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, refusal(fmt.Sprintf("larger than the %d-byte limit", limit))
	}
	return data, nil
}

// refusal is why a file is not read, phrased to follow "file is".
type refusal string

func (r refusal) Error() string { return string(r) }

func regular(info os.FileInfo, limit int64) error {
	if !info.Mode().IsRegular() {
		return refusal(fileType(info.Mode()) + ", not a regular file")
	}
	if info.Size() > limit {
		return refusal(fmt.Sprintf("larger than the %d-byte limit", limit))
	}
	return nil
}

// fileType names a non-regular file's type for messages.
func fileType(m os.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&os.ModeNamedPipe != 0:
		return "a named pipe"
	case m&os.ModeSocket != 0:
		return "a socket"
	case m&os.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}
