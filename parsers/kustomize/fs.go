package kustomize

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	yaml "go.yaml.in/yaml/v3"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// errReadOnly is what kustomize gets if it ever tries to write: a build only reads.
var errReadOnly = errors.New("pvlint's kustomize filesystem is read-only")

// confinedFS is the filesystem kustomize builds from: the disk, read-only, limited
// to the linted directory and the size limit, with one change: the top
// kustomization asks for origin annotations (buildMetadata: [originAnnotations]), so
// every output object says which file it came from.
type confinedFS struct {
	disk filesys.FileSystem
	env  Env
	top  string // absolute path of the top kustomization file
}

func newFS(env Env, top string) *confinedFS {
	return &confinedFS{disk: filesys.MakeFsOnDisk(), env: env, top: top}
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

// Open implements filesys.FileSystem within the linted directory.
func (c *confinedFS) Open(p string) (filesys.File, error) {
	if !c.allowed(p) {
		return nil, c.deny(p)
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

// CleanedAbs implements filesys.FileSystem within the linted directory.
func (c *confinedFS) CleanedAbs(p string) (filesys.ConfirmedDir, string, error) {
	if !c.allowed(p) {
		return "", "", c.deny(p)
	}
	return c.disk.CleanedAbs(p)
}

// Exists implements filesys.FileSystem within the linted directory.
func (c *confinedFS) Exists(p string) bool { return c.allowed(p) && c.disk.Exists(p) }

// Glob implements filesys.FileSystem, keeping matches in the linted directory.
func (c *confinedFS) Glob(pattern string) ([]string, error) {
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
// limit, adding origin annotations to the top kustomization.
func (c *confinedFS) ReadFile(p string) ([]byte, error) {
	if !c.allowed(p) {
		return nil, c.deny(p)
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	limit := c.env.maxFileSize()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than the %d-byte limit", p, limit)
	}
	if abs, _ := filepath.Abs(p); abs == c.top {
		return withOrigins(data), nil
	}
	return data, nil
}

// withOrigins adds originAnnotations to a kustomization's buildMetadata. Text that
// does not parse is returned unchanged for kustomize to report.
func withOrigins(data []byte) []byte {
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
		return data
	}
	m := doc.Content[0]
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value != "buildMetadata" {
			continue
		}
		list := m.Content[i+1]
		if list.Kind != yaml.SequenceNode {
			return data
		}
		for _, it := range list.Content {
			if it.Value == "originAnnotations" {
				return data
			}
		}
		list.Content = append(list.Content, &yaml.Node{Kind: yaml.ScalarNode, Value: "originAnnotations"})
		return marshal(&doc, data)
	}
	m.Content = append(m.Content,
		&yaml.Node{Kind: yaml.ScalarNode, Value: "buildMetadata"},
		&yaml.Node{Kind: yaml.SequenceNode, Content: []*yaml.Node{{Kind: yaml.ScalarNode, Value: "originAnnotations"}}})
	return marshal(&doc, data)
}

func marshal(doc *yaml.Node, orig []byte) []byte {
	out, err := yaml.Marshal(doc)
	if err != nil {
		return orig
	}
	return out
}
