package cli

import (
	"bufio"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/go-git/go-billy/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/storage/filesystem"
)

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
