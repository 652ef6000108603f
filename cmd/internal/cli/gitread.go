package cli

import (
	"bufio"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
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

// guardedStorer checks every object before go-git reads it (objectGuard.check).
type guardedStorer struct {
	*filesystem.Storage
	g *objectGuard
}

func (s guardedStorer) EncodedObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if err := s.g.check(t, h); err != nil {
		return nil, err
	}
	return s.Storage.EncodedObject(t, h)
}

func (s guardedStorer) DeltaObject(t plumbing.ObjectType, h plumbing.Hash) (plumbing.EncodedObject, error) {
	if err := s.g.check(t, h); err != nil {
		return nil, err
	}
	return s.Storage.DeltaObject(t, h)
}

func (s guardedStorer) EncodedObjectSize(h plumbing.Hash) (int64, error) {
	if err := s.g.check(plumbing.AnyObject, h); err != nil {
		return 0, err
	}
	return s.Storage.EncodedObjectSize(h)
}

// objectGuard checks an object before go-git reads it, so that go-git never inflates
// more than the bound of the object's type nor follows a delta chain that loops or
// runs past maxDeltaDepth (go-git resolves a chain by recursion, and a delta naming
// itself as its base overflows the stack). A loose object is inflated once, up to its
// declared size plus one byte, which must be its whole content; a packed one's chain
// is followed through the packs' indexes, reading each link's header, and the sizes
// its base declares and each delta produces must be within the bound.
type objectGuard struct {
	maxBlob int64 // the file-size limit: larger blobs are skipped, never read
	fs      billy.Filesystem
	dirs    []string // the git directory, then the common directory if any
	packs   []*packIndex
	indexed bool
	checked map[plumbing.Hash]bool
	good    map[goodLink]plumbing.ObjectType // links whose chain was checked, within limit
	sink    *refusals
	loose   map[string]map[string]bool // objects/xx → the loose objects in it
	files   map[string]billy.File      // open packs
}

// close closes the packs the guard opened.
func (g *objectGuard) close() {
	for _, f := range g.files {
		f.Close()
	}
	g.files = nil
}

// isLoose reports whether the object is loose; each objects/xx directory is listed
// once.
func (g *objectGuard) isLoose(hex string) (bool, error) {
	if g.loose == nil {
		g.loose = map[string]map[string]bool{}
	}
	dir := "objects/" + hex[:2]
	names, ok := g.loose[dir]
	if !ok {
		names = map[string]bool{}
		entries, err := g.fs.ReadDir(dir)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return false, err
		}
		for _, e := range entries {
			names[e.Name()] = true
		}
		g.loose[dir] = names
	}
	return names[hex[2:]], nil
}

// pack returns the open pack of that name.
func (g *objectGuard) pack(name string) (billy.File, error) {
	if f, ok := g.files[name]; ok {
		return f, nil
	}
	f, err := g.fs.Open(name)
	if err != nil {
		return nil, err
	}
	if g.files == nil {
		g.files = map[string]billy.File{}
	}
	g.files[name] = f
	return f, nil
}

// goodLink is a pack entry whose chain was checked against limit: a later chain
// through it stops there (chains share their bases, so checking each from scratch
// would inflate the start of every delta again for every object).
type goodLink struct {
	pack  string
	off   int64
	limit int64
}

type packIndex struct {
	name string // objects/pack/pack-X.pack
	idx  *idxfile.MemoryIndex
}

// objectLimit is the largest inflated size of an object of type t that is read:
// blobs are bounded again by the file-size limit when the tree is written.
func objectLimit(t plumbing.ObjectType) int64 {
	if t == plumbing.BlobObject || t == plumbing.AnyObject {
		return maxGitPack
	}
	return maxGitObject
}

func (g *objectGuard) check(want plumbing.ObjectType, h plumbing.Hash) error {
	if g.checked[h] {
		return nil
	}
	if _, err := g.checkAt(h, want, 0, map[plumbing.Hash]bool{}); err != nil {
		return g.sink.note(err)
	}
	if g.checked == nil {
		g.checked = map[plumbing.Hash]bool{}
	}
	g.checked[h] = true
	return nil
}

// checkAt checks object h, the depth-th link of a chain whose links so far are seen,
// and returns the type at the chain's end. An object found nowhere is left to go-git,
// which reports it missing.
func (g *objectGuard) checkAt(h plumbing.Hash, want plumbing.ObjectType, depth int, seen map[plumbing.Hash]bool) (plumbing.ObjectType, error) {
	if seen[h] {
		return 0, refuse(g.dirs[0], "object %s is a delta whose chain of bases loops back to itself; not read", h)
	}
	if depth > maxDeltaDepth {
		return 0, refuse(g.dirs[0], "object %s ends a delta chain longer than %d; not read", h, maxDeltaDepth)
	}
	seen[h] = true
	hex := h.String()
	loose := "objects/" + hex[:2] + "/" + hex[2:]
	if isLoose, err := g.isLoose(hex); err != nil {
		return 0, err
	} else if isLoose {
		return g.checkLoose(loose, want)
	}
	if err := g.index(); err != nil {
		return 0, err
	}
	for _, p := range g.packs {
		off, err := p.idx.FindOffset(h)
		if err != nil {
			continue
		}
		return g.checkPacked(p, off, h, want, depth, seen)
	}
	return want, nil
}

// checkLoose inflates a loose object up to its declared size plus one byte: the
// declared size must be within the bound of its type and must be the whole content.
func (g *objectGuard) checkLoose(name string, want plumbing.ObjectType) (plumbing.ObjectType, error) {
	path := filepath.Join(g.dirs[0], name)
	f, err := g.fs.Open(name)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	z, err := zlib.NewReader(bufio.NewReader(f))
	if err != nil {
		return 0, refuse(path, "loose object %s is not zlib data: %v", name, err)
	}
	br := bufio.NewReader(io.LimitReader(z, 64))
	header, err := br.ReadString(0)
	if err != nil {
		return 0, refuse(path, "loose object %s has no header", name)
	}
	kind, sizeText, _ := strings.Cut(strings.TrimSuffix(header, "\x00"), " ")
	t, err := plumbing.ParseObjectType(kind)
	if err != nil {
		return 0, refuse(path, "loose object %s has an unknown type %q", name, kind)
	}
	size, err := strconv.ParseInt(sizeText, 10, 64)
	if err != nil || size < 0 {
		return 0, refuse(path, "loose object %s has a bad size %q", name, sizeText)
	}
	if limit := objectLimit(typeOr(t, want)); size > limit {
		return 0, refuse(path, "loose object %s declares %d bytes, over the bound of %d; not read", name, size, limit)
	}
	if t == plumbing.BlobObject && size > g.maxBlob {
		// Never read: go-git makes it a stream (LargeObjectThreshold is at most
		// maxBlob) and writeTree skips a file over the file-size limit.
		return t, nil
	}
	rest := int64(br.Buffered())
	n, err := io.Copy(io.Discard, io.LimitReader(z, size-rest+1))
	if err != nil {
		return 0, refuse(path, "loose object %s: %v", name, err)
	}
	if rest+n != size {
		return 0, refuse(path, "loose object %s inflates to %s bytes, not the %d it declares; not read", name, inflated(rest+n, size), size)
	}
	return t, nil
}

func inflated(n, size int64) string {
	if n > size {
		return "more than " + strconv.FormatInt(size, 10)
	}
	return strconv.FormatInt(n, 10)
}

// typeOr is t, or want when t is not known yet.
func typeOr(t, want plumbing.ObjectType) plumbing.ObjectType {
	if t == plumbing.AnyObject || t == plumbing.InvalidObject {
		return want
	}
	return t
}

// index reads the packs' indexes once.
func (g *objectGuard) index() error {
	if g.indexed {
		return nil
	}
	g.indexed = true
	entries, err := g.fs.ReadDir("objects/pack")
	if errors.Is(err, fs.ErrNotExist) {
		return nil // no packs
	}
	if err != nil {
		return err
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".idx") {
			continue
		}
		name := "objects/pack/" + e.Name()
		f, err := g.fs.Open(name)
		if err != nil {
			return err
		}
		idx := idxfile.NewMemoryIndex()
		err = idxfile.NewDecoder(f).Decode(idx)
		f.Close()
		if err != nil {
			return refuse(filepath.Join(g.dirs[0], name), "pack index %s: %v", name, err)
		}
		g.packs = append(g.packs, &packIndex{name: strings.TrimSuffix(name, ".idx") + ".pack", idx: idx})
	}
	return nil
}

// Pack entry types (gitformat-pack).
const (
	packOFSDelta = 6
	packREFDelta = 7
)

// checkPacked follows the chain of the object at off in pack p.
func (g *objectGuard) checkPacked(p *packIndex, off int64, h plumbing.Hash, want plumbing.ObjectType, depth int, seen map[plumbing.Hash]bool) (plumbing.ObjectType, error) {
	path := filepath.Join(g.dirs[0], p.name)
	f, err := g.pack(p.name)
	if err != nil {
		return 0, err
	}
	offsets := map[int64]bool{}
	limit := objectLimit(want)
	var links []int64
	done := func(t plumbing.ObjectType) (plumbing.ObjectType, error) {
		if g.good == nil {
			g.good = map[goodLink]plumbing.ObjectType{}
		}
		for _, o := range links {
			g.good[goodLink{p.name, o, limit}] = t
		}
		return t, nil
	}
	for ; ; depth++ {
		if t, ok := g.good[goodLink{p.name, off, limit}]; ok {
			return done(t)
		}
		links = append(links, off)
		if depth > maxDeltaDepth {
			return 0, refuse(path, "object %s ends a delta chain longer than %d; not read", h, maxDeltaDepth)
		}
		if offsets[off] {
			return 0, refuse(path, "object %s is a delta whose chain of bases loops back to itself; not read", h)
		}
		offsets[off] = true
		typ, size, base, ref, data, err := packEntry(f, off)
		if err != nil {
			return 0, refuse(path, "pack entry at offset %d: %v", off, err)
		}
		switch typ {
		case packOFSDelta, packREFDelta:
			target, err := deltaTarget(f, data)
			if err != nil {
				return 0, refuse(path, "delta at offset %d: %v", off, err)
			}
			if size > limit || target > limit {
				return 0, refuse(path, "delta at offset %d makes %d bytes from %d, over the bound of %d; not read", off, target, size, limit)
			}
			if typ == packOFSDelta {
				off = base
				continue
			}
			// A base named by hash: in this pack, or anywhere else.
			if o, err := p.idx.FindOffset(ref); err == nil {
				if seen[ref] {
					return 0, refuse(path, "object %s is a delta whose chain of bases loops back to itself; not read", h)
				}
				seen[ref] = true
				off = o
				continue
			}
			t, err := g.checkAt(ref, want, depth+1, seen)
			if err != nil {
				return 0, err
			}
			return done(t)
		case 1, 2, 3, 4: // commit, tree, blob, tag
			t := plumbing.ObjectType(typ)
			if limit := objectLimit(typeOr(t, want)); size > limit {
				return 0, refuse(path, "object at offset %d declares %d bytes, over the bound of %d; not read", off, size, limit)
			}
			return done(t)
		default:
			return 0, refuse(path, "pack entry at offset %d has type %d", off, typ)
		}
	}
}

// packEntry reads the header of the pack entry at off: its type, its declared
// (inflated) size, an OFS delta's base offset or a REF delta's base hash, and where
// its zlib data starts.
func packEntry(f io.ReaderAt, off int64) (typ int, size, base int64, ref plumbing.Hash, data int64, err error) {
	var buf [32]byte
	n, err := f.ReadAt(buf[:], off)
	if n == 0 {
		return 0, 0, 0, ref, 0, fmt.Errorf("cannot read: %v", err)
	}
	b := buf[:n]
	i := 0
	next := func() (byte, error) {
		if i >= len(b) {
			return 0, errors.New("truncated header")
		}
		c := b[i]
		i++
		return c, nil
	}
	c, err := next()
	if err != nil {
		return
	}
	typ = int(c>>4) & 7
	size = int64(c & 15)
	for shift := 4; c&0x80 != 0; shift += 7 {
		if shift > 56 {
			return 0, 0, 0, ref, 0, errors.New("size too large")
		}
		if c, err = next(); err != nil {
			return
		}
		size |= int64(c&0x7f) << shift
	}
	switch typ {
	case packOFSDelta:
		if c, err = next(); err != nil {
			return
		}
		back := int64(c & 0x7f)
		for c&0x80 != 0 {
			if back > 1<<55 {
				return 0, 0, 0, ref, 0, errors.New("base offset too large")
			}
			if c, err = next(); err != nil {
				return
			}
			back = (back+1)<<7 | int64(c&0x7f)
		}
		base = off - back
		if back <= 0 || base < 12 {
			return 0, 0, 0, ref, 0, fmt.Errorf("base offset %d is not before the entry", base)
		}
	case packREFDelta:
		if len(b)-i < 20 {
			return 0, 0, 0, ref, 0, errors.New("truncated base hash")
		}
		copy(ref[:], b[i:i+20])
		i += 20
	}
	return typ, size, base, ref, off + int64(i), nil
}

// deltaTarget inflates the start of a delta and returns the size it produces.
func deltaTarget(f io.ReaderAt, data int64) (int64, error) {
	z, err := zlib.NewReader(io.NewSectionReader(f, data, 1<<20))
	if err != nil {
		return 0, err
	}
	br := bufio.NewReader(io.LimitReader(z, 32))
	leb := func() (int64, error) {
		var v int64
		for shift := 0; ; shift += 7 {
			if shift > 56 {
				return 0, errors.New("size too large")
			}
			c, err := br.ReadByte()
			if err != nil {
				return 0, err
			}
			v |= int64(c&0x7f) << shift
			if c&0x80 == 0 {
				return v, nil
			}
		}
	}
	if _, err := leb(); err != nil { // the base's size
		return 0, err
	}
	return leb()
}
