package cli

import (
	"bytes"
	"compress/zlib"
	"crypto/sha1"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/format/idxfile"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/storage/memory"
)

// revReport runs pvlint --new-from-rev rev on paths in dir, in this process, with a
// deadline (a hang fails the test instead of stopping the suite), and returns the
// exit code, the rule IDs and messages of the findings, and stderr.
func revReport(t *testing.T, dir, rev string, paths ...string) (int, []string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		code, stdout, stderr := habitRun{}.run(t, dir, append([]string{"-f", "json", "--new-from-rev", rev}, paths...)...)
		done <- result{code, stdout, stderr}
	}()
	var r result
	select {
	case r = <-done:
	case <-time.After(60 * time.Second):
		t.Fatalf("--new-from-rev %s did not finish in 60s", rev)
	}
	var rep struct {
		Findings []struct {
			RuleID  string `json:"ruleId"`
			Message string `json:"message"`
		} `json:"findings"`
	}
	if r.code != ExitError {
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("exit %d, report %q: %v; stderr %s", r.code, r.stdout, err, r.stderr)
		}
	}
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.RuleID+" "+f.Message)
	}
	return r.code, got, r.stderr
}

// wantAllNew checks a report of a refused repository: one PVL000 whose message holds
// want, and the hazardous Deployment web's findings, reported as new.
func wantAllNew(t *testing.T, code int, findings []string, stderr, want string) {
	t.Helper()
	if code != ExitFindings {
		t.Fatalf("exit %d, want %d; findings %q; stderr %s", code, ExitFindings, findings, stderr)
	}
	refusals, web := 0, 0
	for _, f := range findings {
		switch {
		case strings.HasPrefix(f, "PVL000 ") && strings.Contains(f, "every finding is reported as new"):
			refusals++
			if !strings.Contains(f, want) {
				t.Errorf("PVL000 %q, want it to say %q", f, want)
			}
		case strings.Contains(f, "Deployment web"):
			web++
		}
	}
	if refusals != 1 || web == 0 {
		t.Errorf("findings %q: want one PVL000 refusal and Deployment web's findings", findings)
	}
}

// TestNewFromRevConfined: a checkout whose .git names a repository outside it (a
// .git file's gitdir, a worktree's commondir, alternates, a symbolic link out of the
// git directory) would let that repository decide what is old: there, the hazardous
// Deployment is already committed, which would hide its findings. Each is refused:
// one PVL000, and every finding is new. So is a `git worktree` linted on its own,
// whose git directory is in the main checkout's .git, outside the worktree; the main
// checkout is read.
func TestNewFromRevConfined(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	// outsideRepo is a repository outside the checkout whose HEAD has web already.
	outsideRepo := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "outside")
		repo, err := git.PlainInit(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{"k8s/base.yaml": sharedClaim, "k8s/web.yaml": hazardousDeployment})
		commitAll(t, repo, "web, already")
		return dir
	}
	checkout := func(t *testing.T) string {
		dir := filepath.Join(t.TempDir(), "checkout")
		writeFiles(t, dir, map[string]string{"k8s/base.yaml": sharedClaim, "k8s/web.yaml": hazardousDeployment})
		return dir
	}
	t.Run("gitdir", func(t *testing.T) {
		out, dir := outsideRepo(t), checkout(t)
		writeFiles(t, dir, map[string]string{".git": "gitdir: " + filepath.Join(out, ".git") + "\n"})
		code, findings, stderr := revReport(t, dir, "HEAD", "k8s")
		wantAllNew(t, code, findings, stderr, "is outside the checkout")
	})
	t.Run("gitdir-relative", func(t *testing.T) {
		out, dir := outsideRepo(t), checkout(t)
		rel, err := filepath.Rel(dir, filepath.Join(out, ".git"))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{".git": "gitdir: " + rel + "\n"})
		code, findings, stderr := revReport(t, dir, "HEAD", "k8s")
		wantAllNew(t, code, findings, stderr, "is outside the checkout")
	})
	t.Run("commondir", func(t *testing.T) {
		out, dir := outsideRepo(t), checkout(t)
		head, err := os.ReadFile(filepath.Join(out, ".git", "HEAD"))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{
			".git":                          "gitdir: .gitdir/worktrees/w\n",
			".gitdir/worktrees/w/HEAD":      string(head),
			".gitdir/worktrees/w/commondir": filepath.Join(out, ".git") + "\n",
		})
		code, findings, stderr := revReport(t, dir, "HEAD", "k8s")
		wantAllNew(t, code, findings, stderr, "is outside the checkout")
	})
	t.Run("objects-link", func(t *testing.T) {
		out, dir := outsideRepo(t), checkout(t)
		if err := os.MkdirAll(filepath.Join(dir, ".git"), 0o755); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"HEAD", "refs", "objects", "config"} {
			if err := os.Symlink(filepath.Join(out, ".git", name), filepath.Join(dir, ".git", name)); err != nil {
				t.Fatal(err)
			}
		}
		code, findings, stderr := revReport(t, dir, "HEAD", "k8s")
		wantAllNew(t, code, findings, stderr, "HEAD")
	})
	t.Run("alternates", func(t *testing.T) {
		out := outsideRepo(t)
		dir := checkout(t)
		repo, err := git.PlainInit(dir, false)
		if err != nil {
			t.Fatal(err)
		}
		commitAll(t, repo, "today")
		// HEAD names the outside commit, whose objects only the alternate has.
		outHead, err := os.ReadFile(filepath.Join(out, ".git", "refs", "heads", "master"))
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, dir, map[string]string{
			".git/objects/info/alternates": filepath.Join(out, ".git", "objects") + "\n",
			".git/refs/heads/old":          string(outHead),
		})
		code, findings, stderr := revReport(t, dir, "old", "k8s")
		wantAllNew(t, code, findings, stderr, "objects/info/alternates")
	})
	t.Run("worktree-inside", func(t *testing.T) {
		// A worktree whose git directory is in the main checkout's .git, and the main
		// checkout, where web is committed and so old.
		dir := filepath.Join(t.TempDir(), "checkout")
		main := filepath.Join(dir, "main")
		repo, err := git.PlainInit(main, false)
		if err != nil {
			t.Fatal(err)
		}
		writeFiles(t, main, map[string]string{"k8s/base.yaml": sharedClaim, "k8s/web.yaml": hazardousDeployment})
		commitAll(t, repo, "web")
		head, err := os.ReadFile(filepath.Join(main, ".git", "refs", "heads", "master"))
		if err != nil {
			t.Fatal(err)
		}
		wt := filepath.Join(dir, "wt")
		writeFiles(t, dir, map[string]string{
			"wt/.git":                            "gitdir: ../main/.git/worktrees/wt\n",
			"main/.git/worktrees/wt/HEAD":        string(head),
			"main/.git/worktrees/wt/commondir":   "../..\n",
			"wt/k8s/base.yaml":                   sharedClaim,
			"wt/k8s/web.yaml":                    hazardousDeployment,
			"main/.git/worktrees/wt/gitdir":      filepath.Join(wt, ".git") + "\n",
			"main/.git/worktrees/wt/placeholder": "",
		})
		// The checkout is the worktree's directory: its git directory is outside it,
		// and names this checkout back (its gitdir file), as `git worktree add` makes
		// it: read, and web is old.
		code, findings, stderr := revReport(t, wt, "HEAD", "k8s")
		if code != ExitOK || len(findings) != 0 {
			t.Errorf("linked worktree against HEAD: exit %d, %q, %s", code, findings, stderr)
		}
		// A git directory outside that does not name this checkout back is refused:
		// the .git file alone cannot make an outside history decide what is old.
		writeFiles(t, dir, map[string]string{"main/.git/worktrees/wt/gitdir": filepath.Join(dir, "elsewhere", ".git") + "\n"})
		code, findings, stderr = revReport(t, wt, "HEAD", "k8s")
		wantAllNew(t, code, findings, stderr, "is outside the checkout")
		// Linted from the main checkout, the worktree's files are in it: read.
		code, findings, stderr = revReport(t, main, "HEAD", "k8s")
		if code != ExitOK || len(findings) != 0 {
			t.Errorf("main checkout against its own HEAD: exit %d, %q, %s", code, findings, stderr)
		}
	})
}

// hostileRepo is a checkout with a real repository whose HEAD has only the shared
// claim, and a working tree that adds the hazardous Deployment web: against HEAD,
// web's findings are new and nothing else is.
func hostileRepo(t *testing.T) (dir, gitDir string) {
	t.Helper()
	dir = filepath.Join(t.TempDir(), "checkout")
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, map[string]string{"k8s/base.yaml": sharedClaim})
	commitAll(t, repo, "base")
	writeFiles(t, dir, map[string]string{"k8s/web.yaml": hazardousDeployment})
	return dir, filepath.Join(dir, ".git")
}

// looseObject writes a loose object file whose header declares kind and size and
// whose content is content.
func looseObject(t *testing.T, gitDir string, h plumbing.Hash, header string, content []byte) {
	t.Helper()
	var buf bytes.Buffer
	z, _ := zlib.NewWriterLevel(&buf, zlib.BestSpeed)
	z.Write([]byte(header))
	z.Write(content)
	z.Close()
	hex := h.String()
	p := filepath.Join(gitDir, "objects", hex[:2], hex[2:])
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, buf.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
}

// TestNewFromRevHostileHistory: a repository crafted to kill or hang the run under
// --new-from-rev is refused within its bounds, as one PVL000, and every finding is
// reported as new.
func TestNewFromRevHostileHistory(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	fake := plumbing.NewHash("0123456789abcdef0123456789abcdef01234567")
	t.Run("huge-ref", func(t *testing.T) {
		// A 3 GiB ref file (sparse: it costs no disk) is not read whole.
		dir, gitDir := hostileRepo(t)
		p := filepath.Join(gitDir, "refs", "heads", "huge")
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		f.WriteString(fake.String() + "\n")
		f.Truncate(3 << 30)
		f.Close()
		code, findings, stderr := revReport(t, dir, "huge", "k8s")
		wantAllNew(t, code, findings, stderr, "is larger than")
	})
	t.Run("huge-packed-refs", func(t *testing.T) {
		dir, gitDir := hostileRepo(t)
		f, err := os.Create(filepath.Join(gitDir, "packed-refs"))
		if err != nil {
			t.Fatal(err)
		}
		f.Truncate(3 << 30)
		f.Close()
		// A name no loose ref has is looked up in packed-refs.
		code, findings, stderr := revReport(t, dir, "v1", "k8s")
		wantAllNew(t, code, findings, stderr, "packed-refs is larger than")
	})
	t.Run("fifo-ref", func(t *testing.T) {
		// A named pipe as a ref would block its reader forever.
		dir, gitDir := hostileRepo(t)
		if err := syscall.Mkfifo(filepath.Join(gitDir, "refs", "heads", "pipe"), 0o644); err != nil {
			t.Skipf("mkfifo: %v", err)
		}
		code, findings, stderr := revReport(t, dir, "pipe", "k8s")
		wantAllNew(t, code, findings, stderr, "is not a regular file")
	})
	t.Run("inflation", func(t *testing.T) {
		// A commit whose 64 KiB loose file declares 100 bytes and inflates to 64 MiB:
		// the run allocates far less than that, and refuses it.
		dir, gitDir := hostileRepo(t)
		looseObject(t, gitDir, fake, "commit 100\x00", make([]byte, 64<<20))
		writeFiles(t, dir, map[string]string{".git/refs/heads/bomb": fake.String() + "\n"})
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		code, findings, stderr := revReport(t, dir, "bomb", "k8s")
		runtime.ReadMemStats(&after)
		wantAllNew(t, code, findings, stderr, "inflates to more than 100 bytes")
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 32<<20 {
			t.Errorf("the run allocated %d MiB for a 100-byte commit", grew>>20)
		}
	})
	t.Run("declared-size", func(t *testing.T) {
		// A tree declaring 3 GiB is not read.
		dir, gitDir := hostileRepo(t)
		looseObject(t, gitDir, fake, "commit 3221225472\x00", nil)
		writeFiles(t, dir, map[string]string{".git/refs/heads/big": fake.String() + "\n"})
		code, findings, stderr := revReport(t, dir, "big", "k8s")
		wantAllNew(t, code, findings, stderr, "declares 3221225472 bytes, over the bound")
	})
	t.Run("self-delta", func(t *testing.T) {
		// A pack whose only object is a delta naming itself as its base: go-git would
		// recurse until the stack overflows, which no recover catches.
		dir, gitDir := hostileRepo(t)
		writePack(t, gitDir, []packObject{{hash: fake, refBase: fake}})
		writeFiles(t, dir, map[string]string{".git/refs/heads/loop": fake.String() + "\n"})
		code, findings, stderr := revReport(t, dir, "loop", "k8s")
		wantAllNew(t, code, findings, stderr, "loops back to itself")
	})
	t.Run("delta-cycle", func(t *testing.T) {
		dir, gitDir := hostileRepo(t)
		other := plumbing.NewHash("89abcdef0123456789abcdef0123456789abcdef")
		writePack(t, gitDir, []packObject{{hash: fake, refBase: other}, {hash: other, refBase: fake}})
		writeFiles(t, dir, map[string]string{".git/refs/heads/loop": fake.String() + "\n"})
		code, findings, stderr := revReport(t, dir, "loop", "k8s")
		wantAllNew(t, code, findings, stderr, "loops back to itself")
	})
	t.Run("delta-depth", func(t *testing.T) {
		// A chain of OFS deltas longer than the bound, ending at a blob.
		dir, gitDir := hostileRepo(t)
		objs := []packObject{{hash: plumbing.NewHash("1111111111111111111111111111111111111111"), blob: []byte("x")}}
		for i := 1; i <= maxDeltaDepth+5; i++ {
			objs = append(objs, packObject{ofsBase: 1})
		}
		objs[len(objs)-1].hash = fake
		writePack(t, gitDir, objs)
		writeFiles(t, dir, map[string]string{".git/refs/heads/deep": fake.String() + "\n"})
		code, findings, stderr := revReport(t, dir, "deep", "k8s")
		wantAllNew(t, code, findings, stderr, "delta chain longer than")
	})
}

// packObject is one entry of a crafted pack: a blob, a REF delta on refBase, or an
// OFS delta on the entry ofsBase entries before it. Entries with a hash are indexed.
type packObject struct {
	hash    plumbing.Hash
	blob    []byte
	refBase plumbing.Hash
	ofsBase int
}

// writePack writes objects as a pack and its index under gitDir.
func writePack(t *testing.T, gitDir string, objs []packObject) {
	t.Helper()
	var pack bytes.Buffer
	pack.WriteString("PACK")
	binary.Write(&pack, binary.BigEndian, uint32(2))
	binary.Write(&pack, binary.BigEndian, uint32(len(objs)))
	offsets := make([]int64, len(objs))
	delta := []byte{1, 1, 1, 'y'} // base size 1, target size 1, insert "y"
	header := func(typ int, size int) {
		b := byte(typ<<4) | byte(size&15)
		size >>= 4
		for size > 0 {
			pack.WriteByte(b | 0x80)
			b = byte(size & 0x7f)
			size >>= 7
		}
		pack.WriteByte(b)
	}
	deflate := func(data []byte) {
		z := zlib.NewWriter(&pack)
		z.Write(data)
		z.Close()
	}
	w := new(idxfile.Writer)
	indexed := 0
	for _, o := range objs {
		if !o.hash.IsZero() {
			indexed++
		}
	}
	w.OnHeader(uint32(indexed))
	for i, o := range objs {
		offsets[i] = int64(pack.Len())
		switch {
		case o.blob != nil:
			header(3, len(o.blob))
			deflate(o.blob)
		case o.ofsBase > 0:
			header(6, len(delta))
			back := offsets[i] - offsets[i-o.ofsBase]
			var enc []byte
			enc = append(enc, byte(back&0x7f))
			for back >>= 7; back > 0; back >>= 7 {
				back--
				enc = append([]byte{byte(0x80 | back&0x7f)}, enc...)
			}
			pack.Write(enc)
			deflate(delta)
		default:
			header(7, len(delta))
			pack.Write(o.refBase[:])
			deflate(delta)
		}
		if !o.hash.IsZero() {
			w.OnInflatedObjectContent(o.hash, offsets[i], 0, nil)
		}
	}
	sum := sha1.Sum(pack.Bytes())
	pack.Write(sum[:])
	w.OnFooter(plumbing.Hash(sum))
	idx, err := w.Index()
	if err != nil {
		t.Fatal(err)
	}
	var idxBuf bytes.Buffer
	if _, err := idxfile.NewEncoder(&idxBuf).Encode(idx); err != nil {
		t.Fatal(err)
	}
	base := filepath.Join(gitDir, "objects", "pack", fmt.Sprintf("pack-%x", sum))
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".pack", pack.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(base+".idx", idxBuf.Bytes(), 0o444); err != nil {
		t.Fatal(err)
	}
}

// TestWriteTreeBomb: a small tree naming one subtree 16 times, five levels deep, is a
// million files: it is refused after counting, and not one file is written.
func TestWriteTreeBomb(t *testing.T) {
	st := memory.NewStorage()
	put := func(o interface {
		Encode(plumbing.EncodedObject) error
	}) plumbing.Hash {
		e := st.NewEncodedObject()
		if err := o.Encode(e); err != nil {
			t.Fatal(err)
		}
		h, err := st.SetEncodedObject(e)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	b := st.NewEncodedObject()
	b.SetType(plumbing.BlobObject)
	bw, _ := b.Writer()
	bw.Write([]byte("a: 1\n"))
	bw.Close()
	blob, _ := st.SetEncodedObject(b)
	level := put(&object.Tree{Entries: []object.TreeEntry{{Name: "f.yaml", Mode: filemode.Regular, Hash: blob}}})
	for range 5 {
		var entries []object.TreeEntry
		for c := 'a'; c < 'a'+16; c++ {
			entries = append(entries, object.TreeEntry{Name: string(c), Mode: filemode.Dir, Hash: level})
		}
		level = put(&object.Tree{Entries: entries})
	}
	tr, err := object.GetTree(st, level)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	start := time.Now()
	err = writeTree(st, tr, dir, 1<<20)
	if _, refused := err.(*revRefusal); !refused || !strings.Contains(err.Error(), "more than") {
		t.Errorf("writeTree = %v, want a refusal for too many files", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) > 0 {
		t.Errorf("the bomb wrote %d entries before it was refused", len(entries))
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("refusing took %v", d)
	}
}

// TestSweepRevTrees: the tree a killed run left behind is removed by the next run;
// a live process's is kept.
func TestSweepRevTrees(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	dead := filepath.Join(tmp, revTreePrefix(1<<22+12345)+"x")
	live := filepath.Join(tmp, revTreePrefix(os.Getpid())+"y")
	other := filepath.Join(tmp, "pvlint-rev-notapid-z")
	for _, d := range []string{dead, live, other} {
		writeFiles(t, d, map[string]string{"a/b.yaml": "x: 1\n"})
	}
	sweepRevTrees()
	for d, want := range map[string]bool{dead: false, live: true, other: true} {
		if _, err := os.Stat(d); (err == nil) != want {
			t.Errorf("%s exists %v, want %v", filepath.Base(d), err == nil, want)
		}
	}
}

// TestNewFromRevPacked: an ordinary repository whose objects are in a pack larger
// than the bound of a small file (go-git names packs by their absolute path) is read,
// deltas and all: the web finding committed at HEAD is old, nothing is refused.
func TestNewFromRevPacked(t *testing.T) {
	t.Setenv("TMPDIR", t.TempDir())
	dir := filepath.Join(t.TempDir(), "checkout")
	repo, err := git.PlainInit(dir, false)
	if err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, 3<<20)
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range noise {
		noise[i] = byte(rng.Uint32())
	}
	writeFiles(t, dir, map[string]string{"k8s/base.yaml": sharedClaim, "k8s/web.yaml": hazardousDeployment, "blob.bin": string(noise)})
	commitAll(t, repo, "one")
	writeFiles(t, dir, map[string]string{"k8s/web.yaml": hazardousDeployment + "# two\n"})
	commitAll(t, repo, "two")
	if err := repo.RepackObjects(&git.RepackConfig{}); err != nil {
		t.Fatal(err)
	}
	packs, _ := filepath.Glob(filepath.Join(dir, ".git", "objects", "pack", "*.pack"))
	if len(packs) != 1 {
		t.Fatalf("packs %v, want one", packs)
	}
	if info, err := os.Stat(packs[0]); err != nil || info.Size() <= maxGitSmall {
		t.Fatalf("pack %v: %v, want it larger than %d bytes", info, err, maxGitSmall)
	}
	code, findings, stderr := revReport(t, dir, "HEAD~1", "k8s")
	if code != ExitOK || len(findings) != 0 {
		t.Errorf("against HEAD~1: exit %d, findings %q, stderr %s; want nothing new", code, findings, stderr)
	}
}
