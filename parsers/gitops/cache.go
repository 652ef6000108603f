package gitops

import (
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"

	"github.com/Masterminds/semver/v3"
	"go.yaml.in/yaml/v3"
)

// Cache is the offline chart cache: directories of charts as `helm pull` writes them
// (NAME-VERSION.tgz) or unpacked (a directory holding Chart.yaml). Only the names are
// read here; a chart is read when it is rendered, under the limits of every chart.
type Cache struct {
	Dirs    []string // absolute cache directories, in the order given
	entries []entry
}

type entry struct {
	name, version string
	path          string // absolute archive or directory
	root          string // the cache directory it is in
}

// maxCacheEntries bounds the directory entries listed per cache directory.
const maxCacheEntries = 100000

// archiveName is NAME-VERSION.tgz: the version begins at the first "-" followed by a
// semantic version.
var archiveName = regexp.MustCompile(`^(.+?)-(v?[0-9]+\.[0-9]+\.[0-9]+[0-9A-Za-z.+-]*)\.tgz$`)

// NewCache lists the cache directories. A directory that cannot be listed holds nothing.
func NewCache(dirs []string) *Cache {
	c := &Cache{Dirs: dirs}
	for _, d := range dirs {
		f, err := os.Open(d)
		if err != nil {
			continue
		}
		list, _ := f.ReadDir(maxCacheEntries)
		f.Close()
		for _, e := range list {
			p := filepath.Join(d, e.Name())
			if !e.IsDir() {
				if m := archiveName.FindStringSubmatch(e.Name()); m != nil && e.Type().IsRegular() {
					c.entries = append(c.entries, entry{name: m[1], version: m[2], path: p, root: d})
				}
				continue
			}
			if name, version, ok := chartMeta(filepath.Join(p, "Chart.yaml")); ok {
				c.entries = append(c.entries, entry{name: name, version: version, path: p, root: d})
			}
		}
	}
	return c
}

// chartMeta reads a cached chart directory's name and version from its Chart.yaml: a
// regular file (not a link) of at most 1 MiB.
func chartMeta(p string) (name, version string, ok bool) {
	info, err := os.Lstat(p)
	if err != nil || !info.Mode().IsRegular() || info.Size() > 1<<20 {
		return "", "", false
	}
	fh, err := os.Open(p)
	if err != nil {
		return "", "", false
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, 1<<20))
	if err != nil {
		return "", "", false
	}
	var meta struct {
		Name    string `yaml:"name"`
		Version string `yaml:"version"`
	}
	var doc yaml.Node
	if yaml.Unmarshal(data, &doc) != nil || doc.Decode(&meta) != nil || meta.Name == "" {
		return "", "", false
	}
	return meta.Name, meta.Version, true
}

// Lookup finds a chart by name and version: the exact version, or the highest cached
// version a constraint (">=1.2", "1.x", "*", "" for any) accepts. It returns the
// chart's path and its cache directory.
func (c *Cache) Lookup(name, version string) (path, root string, ok bool) {
	if c == nil {
		return "", "", false
	}
	want := strings.TrimPrefix(strings.TrimSpace(version), "v")
	var matches []entry
	for _, e := range c.entries {
		if e.name == name && strings.TrimPrefix(e.version, "v") == want {
			return e.path, e.root, true
		}
		if e.name == name {
			matches = append(matches, e)
		}
	}
	if len(matches) == 0 {
		return "", "", false
	}
	con, err := semver.NewConstraint(orAny(version))
	if err != nil {
		return "", "", false
	}
	sort.SliceStable(matches, func(i, j int) bool { return newer(matches[i].version, matches[j].version) })
	for _, e := range matches {
		if v, err := semver.NewVersion(e.version); err == nil && con.Check(v) {
			return e.path, e.root, true
		}
	}
	return "", "", false
}

func orAny(v string) string {
	if strings.TrimSpace(v) == "" {
		return "*"
	}
	return v
}

// newer orders versions highest first; unparsable ones last.
func newer(a, b string) bool {
	va, ea := semver.NewVersion(a)
	vb, eb := semver.NewVersion(b)
	switch {
	case ea != nil:
		return false
	case eb != nil:
		return true
	}
	return va.GreaterThan(vb)
}

// IsConstraint reports whether a chart version is a range rather than one version
// (helm pull takes either; the message says which it will get).
func IsConstraint(v string) bool { return strings.ContainsAny(v, "^~<>=*xX| ,") || v == "" }
