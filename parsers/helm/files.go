package helm

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"helm.sh/helm/v3/pkg/chart"
	"helm.sh/helm/v3/pkg/chart/loader"
	"helm.sh/helm/v3/pkg/ignore"

	"github.com/pvlint/pvlint/parsers/graph"
)

// maxChartBytes bounds the bytes read for one chart, subcharts included (Helm's own
// limit for a decompressed chart).
const maxChartBytes = 100 << 20

// chartFiles is a chart's files as read from its directory or archive, with its
// subcharts. Charts are rebuilt from these for every variant because Helm's
// dependency processing changes the chart it is given.
type chartFiles struct {
	base  string // display path of the chart directory or archive
	files []*loader.BufferedFile
	subs  []*chartFiles
}

// display is the path users open for a file of the chart.
func (cf *chartFiles) display(name string) string { return cf.base + "/" + name }

// file returns the content of one of the chart's own files.
func (cf *chartFiles) file(name string) []byte {
	for _, f := range cf.files {
		if f.Name == name {
			return f.Data
		}
	}
	return nil
}

// loadError is a chart that Helm's loader refused, with the chart it was in.
type loadError struct {
	cf  *chartFiles
	err error
}

func (e *loadError) Error() string { return e.err.Error() }

// build makes a Helm chart from the files, recording which chartFiles each template
// came from.
func (cf *chartFiles) build(ix map[*chart.File]*chartFiles) (*chart.Chart, error) {
	c, err := loader.LoadFiles(cf.files)
	if err != nil {
		return nil, &loadError{cf, err}
	}
	for _, t := range c.Templates {
		ix[t] = cf
	}
	for _, sub := range cf.subs {
		sc, err := sub.build(ix)
		if err != nil {
			return nil, err
		}
		c.AddDependency(sc)
	}
	return c, nil
}

// reader reads a chart directory within the limits and the linted root.
type reader struct {
	env   Env
	total int64
	diags []graph.Diagnostic
}

func (rd *reader) diag(file string, format string, args ...any) {
	rd.diags = append(rd.diags, graph.Diagnostic{
		Range:   graph.Range{File: file, Start: graph.Pos{Line: 1, Column: 1}},
		Message: fmt.Sprintf(format, args...),
	})
}

// readDir reads every file of the chart in dir that .helmignore keeps, as Helm's
// directory loader would, plus the chart-testing values files (ci/*-values.yaml)
// whether or not .helmignore drops them.
func (rd *reader) readDir(dir string) (files []*loader.BufferedFile, ci []*loader.BufferedFile) {
	rules := ignore.Empty()
	if data, ok := rd.read(filepath.Join(dir, ignore.HelmIgnore)); ok {
		r, err := ignore.Parse(bytes.NewReader(data))
		if err != nil {
			rd.diag(rd.env.display(filepath.Join(dir, ignore.HelmIgnore)), "invalid .helmignore: %v", err)
		} else {
			rules = r
		}
	}
	rules.AddDefaults()
	ciIgnored := false // .helmignore drops ci/: read only its values files
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			rd.diag(rd.env.display(p), "cannot read: %v", unwrapPath(err))
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if rel == "." {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return nil
		}
		if d.IsDir() {
			if rules.Ignore(rel, info) {
				if rel == "ci" {
					ciIgnored = true
					return nil
				}
				return filepath.SkipDir
			}
			return nil
		}
		isCI := path.Dir(rel) == "ci" && strings.HasSuffix(rel, "-values.yaml")
		ignored := rules.Ignore(rel, info) || ciIgnored && strings.HasPrefix(rel, "ci/")
		if !isCI && ignored {
			return nil
		}
		data, ok := rd.read(p)
		if !ok {
			return nil
		}
		data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
		if isCI {
			ci = append(ci, &loader.BufferedFile{Name: rel, Data: data})
			if ignored {
				return nil
			}
		}
		files = append(files, &loader.BufferedFile{Name: rel, Data: data})
		return nil
	})
	return files, ci
}

// read reads one file of a chart: regular files, or symlinks whose target stays in
// the linted root, within the size limits. A file that cannot be read is a diagnostic.
func (rd *reader) read(p string) ([]byte, bool) {
	name := rd.env.display(p)
	info, err := os.Lstat(p)
	if err != nil {
		if !errors.Is(err, fs.ErrNotExist) {
			rd.diag(name, "cannot read: %v", unwrapPath(err))
		}
		return nil, false
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			rd.diag(name, "cannot follow symlink: %v", unwrapPath(err))
			return nil, false
		}
		if !rd.env.inside(target) {
			rd.diag(name, "symlink points outside the linted directory (to %q); not read", target)
			return nil, false
		}
		if info, err = os.Stat(target); err != nil {
			rd.diag(name, "cannot read: %v", unwrapPath(err))
			return nil, false
		}
		if info.IsDir() {
			rd.diag(name, "symlinked directory in a chart is not followed")
			return nil, false
		}
	}
	if !info.Mode().IsRegular() {
		rd.diag(name, "not a regular file")
		return nil, false
	}
	limit := rd.env.maxFileSize()
	if info.Size() > limit {
		rd.diag(name, "file is %d bytes, larger than the %d-byte limit; not read", info.Size(), limit)
		return nil, false
	}
	if rd.total+info.Size() > maxChartBytes {
		rd.diag(name, "chart is larger than %d bytes; file not read", maxChartBytes)
		return nil, false
	}
	f, err := os.Open(p)
	if err != nil {
		rd.diag(name, "cannot read: %v", unwrapPath(err))
		return nil, false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		rd.diag(name, "cannot read: %v", unwrapPath(err))
		return nil, false
	}
	rd.total += int64(len(data))
	return data, true
}

// split groups a chart's files into the chart's own and its subcharts (directories
// and .tgz archives under charts/), as Helm's loader does, keeping where each came from.
func (rd *reader) split(base string, files []*loader.BufferedFile, depth int) *chartFiles {
	cf := &chartFiles{base: base}
	groups := map[string][]*loader.BufferedFile{}
	for _, f := range files {
		rest, ok := strings.CutPrefix(f.Name, "charts/")
		if !ok || path.Ext(f.Name) == ".prov" {
			cf.files = append(cf.files, f)
			continue
		}
		name, _, _ := strings.Cut(rest, "/")
		groups[name] = append(groups[name], f)
	}
	names := make([]string, 0, len(groups))
	for n := range groups {
		if strings.IndexAny(n, "_.") != 0 {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	if depth > 16 && len(names) > 0 {
		rd.diag(base, "subcharts nest deeper than 16 levels; not read")
		return cf
	}
	for _, n := range names {
		sub := base + "/charts/" + n
		if strings.HasSuffix(n, ".tgz") {
			g := groups[n]
			if len(g) != 1 || g[0].Name != "charts/"+n {
				continue
			}
			// The chart's size limit counts what archives inflate to, not their bytes
			// on disk: a few kilobytes of gzip can inflate to gigabytes. The inflated
			// size is measured by streaming before Helm's loader holds any of it.
			size, err := inflatedSize(g[0].Data, maxChartBytes-rd.total)
			if err != nil {
				rd.diag(sub, "cannot unpack subchart archive: %v", err)
				continue
			}
			if rd.total+size > maxChartBytes {
				rd.diag(sub, "subchart archive inflates past the chart size limit of %d bytes; not read", int64(maxChartBytes))
				continue
			}
			inner, err := loader.LoadArchiveFiles(bytes.NewReader(g[0].Data))
			if err != nil {
				rd.diag(sub, "cannot unpack subchart archive: %v", err)
				continue
			}
			rd.total += size
			cf.subs = append(cf.subs, rd.split(sub, inner, depth+1))
			continue
		}
		var inner []*loader.BufferedFile
		for _, f := range groups[n] {
			rel := strings.TrimPrefix(f.Name, "charts/"+n+"/")
			if rel == f.Name {
				continue
			}
			inner = append(inner, &loader.BufferedFile{Name: rel, Data: f.Data})
		}
		cf.subs = append(cf.subs, rd.split(sub, inner, depth+1))
	}
	return cf
}

// unwrapPath drops the path from *fs.PathError: the diagnostic already names the file.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// inflatedSize is how many bytes a gzip archive inflates to, counting at most limit+1
// of them (more means too large) without keeping any.
func inflatedSize(archive []byte, limit int64) (int64, error) {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return 0, err
	}
	defer zr.Close()
	n, err := io.Copy(io.Discard, io.LimitReader(zr, max(limit, 0)+1))
	if err != nil {
		return n, err
	}
	return n, nil
}

// maxArchiveEntries bounds the entries of a chart archive read from the chart cache:
// far more than any published chart holds, few enough to list cheaply.
const maxArchiveEntries = 10000

// readArchive reads a chart archive (NAME-VERSION.tgz, as `helm pull` writes it) as
// the files of a chart, under the limits of a chart directory: the archive's own size
// is a file's, what it inflates to counts against the chart's, and it is listed
// before Helm's loader holds any of it. An archive with links, absolute or escaping
// paths, or too many entries is refused whole: a diagnostic at the archive.
func (rd *reader) readArchive(p string) []*loader.BufferedFile {
	name := rd.env.display(p)
	data, ok := rd.read(p)
	if !ok {
		if len(rd.diags) == 0 {
			rd.diag(name, "chart archive does not exist")
		}
		return nil
	}
	rd.total -= int64(len(data)) // what counts is what it inflates to
	key := sha256.Sum256(data)
	if files, size, ok := archiveMemo.get(key); ok && size <= maxChartBytes-rd.total {
		rd.total += size
		return files
	}
	size, err := checkArchive(data, maxChartBytes-rd.total)
	if err != nil {
		rd.diag(name, "chart archive not read: %v", err)
		return nil
	}
	files, err := loader.LoadArchiveFiles(bytes.NewReader(data))
	if err != nil {
		rd.diag(name, "chart archive not read: %v", err)
		return nil
	}
	rd.total += size
	for _, f := range files {
		f.Data = bytes.TrimPrefix(f.Data, []byte("\xef\xbb\xbf"))
	}
	archiveMemo.put(key, files, size)
	return files
}

// archiveMemo keeps the files of the chart archives this process read and accepted,
// by content, so that the releases of one cached chart (a home-lab's 47 releases of
// one app-template version) inflate and list it once. What it holds is bounded
// (maxArchiveMemo bytes inflated); each use gets its own copy of the files.
var archiveMemo = &memo{byKey: map[[32]byte]memoEntry{}}

const maxArchiveMemo = 64 << 20

type memo struct {
	mu    sync.Mutex
	byKey map[[32]byte]memoEntry
	bytes int64
}

type memoEntry struct {
	files []*loader.BufferedFile
	size  int64
}

func (m *memo) get(key [32]byte) ([]*loader.BufferedFile, int64, bool) {
	m.mu.Lock()
	e, ok := m.byKey[key]
	m.mu.Unlock()
	if !ok {
		return nil, 0, false
	}
	return cloneFiles(e.files), e.size, true
}

func (m *memo) put(key [32]byte, files []*loader.BufferedFile, size int64) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.byKey[key]; ok || m.bytes+size > maxArchiveMemo {
		return
	}
	m.byKey[key] = memoEntry{files: cloneFiles(files), size: size}
	m.bytes += size
}

func cloneFiles(files []*loader.BufferedFile) []*loader.BufferedFile {
	out := make([]*loader.BufferedFile, len(files))
	for i, f := range files {
		out[i] = &loader.BufferedFile{Name: f.Name, Data: bytes.Clone(f.Data)}
	}
	return out
}

// checkArchive lists a gzip tar archive without keeping its content and returns the
// bytes its files inflate to: an error when that passes limit, when an entry is a
// link or a device, when a path is absolute or leaves the archive, or when there are
// more than maxArchiveEntries entries.
func checkArchive(archive []byte, limit int64) (int64, error) {
	zr, err := gzip.NewReader(bytes.NewReader(archive))
	if err != nil {
		return 0, err
	}
	defer zr.Close()
	tr := tar.NewReader(io.LimitReader(zr, max(limit, 0)+1<<20)) // headers take room too
	var total int64
	for n := 0; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
		if n >= maxArchiveEntries {
			return total, fmt.Errorf("more than %d entries", maxArchiveEntries)
		}
		switch h.Typeflag {
		case tar.TypeReg, tar.TypeDir, tar.TypeXGlobalHeader, tar.TypeXHeader:
		case tar.TypeSymlink, tar.TypeLink:
			return total, fmt.Errorf("entry %q is a link (to %q); links are not followed", h.Name, h.Linkname)
		default:
			return total, fmt.Errorf("entry %q is not a regular file", h.Name)
		}
		clean := path.Clean(strings.ReplaceAll(h.Name, `\`, "/"))
		if path.IsAbs(clean) || clean == ".." || strings.HasPrefix(clean, "../") {
			return total, fmt.Errorf("entry %q has a path outside the chart", h.Name)
		}
		m, err := io.Copy(io.Discard, io.LimitReader(tr, max(limit-total, 0)+1))
		total += m
		if err != nil {
			return total, err
		}
		if total > limit {
			return total, fmt.Errorf("it inflates past the chart size limit of %d bytes", int64(maxChartBytes))
		}
	}
}
