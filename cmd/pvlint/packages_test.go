package main

import (
	"encoding/json"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"text/template"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/image"
	yaml "go.yaml.in/yaml/v3"
)

// imageArchs are the architectures of the container image.
var imageArchs = []string{"amd64", "arm64"}

// TestContainerImages checks the snapshot's container images as a runtime would read
// them: one OCI image layout tar per architecture, listed in checksums.txt, whose
// image is for linux on that architecture, runs pvlint (entrypoint, user, working
// directory), is annotated with the source and the snapshot's version, and holds the
// LICENSE and the binary GoReleaser built for that platform; the amd64 binary reports
// the version. -merge joins them into one multi-platform image; with crane installed
// (make ci-tools), crane validates each image, and the multi-platform image is pushed to
// a registry on a loopback address and pulled back.
//
// The -debug variant (pvlint_image_debug_linux_ARCH.tar) is checked the same way, plus
// busybox for its architecture in /busybox with a link per applet (sh among them),
// /busybox on PATH and busybox's copyright; TestGitLabImageComponent runs a GitLab
// job's script in it.
func TestContainerImages(t *testing.T) {
	for _, debug := range []bool{false, true} {
		t.Run(map[bool]string{false: "plain", true: "debug"}[debug], func(t *testing.T) { containerImages(t, debug) })
	}
}

func containerImages(t *testing.T, debug bool) {
	rel := snapshot(t)
	sums := checksums(t, filepath.Join(rel.dist, "checksums.txt"))
	var files []string
	for _, arch := range imageArchs {
		name := imageFile(arch, debug)
		file := filepath.Join(rel.dist, name)
		files = append(files, file)
		if got := sha256File(t, file); sums[name] != got {
			t.Errorf("%s: SHA-256 %s, checksums.txt says %q", name, got, sums[name])
		}
		l, err := image.ReadFile(file)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		imgs, err := l.Images()
		if err != nil || len(imgs) != 1 {
			t.Fatalf("%s: %d images, %v", name, len(imgs), err)
		}
		img := imgs[0]
		checkImage(t, name, img, arch, rel.version, debug)
		if arch == "amd64" {
			bin := filepath.Join(t.TempDir(), "pvlint")
			if err := os.WriteFile(bin, img.Files["usr/local/bin/pvlint"], 0o755); err != nil {
				t.Fatal(err)
			}
			if out := mustRun(t, repoRoot, nil, bin, "version"); !strings.HasPrefix(out, "pvlint "+rel.version) {
				t.Errorf("%s: pvlint version: %q, want %s", name, out, rel.version)
			}
		}
	}
	merged := filepath.Join(t.TempDir(), "pvlint_image.tar")
	mustRun(t, repoRoot, nil, "go", append([]string{"run", "./cmd/pvlint-image", "-merge", "-out", merged}, files...)...)
	l, err := image.ReadFile(merged)
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := l.Images()
	if err != nil || len(imgs) != len(imageArchs) {
		t.Fatalf("multi-platform image: %d images, %v", len(imgs), err)
	}
	for i, arch := range imageArchs {
		checkImage(t, "multi-platform image", imgs[i], arch, rel.version, debug)
	}

	crane := tool(t, "crane")
	for _, f := range files {
		if out := mustRun(t, repoRoot, nil, crane, "validate", "--tarball", f); !strings.Contains(out, "PASS") {
			t.Errorf("crane validate %s: %s", f, out)
		}
	}
	// A registry on a loopback address: push the multi-platform image as the release
	// workflow does (crane push --index of the extracted layout), and read it back.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	reg := exec.Command(crane, "registry", "serve", "--address", addr)
	if err := reg.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = reg.Process.Kill(); _ = reg.Wait() })
	for i := 0; ; i++ {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		if i == 100 {
			t.Fatal("the registry did not start")
		}
		time.Sleep(50 * time.Millisecond)
	}
	layout := filepath.Join(t.TempDir(), "layout")
	if err := os.MkdirAll(layout, 0o755); err != nil {
		t.Fatal(err)
	}
	mustRun(t, repoRoot, nil, "tar", "-xf", merged, "-C", layout)
	ref := addr + "/pvlint/pvlint:" + rel.version
	mustRun(t, repoRoot, nil, crane, "push", "--index", layout, ref)
	var idx image.Index
	if err := json.Unmarshal([]byte(mustRun(t, repoRoot, nil, crane, "manifest", ref)), &idx); err != nil || len(idx.Manifests) != 2 {
		t.Fatalf("pushed index: %v %+v", err, idx)
	}
	var cfg image.Config
	if err := json.Unmarshal([]byte(mustRun(t, repoRoot, nil, crane, "config", "--platform", "linux/arm64", ref)), &cfg); err != nil ||
		cfg.Architecture != "arm64" || cfg.Config.Entrypoint[0] != image.Entrypoint {
		t.Errorf("pulled arm64 config: %v %+v", err, cfg)
	}
}

// imageFile is the snapshot's image tar file of an architecture, plain or -debug.
func imageFile(arch string, debug bool) string {
	if debug {
		return "pvlint_image_debug_linux_" + arch + ".tar"
	}
	return "pvlint_image_linux_" + arch + ".tar"
}

// checkImage checks one platform's image of the snapshot, plain or -debug.
func checkImage(t *testing.T, name string, img image.Image, arch, version string, debug bool) {
	t.Helper()
	licenses, path := "Apache-2.0", "PATH=/usr/local/bin"
	if debug {
		licenses, path = "Apache-2.0 AND GPL-2.0-only", "PATH=/usr/local/bin:/busybox"
		if got := platformOf(img.Files["busybox/busybox"]); got != "linux_"+arch || img.Modes["busybox/busybox"] != 0o755 {
			t.Errorf("%s: /busybox/busybox is for %q, mode %o", name, got, img.Modes["busybox/busybox"])
		}
		if img.Links["busybox/sh"] != "busybox" || img.Links["busybox/sha256sum"] != "busybox" || len(img.Links) < 200 {
			t.Errorf("%s: %d links in /busybox, sh → %q", name, len(img.Links), img.Links["busybox/sh"])
		}
		if !strings.Contains(string(img.Files["usr/share/doc/busybox-static/copyright"]), "GPL") {
			t.Errorf("%s: no busybox copyright", name)
		}
	} else if len(img.Links) > 0 || img.Files["busybox/busybox"] != nil {
		t.Errorf("%s: the plain image has busybox", name)
	}
	if c := img.Config.Config; len(c.Env) == 0 || c.Env[0] != path {
		t.Errorf("%s: environment %v, want %s first", name, c.Env, path)
	}
	if p := img.Descriptor.Platform; p == nil || p.OS != "linux" || p.Architecture != arch || img.Config.Architecture != arch {
		t.Errorf("%s: platform %+v, config %s, want linux/%s", name, p, img.Config.Architecture, arch)
	}
	c := img.Config.Config
	if len(c.Entrypoint) != 1 || c.Entrypoint[0] != "/usr/local/bin/pvlint" || c.User != "65532:65532" || c.WorkingDir != "/src" {
		t.Errorf("%s: entrypoint %v, user %q, working directory %q", name, c.Entrypoint, c.User, c.WorkingDir)
	}
	for _, ann := range []map[string]string{c.Labels, img.Manifest.Annotations} {
		if ann["org.opencontainers.image.source"] != "https://github.com/pvlint/pvlint" || ann["org.opencontainers.image.version"] != version ||
			len(ann["org.opencontainers.image.revision"]) != 40 || ann["org.opencontainers.image.licenses"] != licenses {
			t.Errorf("%s: annotations %v", name, ann)
		}
	}
	if lic, _ := os.ReadFile(filepath.Join(repoRoot, "LICENSE")); string(img.Files["usr/share/doc/pvlint/LICENSE"]) != string(lic) {
		t.Errorf("%s: no LICENSE at /usr/share/doc/pvlint/LICENSE", name)
	}
	if got := platformOf(img.Files["usr/local/bin/pvlint"]); got != "linux_"+arch {
		t.Errorf("%s: the binary is for %s", name, got)
	}
}

// findDist returns the file of dist named name, wherever GoReleaser put it.
func findDist(t *testing.T, dist, name string) string {
	t.Helper()
	var found string
	_ = filepath.WalkDir(dist, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == name && found == "" {
			found = p
		}
		return nil
	})
	if found == "" {
		t.Fatalf("dist has no %s", name)
	}
	return found
}

// assets checks a manifest's (url, sha256) pairs: each URL is the release download URL
// of an archive of the snapshot and its checksum is the archive's, and every platform
// wanted has one.
func assets(t *testing.T, what string, pairs [][2]string, sums map[string]string, want []string) {
	t.Helper()
	named := map[string]bool{}
	for _, p := range pairs {
		url, sum := p[0], p[1]
		name, ok := strings.CutPrefix(url, "https://github.com/pvlint/pvlint/releases/download/"+releaseTag+"/")
		if !ok || strings.Contains(name, "/") {
			t.Errorf("%s: URL %s is not an asset of release %s", what, url, releaseTag)
			continue
		}
		if sums[name] == "" || sums[name] != sum {
			t.Errorf("%s: %s has checksum %s, checksums.txt says %q", what, name, sum, sums[name])
		}
		named[name] = true
	}
	for _, w := range want {
		if !named[w] {
			t.Errorf("%s names no %s (it names %v)", what, w, named)
		}
	}
}

// TestPackageManifests checks the package managers' files the snapshot generated, and
// the aqua registry entry, against the snapshot's archives: every download URL is an
// archive of the release, with its checksum, for the platforms each manager serves.
func TestPackageManifests(t *testing.T) {
	rel := snapshot(t)
	sums := checksums(t, filepath.Join(rel.dist, "checksums.txt"))
	version := strings.TrimPrefix(rel.version, "v")
	unix := []string{"pvlint_linux_amd64.tar.gz", "pvlint_linux_arm64.tar.gz", "pvlint_darwin_amd64.tar.gz", "pvlint_darwin_arm64.tar.gz"}

	t.Run("homebrew", func(t *testing.T) {
		cask := mustReadFile(t, findDist(t, rel.dist, "pvlint.rb"))
		if !regexp.MustCompile(`(?m)^cask "pvlint" do$`).MatchString(cask) || !strings.Contains(cask, `version "`+version+`"`) ||
			!regexp.MustCompile(`(?m)^\s*binary "pvlint"$`).MatchString(cask) {
			t.Errorf("cask:\n%s", cask)
		}
		// Each `url` follows its `sha256` within a platform block; the version is
		// interpolated.
		var pairs [][2]string
		for _, m := range regexp.MustCompile(`(?s)url "([^"]+)".*?sha256 "([0-9a-f]{64})"`).FindAllStringSubmatch(cask, -1) {
			pairs = append(pairs, [2]string{strings.ReplaceAll(m[1], "#{version}", version), m[2]})
		}
		if len(pairs) == 0 {
			for _, m := range regexp.MustCompile(`(?s)sha256 "([0-9a-f]{64})".*?url "([^"]+)"`).FindAllStringSubmatch(cask, -1) {
				pairs = append(pairs, [2]string{strings.ReplaceAll(m[2], "#{version}", version), m[1]})
			}
		}
		assets(t, "Homebrew cask", pairs, sums, unix)
	})

	t.Run("scoop", func(t *testing.T) {
		var m struct {
			Version      string
			License      string
			Architecture map[string]struct {
				URL  string
				Bin  []string
				Hash string
			}
		}
		if err := json.Unmarshal([]byte(mustReadFile(t, findDist(t, rel.dist, "pvlint.json"))), &m); err != nil {
			t.Fatal(err)
		}
		if m.Version != version || m.License != "Apache-2.0" {
			t.Errorf("scoop manifest version %q, license %q", m.Version, m.License)
		}
		var pairs [][2]string
		for arch, a := range m.Architecture {
			pairs = append(pairs, [2]string{a.URL, a.Hash})
			if len(a.Bin) != 1 || a.Bin[0] != "pvlint.exe" {
				t.Errorf("scoop %s: bin %v", arch, a.Bin)
			}
		}
		assets(t, "Scoop manifest", pairs, sums, []string{"pvlint_windows_amd64.zip", "pvlint_windows_arm64.zip"})
	})

	t.Run("krew", func(t *testing.T) {
		var m struct {
			APIVersion string `yaml:"apiVersion"`
			Kind       string
			Metadata   struct{ Name string }
			Spec       struct {
				Version          string
				ShortDescription string `yaml:"shortDescription"`
				Platforms        []struct {
					Bin      string
					URI      string
					Sha256   string
					Selector struct {
						MatchLabels map[string]string `yaml:"matchLabels"`
					}
				}
			}
		}
		if err := yaml.Unmarshal([]byte(mustReadFile(t, findDist(t, rel.dist, "pvlint.yaml"))), &m); err != nil {
			t.Fatal(err)
		}
		if m.APIVersion != "krew.googlecontainertools.github.com/v1alpha2" || m.Kind != "Plugin" || m.Metadata.Name != "pvlint" ||
			m.Spec.Version != rel.version || m.Spec.ShortDescription == "" {
			t.Errorf("krew manifest %+v", m)
		}
		var pairs [][2]string
		for _, p := range m.Spec.Platforms {
			pairs = append(pairs, [2]string{p.URI, p.Sha256})
			sel := p.Selector.MatchLabels
			if want := "pvlint_" + sel["os"] + "_" + sel["arch"]; path.Base(p.URI) != want+".tar.gz" && path.Base(p.URI) != want+".zip" {
				t.Errorf("krew platform %v downloads %s", sel, p.URI)
			}
			if wantBin := map[bool]string{true: "pvlint.exe", false: "pvlint"}[sel["os"] == "windows"]; p.Bin != wantBin {
				t.Errorf("krew platform %v: bin %q, want %q", sel, p.Bin, wantBin)
			}
		}
		assets(t, "krew manifest", pairs, sums, targets)
	})

	t.Run("aqua", func(t *testing.T) {
		var reg struct {
			Packages []struct {
				Type, Asset, Format string
				RepoOwner           string   `yaml:"repo_owner"`
				RepoName            string   `yaml:"repo_name"`
				SupportedEnvs       []string `yaml:"supported_envs"`
				Overrides           []struct{ Goos, Format string }
				Checksum            struct{ Type, Asset, Algorithm string }
			}
		}
		if err := yaml.Unmarshal([]byte(mustReadFile(t, filepath.Join(repoRoot, "packaging", "aqua", "registry.yaml"))), &reg); err != nil {
			t.Fatal(err)
		}
		if len(reg.Packages) != 1 {
			t.Fatalf("%d packages", len(reg.Packages))
		}
		p := reg.Packages[0]
		if p.Type != "github_release" || p.RepoOwner != "pvlint" || p.RepoName != "pvlint" || p.Checksum.Asset != "checksums.txt" || p.Checksum.Algorithm != "sha256" {
			t.Errorf("aqua package %+v", p)
		}
		// aqua's asset template, rendered for each platform as aqua does (Go templates
		// over OS, Arch and Format, after the overrides of the platform's GOOS).
		tmpl := template.Must(template.New("asset").Parse(p.Asset))
		var pairs [][2]string
		for _, goos := range p.SupportedEnvs {
			format := p.Format
			for _, o := range p.Overrides {
				if o.Goos == goos && o.Format != "" {
					format = o.Format
				}
			}
			for _, arch := range []string{"amd64", "arm64"} {
				var b strings.Builder
				if err := tmpl.Execute(&b, map[string]string{"OS": goos, "Arch": arch, "Format": format}); err != nil {
					t.Fatal(err)
				}
				if _, err := os.Stat(filepath.Join(rel.dist, b.String())); err != nil {
					t.Errorf("aqua asset for %s/%s: %v", goos, arch, err)
				}
				pairs = append(pairs, [2]string{"https://github.com/pvlint/pvlint/releases/download/" + releaseTag + "/" + b.String(), sums[b.String()]})
			}
		}
		assets(t, "aqua entry", pairs, sums, targets)
	})
}

// TestNewUserPath follows docs/install.md as a new user would, with the snapshot served
// the way GitHub serves a release: the release archive block, run by sh as it is
// written (download, checksum, install into ~/.local/bin, pvlint version), then the
// demo block in the clone the snapshot was built from, with the installed binary.
func TestNewUserPath(t *testing.T) {
	rel := snapshot(t)
	srv := serveRelease(t, rel)
	doc := mustReadFile(t, filepath.Join(repoRoot, "docs", "install.md"))
	block := func(name string) string {
		m := regexp.MustCompile("(?s)<!-- install:" + regexp.QuoteMeta(name) + " -->\\s*```sh\\n(.*?)```").FindStringSubmatch(doc)
		if m == nil {
			t.Fatalf("docs/install.md has no sh block after <!-- install:%s -->", name)
		}
		return m[1]
	}
	install := block("archive")
	if !strings.Contains(install, "version="+releaseTag+" ") {
		t.Fatalf("the install block does not pin %s (the tag the snapshot is built from):\n%s", releaseTag, install)
	}
	install = strings.ReplaceAll(install, "https://github.com/", srv.URL+"/")
	home, work := t.TempDir(), t.TempDir()
	env := []string{"HOME=" + home, "PATH=" + filepath.Join(home, ".local", "bin") + string(os.PathListSeparator) + os.Getenv("PATH")}
	r := run(t, work, env, "sh", "-euc", install)
	if r.code != 0 || !strings.Contains(r.output, "pvlint_linux_amd64.tar.gz: OK") || !strings.Contains(r.output, "pvlint "+rel.version) {
		t.Fatalf("install block: exit %d\n%s", r.code, r.output)
	}
	if srv.count("/pvlint/pvlint/releases/download/"+releaseTag+"/checksums.txt") != 1 {
		t.Error("the install block did not download checksums.txt")
	}
	src := filepath.Dir(rel.dist)
	r = run(t, src, env, "sh", "-euc", block("demo"))
	if r.code != 1 || !strings.Contains(r.output, "[PVL003 rwo-rolling-update]") {
		t.Errorf("demo with the installed pvlint: exit %d (want 1: the demo has findings)\n%s", r.code, r.output)
	}
	// A tampered archive fails the documented checksum step.
	bad := t.TempDir()
	if err := os.WriteFile(filepath.Join(bad, "pvlint_linux_amd64.tar.gz"), []byte("tampered"), 0o644); err != nil {
		t.Fatal(err)
	}
	check := regexp.MustCompile(`(?m)^sha256sum[^\n#]*`).FindString(install)
	mustRun(t, bad, nil, "cp", filepath.Join(rel.dist, "checksums.txt"), bad)
	if r := run(t, bad, nil, "sh", "-euc", check); r.code == 0 {
		t.Errorf("%s passed on a tampered archive:\n%s", check, r.output)
	}
}
