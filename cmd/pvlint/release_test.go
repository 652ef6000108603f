package main

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/pvlint/pvlint/parsers/worker"
)

// releaseTag is the tag the snapshot's source is given: the newest release the test
// repository has, from which GoReleaser derives the snapshot's version.
const releaseTag = "v0.1.0"

// targets are the platforms .goreleaser.yaml must build, as archive names.
var targets = []string{
	"pvlint_linux_amd64.tar.gz", "pvlint_linux_arm64.tar.gz",
	"pvlint_darwin_amd64.tar.gz", "pvlint_darwin_arm64.tar.gz",
	"pvlint_windows_amd64.zip", "pvlint_windows_arm64.zip",
}

// release is a GoReleaser snapshot of this source: dist is GoReleaser's output
// directory and version the version its binaries report (v0.1.1-snapshot).
type release struct {
	dist, version string
}

var (
	snapshotOnce sync.Once
	snapshotRel  *release
	snapshotErr  string
	snapshotTmp  string
)

// TestMain serves worker mode, and removes the snapshot, which outlives the test that
// built it: the release tests share one build of every target.
func TestMain(m *testing.M) {
	// Runs through cli.Main isolate charts and Terraform modules in worker processes:
	// this test binary, started again in worker mode.
	worker.ServeIfWorker()
	code := m.Run()
	if snapshotTmp != "" {
		_ = os.RemoveAll(snapshotTmp)
	}
	os.Exit(code)
}

// snapshot runs `goreleaser check` and `goreleaser release --snapshot --clean` on a copy
// of this source tagged releaseTag, once for all the tests that need it, and returns
// the result. A failure fails every test that asks.
func snapshot(t *testing.T) *release {
	t.Helper()
	goreleaser := tool(t, "goreleaser")
	snapshotOnce.Do(func() {
		snapshotErr = "the snapshot build failed in another test"
		tmp, err := os.MkdirTemp("", "pvlint-release-")
		if err != nil {
			t.Fatal(err)
		}
		snapshotTmp = tmp
		src := filepath.Join(tmp, "src")
		copySource(t, src)
		gitRepo(t, src)
		mustRun(t, src, nil, "git", "tag", releaseTag)
		// Without a remote GoReleaser ignores the repository's git state (tag included)
		// in snapshot mode.
		mustRun(t, src, nil, "git", "remote", "add", "origin", "https://github.com/pvlint/pvlint.git")
		// GoReleaser builds with the same caches as the tests; nothing is downloaded that
		// the module cache does not hold already.
		env := []string{"GOCACHE=" + goEnv(t, "GOCACHE"), "GOMODCACHE=" + goEnv(t, "GOMODCACHE"), "GOFLAGS=-mod=readonly",
			"PVLINT_BUSYBOX=" + busyboxDir(t)}
		mustRun(t, src, env, goreleaser, "check")
		mustRun(t, src, env, goreleaser, "release", "--snapshot", "--clean")
		var meta struct{ Version, Tag string }
		if err := json.Unmarshal([]byte(mustReadFile(t, filepath.Join(src, "dist", "metadata.json"))), &meta); err != nil {
			t.Fatalf("dist/metadata.json: %v", err)
		}
		if meta.Tag != releaseTag || !strings.HasSuffix(meta.Version, "-snapshot") {
			t.Fatalf("snapshot version %q of tag %q, want a -snapshot version of %s", meta.Version, meta.Tag, releaseTag)
		}
		snapshotRel = &release{dist: filepath.Join(src, "dist"), version: "v" + meta.Version}
		snapshotErr = ""
	})
	if snapshotErr != "" {
		t.Fatal(snapshotErr)
	}
	return snapshotRel
}

// busyboxDir is the directory of Debian's static busybox for each architecture that
// packaging/busybox/fetch.sh writes (make tools: .tools/busybox; PVLINT_BUSYBOX names
// another), which the snapshot's -debug images take.
func busyboxDir(t *testing.T) string {
	t.Helper()
	dir := os.Getenv("PVLINT_BUSYBOX")
	if dir == "" {
		dir = filepath.Join(repoRoot, ".tools", "busybox")
	}
	for _, arch := range imageArchs {
		if _, err := os.Stat(filepath.Join(dir, arch, "busybox")); err != nil {
			missingTool(t, "busybox for the -debug image (packaging/busybox/fetch.sh "+dir+")")
		}
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// TestGoReleaserSnapshot checks the snapshot the way a user downloading a release
// would: an archive for every target, each listed in checksums.txt with its SHA-256,
// each holding the binary, the README and the LICENSE, and the linux/amd64 binary reporting the
// snapshot's version. The other targets are checked by their Go build headers.
func TestGoReleaserSnapshot(t *testing.T) {
	rel := snapshot(t)
	sums := checksums(t, filepath.Join(rel.dist, "checksums.txt"))
	if len(sums) != len(targets)+2*len(imageArchs) {
		t.Errorf("checksums.txt lists %d files, want the %d archives and the %d container images (and as many -debug): %v", len(sums), len(targets), len(imageArchs), sums)
	}
	for _, name := range targets {
		path := filepath.Join(rel.dist, name)
		want, ok := sums[name]
		if !ok {
			t.Errorf("%s is not in checksums.txt", name)
			continue
		}
		if got := sha256File(t, path); got != want {
			t.Errorf("%s: SHA-256 %s, checksums.txt says %s", name, got, want)
		}
		exe := "pvlint"
		if strings.Contains(name, "windows") {
			exe = "pvlint.exe"
		}
		files := archiveFiles(t, path)
		if files[exe] == nil || files["README.md"] == nil || files["LICENSE"] == nil {
			t.Errorf("%s holds %v, want %s, README.md and LICENSE", name, keys(files), exe)
			continue
		}
		// The platform is in the executable's header; the Go build info is not read
		// here (the binary is stripped), only its format and machine.
		osArch := strings.TrimSuffix(strings.TrimSuffix(strings.TrimPrefix(name, "pvlint_"), ".tar.gz"), ".zip")
		if got := platformOf(files[exe]); got != osArch {
			t.Errorf("%s: the binary is for %s", name, got)
		}
	}

	// The linux/amd64 binary runs, reports the snapshot's version and lints.
	bin := filepath.Join(t.TempDir(), "pvlint")
	if err := os.WriteFile(bin, archiveFiles(t, filepath.Join(rel.dist, "pvlint_linux_amd64.tar.gz"))["pvlint"], 0o755); err != nil {
		t.Fatal(err)
	}
	if out := mustRun(t, repoRoot, nil, bin, "version"); !strings.HasPrefix(out, "pvlint "+rel.version+" ") && strings.TrimSpace(out) != "pvlint "+rel.version {
		t.Errorf("pvlint version: %q, want pvlint %s", out, rel.version)
	}
	if r := run(t, repoRoot, nil, bin, "testdata/ci/sample/hazard"); r.code != 1 || !strings.Contains(r.output, "[PVL002 rwo-multi-pod]") {
		t.Errorf("the released binary on the hazard sample: exit %d\n%s", r.code, r.output)
	}
}

// checksums reads a checksums.txt (sha256sum's format: "HEX  NAME" per line).
func checksums(t *testing.T, path string) map[string]string {
	t.Helper()
	out := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(mustReadFile(t, path)))
	for sc.Scan() {
		sum, name, ok := strings.Cut(sc.Text(), "  ")
		if !ok || len(sum) != 64 {
			t.Fatalf("%s: line %q is not in sha256sum's format", path, sc.Text())
		}
		out[name] = sum
	}
	return out
}

func sha256File(t *testing.T, path string) string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}

// archiveFiles returns the regular files of a .tar.gz or .zip archive by name.
func archiveFiles(t *testing.T, path string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	if strings.HasSuffix(path, ".zip") {
		zr, err := zip.OpenReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer zr.Close()
		for _, f := range zr.File {
			rc, err := f.Open()
			if err != nil {
				t.Fatal(err)
			}
			data, err := io.ReadAll(rc)
			rc.Close()
			if err != nil {
				t.Fatal(err)
			}
			out[f.Name] = data
		}
		return out
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	tr := tar.NewReader(gz)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[h.Name] = data
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// platformOf names the OS and architecture of an executable from its header: ELF
// (Linux), Mach-O (macOS) or PE (Windows), amd64 or arm64.
func platformOf(exe []byte) string {
	le16 := func(b []byte) uint16 { return uint16(b[0]) | uint16(b[1])<<8 }
	le32 := func(b []byte) uint32 { return uint32(le16(b)) | uint32(le16(b[2:]))<<16 }
	switch {
	case len(exe) > 20 && string(exe[:4]) == "\x7fELF":
		switch le16(exe[18:]) {
		case 62:
			return "linux_amd64"
		case 183:
			return "linux_arm64"
		}
	case len(exe) > 8 && le32(exe) == 0xfeedfacf: // Mach-O 64-bit, little-endian
		switch le32(exe[4:]) {
		case 0x01000007:
			return "darwin_amd64"
		case 0x0100000c:
			return "darwin_arm64"
		}
	case len(exe) > 0x40 && string(exe[:2]) == "MZ":
		pe := int(le32(exe[0x3c:]))
		if pe+6 <= len(exe) && string(exe[pe:pe+4]) == "PE\x00\x00" {
			switch le16(exe[pe+4:]) {
			case 0x8664:
				return "windows_amd64"
			case 0xaa64:
				return "windows_arm64"
			}
		}
	}
	return fmt.Sprintf("unknown (% x)", exe[:min(len(exe), 8)])
}

// releaseServer serves a snapshot the way GitHub serves releases, on a loopback
// address: OWNER/REPO/releases/download/TAG/FILE and releases/latest/download/FILE for
// the files of dist, and the API's git/matching-refs/tags/PREFIX listing the one tag.
// It counts the requests for each path.
type releaseServer struct {
	*httptest.Server
	mu       sync.Mutex
	requests map[string]int
}

func serveRelease(t *testing.T, rel *release) *releaseServer {
	t.Helper()
	s := &releaseServer{requests: map[string]int{}}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.requests[r.URL.Path]++
		s.mu.Unlock()
		path := r.URL.Path
		if prefix, ok := strings.CutPrefix(path, "/repos/pvlint/pvlint/git/matching-refs/tags/"); ok {
			refs := []map[string]string{}
			if strings.HasPrefix(releaseTag, prefix) {
				refs = append(refs, map[string]string{"ref": "refs/tags/" + releaseTag})
			}
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(refs)
			return
		}
		for _, dir := range []string{"/pvlint/pvlint/releases/download/" + releaseTag + "/", "/pvlint/pvlint/releases/latest/download/"} {
			if name, ok := strings.CutPrefix(path, dir); ok && !strings.Contains(name, "/") && name != "" {
				if _, err := os.Stat(filepath.Join(rel.dist, name)); err == nil && (name == "checksums.txt" || strings.HasPrefix(name, "pvlint_")) {
					http.ServeFile(w, r, filepath.Join(rel.dist, name))
					return
				}
			}
		}
		http.NotFound(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

// count is how many times path was requested.
func (s *releaseServer) count(path string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[path]
}
