package image

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"
)

func spec(arch string) Spec {
	return Spec{Binary: []byte("binary for " + arch), License: []byte("Apache License"), Arch: arch, Version: "v1.2.3",
		Revision: "0123abcd", Created: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Source: "https://github.com/pvlint/pvlint",
		Repository: "ghcr.io/pvlint/pvlint"}
}

// TestBuild writes one architecture's image, reads the tar file back and checks what
// a runtime uses: the platform, the entrypoint and user, the labels and annotations,
// the binary and LICENSE in the layer (executable, world-writable /tmp), every digest
// and size, and Docker's manifest.json; the same inputs give the same bytes.
func TestBuild(t *testing.T) {
	l, err := Build(spec("arm64"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.Write(&buf); err != nil {
		t.Fatal(err)
	}
	l2, _ := Build(spec("arm64"))
	var buf2 bytes.Buffer
	_ = l2.Write(&buf2)
	if !bytes.Equal(buf.Bytes(), buf2.Bytes()) {
		t.Error("two builds of the same inputs differ")
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := back.Images()
	if err != nil {
		t.Fatal(err)
	}
	if len(imgs) != 1 {
		t.Fatalf("%d images, want 1", len(imgs))
	}
	img := imgs[0]
	if p := img.Descriptor.Platform; p == nil || p.Architecture != "arm64" || p.OS != "linux" || img.Config.Architecture != "arm64" || img.Config.OS != "linux" {
		t.Errorf("platform %+v, config %s/%s", p, img.Config.OS, img.Config.Architecture)
	}
	c := img.Config.Config
	if len(c.Entrypoint) != 1 || c.Entrypoint[0] != "/usr/local/bin/pvlint" || c.User != "65532:65532" || c.WorkingDir != "/src" {
		t.Errorf("config %+v", c)
	}
	for _, m := range []map[string]string{c.Labels, img.Manifest.Annotations} {
		if m["org.opencontainers.image.version"] != "v1.2.3" || m["org.opencontainers.image.source"] != "https://github.com/pvlint/pvlint" ||
			m["org.opencontainers.image.revision"] != "0123abcd" || m["org.opencontainers.image.created"] != "2026-01-02T03:04:05Z" ||
			m["org.opencontainers.image.licenses"] != "Apache-2.0" {
			t.Errorf("annotations %v", m)
		}
	}
	if string(img.Files["usr/local/bin/pvlint"]) != "binary for arm64" || img.Modes["usr/local/bin/pvlint"] != 0o755 {
		t.Errorf("binary %q, mode %o", img.Files["usr/local/bin/pvlint"], img.Modes["usr/local/bin/pvlint"])
	}
	if string(img.Files["usr/share/doc/pvlint/LICENSE"]) != "Apache License" || img.Modes["tmp/"] != 0o1777 {
		t.Errorf("LICENSE %q, /tmp mode %o", img.Files["usr/share/doc/pvlint/LICENSE"], img.Modes["tmp/"])
	}
	var docker []struct {
		Config   string
		RepoTags []string
		Layers   []string
	}
	if err := json.Unmarshal(back["manifest.json"], &docker); err != nil || len(docker) != 1 {
		t.Fatalf("manifest.json: %v %s", err, back["manifest.json"])
	}
	if back[docker[0].Config] == nil || len(docker[0].Layers) != 1 || back[docker[0].Layers[0]] == nil ||
		len(docker[0].RepoTags) != 1 || docker[0].RepoTags[0] != "ghcr.io/pvlint/pvlint:v1.2.3" {
		t.Errorf("manifest.json %+v", docker)
	}
	// A blob whose content does not have its digest is refused.
	for name := range back {
		if len(name) > 13 && name[:13] == "blobs/sha256/" {
			back[name] = append([]byte("x"), back[name]...)
			var bad bytes.Buffer
			_ = back.Write(&bad)
			if _, err := Read(&bad); err == nil {
				t.Error("a corrupted blob was read")
			}
			break
		}
	}
}

// TestMerge joins amd64 and arm64 into one index of two platforms, with every blob,
// and no Docker manifest.json (docker load takes one platform per tag).
func TestMerge(t *testing.T) {
	a, _ := Build(spec("amd64"))
	b, _ := Build(spec("arm64"))
	m, err := Merge(a, b)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := m.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := back.Images()
	if err != nil {
		t.Fatal(err)
	}
	if len(imgs) != 2 || imgs[0].Config.Architecture != "amd64" || imgs[1].Config.Architecture != "arm64" ||
		string(imgs[1].Files["usr/local/bin/pvlint"]) != "binary for arm64" {
		t.Errorf("merged images: %d", len(imgs))
	}
	if back["manifest.json"] != nil {
		t.Error("a multi-platform layout has a Docker manifest.json")
	}
}

// TestBuildDebug writes the -debug variant: busybox in /busybox with a link per applet
// (a name that could leave the directory is not linked), /busybox on PATH after pvlint,
// busybox's copyright, the GPL among the licences, the tag v1.2.3-debug; the
// entrypoint and user stay the plain image's. Without a shell applet or the copyright
// it is refused.
func TestBuildDebug(t *testing.T) {
	s := spec("amd64")
	s.Busybox, s.BusyboxCopyright = []byte("busybox binary"), []byte("GPL-2")
	s.Applets = []string{"sh", "ls", "sh", "busybox", "../evil", "", "[["}
	l, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := l.Write(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := Read(&buf)
	if err != nil {
		t.Fatal(err)
	}
	imgs, err := back.Images()
	if err != nil || len(imgs) != 1 {
		t.Fatalf("%d images, %v", len(imgs), err)
	}
	img := imgs[0]
	c := img.Config.Config
	if len(c.Entrypoint) != 1 || c.Entrypoint[0] != Entrypoint || c.User != "65532:65532" || c.WorkingDir != WorkDir ||
		len(c.Env) == 0 || c.Env[0] != "PATH=/usr/local/bin:/busybox" {
		t.Errorf("config %+v", c)
	}
	if string(img.Files["busybox/busybox"]) != "busybox binary" || img.Modes["busybox/busybox"] != 0o755 ||
		string(img.Files["usr/share/doc/busybox-static/copyright"]) != "GPL-2" || string(img.Files["usr/local/bin/pvlint"]) != "binary for amd64" {
		t.Errorf("files %v", img.Modes)
	}
	want := map[string]string{"busybox/sh": "busybox", "busybox/ls": "busybox", "busybox/[[": "busybox"}
	if len(img.Links) != len(want) {
		t.Errorf("links %v, want %v", img.Links, want)
	}
	for name, target := range want {
		if img.Links[name] != target {
			t.Errorf("link %s → %q, want %q", name, img.Links[name], target)
		}
	}
	if lic := c.Labels["org.opencontainers.image.licenses"]; lic != "Apache-2.0 AND GPL-2.0-only" {
		t.Errorf("licenses %q", lic)
	}
	if ref := img.Descriptor.Annotations["org.opencontainers.image.ref.name"]; ref != "v1.2.3-debug" || !bytes.Contains(back["manifest.json"], []byte(`"ghcr.io/pvlint/pvlint:v1.2.3-debug"`)) {
		t.Errorf("ref name %q, manifest.json %s", ref, back["manifest.json"])
	}
	for _, bad := range []func(*Spec){func(s *Spec) { s.Applets = []string{"ls"} }, func(s *Spec) { s.BusyboxCopyright = nil }} {
		b := s
		bad(&b)
		if _, err := Build(b); err == nil {
			t.Errorf("built a -debug image without a shell applet or copyright: %+v", b.Applets)
		}
	}
}
