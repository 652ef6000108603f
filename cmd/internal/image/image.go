// Package image writes pvlint's container image without a container engine: an OCI
// image layout (https://github.com/opencontainers/image-spec/blob/main/image-layout.md)
// in a tar file, holding one layer on an empty base (scratch) with the static pvlint
// binary and its licence. The tar file also holds Docker's manifest.json, so that
// `docker load`, `podman load`, `skopeo copy oci-archive:` and `crane push` all take it.
// Merge joins the images of several architectures into one multi-platform index.
//
// Everything written is a function of the inputs: file times and the image's creation
// time are the commit's, so the same release gives the same digests.
package image

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"sort"
	"strings"
	"time"
)

// Media types of the OCI image specification.
const (
	MediaIndex    = "application/vnd.oci.image.index.v1+json"
	MediaManifest = "application/vnd.oci.image.manifest.v1+json"
	MediaConfig   = "application/vnd.oci.image.config.v1+json"
	MediaLayer    = "application/vnd.oci.image.layer.v1.tar+gzip"
)

// Paths inside the image.
const (
	Entrypoint = "/usr/local/bin/pvlint"
	License    = "/usr/share/doc/pvlint/LICENSE"
	WorkDir    = "/src"
	// Busybox is the shell and tools of the -debug variant, each applet a link beside
	// it in /busybox (as in distroless's :debug images), and BusyboxCopyright their
	// licence.
	Busybox          = "/busybox/busybox"
	BusyboxCopyright = "/usr/share/doc/busybox-static/copyright"
)

// DebugSuffix ends the tag of the -debug variant: v1.2.3-debug.
const DebugSuffix = "-debug"

// Spec describes one architecture's image.
type Spec struct {
	Binary  []byte // the static linux pvlint binary
	License []byte // the LICENSE file
	Arch    string // GOARCH: amd64, arm64
	// Version is the release tag (v1.2.3), Revision the commit, Created its time.
	Version, Revision string
	Created           time.Time
	Source            string // the repository's URL
	Repository        string // the image's name without tag (ghcr.io/pvlint/pvlint)
	// Busybox, when set, makes the image the -debug variant: this static busybox
	// binary (GPL-2.0, with its BusyboxCopyright) in /busybox with a link for each of
	// Applets, and /busybox on PATH, so that a CI system that runs a script in the
	// job's image (GitLab's `sh -c`) finds a shell. The tag is Version + DebugSuffix.
	Busybox, BusyboxCopyright []byte
	Applets                   []string
}

// debug reports whether the spec is the -debug variant.
func (s Spec) debug() bool { return len(s.Busybox) > 0 }

// Tag is the image's tag: the version, with DebugSuffix for the -debug variant.
func (s Spec) Tag() string {
	if s.debug() {
		return s.Version + DebugSuffix
	}
	return s.Version
}

// Descriptor is an OCI content descriptor.
type Descriptor struct {
	MediaType   string            `json:"mediaType"`
	Digest      string            `json:"digest"`
	Size        int64             `json:"size"`
	Platform    *Platform         `json:"platform,omitempty"`
	Annotations map[string]string `json:"annotations,omitempty"`
}

// Platform is a descriptor's platform.
type Platform struct {
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
}

// Index is an OCI image index (index.json).
type Index struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	Manifests     []Descriptor      `json:"manifests"`
	Annotations   map[string]string `json:"annotations,omitempty"`
}

// Manifest is an OCI image manifest.
type Manifest struct {
	SchemaVersion int               `json:"schemaVersion"`
	MediaType     string            `json:"mediaType"`
	Config        Descriptor        `json:"config"`
	Layers        []Descriptor      `json:"layers"`
	Annotations   map[string]string `json:"annotations,omitempty"`
}

// Config is the part of an OCI image configuration pvlint's image sets.
type Config struct {
	Created      string `json:"created"`
	Architecture string `json:"architecture"`
	OS           string `json:"os"`
	Config       struct {
		User       string            `json:"User"`
		Env        []string          `json:"Env"`
		Entrypoint []string          `json:"Entrypoint"`
		WorkingDir string            `json:"WorkingDir"`
		Labels     map[string]string `json:"Labels"`
	} `json:"config"`
	RootFS struct {
		Type    string   `json:"type"`
		DiffIDs []string `json:"diff_ids"`
	} `json:"rootfs"`
	History []struct {
		Created   string `json:"created"`
		CreatedBy string `json:"created_by"`
	} `json:"history"`
}

// Annotations are the OCI annotations (and labels) of an image.
func (s Spec) Annotations() map[string]string {
	licenses := "Apache-2.0"
	if s.debug() {
		licenses += " AND GPL-2.0-only" // busybox
	}
	return map[string]string{
		"org.opencontainers.image.title":       "pvlint",
		"org.opencontainers.image.description": "Kubernetes storage hazards in manifests, Helm charts, Kustomize and Terraform",
		"org.opencontainers.image.source":      s.Source,
		"org.opencontainers.image.url":         s.Source,
		"org.opencontainers.image.version":     s.Version,
		"org.opencontainers.image.revision":    s.Revision,
		"org.opencontainers.image.created":     s.Created.UTC().Format(time.RFC3339),
		"org.opencontainers.image.licenses":    licenses,
	}
}

// Layout is an image layout's files by name (oci-layout, index.json, manifest.json and
// blobs/sha256/...).
type Layout map[string][]byte

func digestOf(b []byte) string {
	h := sha256.Sum256(b)
	return "sha256:" + hex.EncodeToString(h[:])
}

func (l Layout) add(b []byte) string {
	d := digestOf(b)
	l["blobs/sha256/"+strings.TrimPrefix(d, "sha256:")] = b
	return d
}

// Build is the layout of one architecture's image.
func Build(s Spec) (Layout, error) {
	if len(s.Binary) == 0 || s.Arch == "" || s.Version == "" {
		return nil, errors.New("image: binary, architecture and version are required")
	}
	if s.debug() && (len(s.BusyboxCopyright) == 0 || !slices.Contains(s.Applets, "sh")) {
		return nil, errors.New("image: busybox needs its copyright file and applets, sh among them")
	}
	layerTar, err := layer(s)
	if err != nil {
		return nil, err
	}
	var gz bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression) // no name, no time: reproducible
	if _, err := zw.Write(layerTar); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	l := Layout{}
	layerDigest := l.add(gz.Bytes())
	ann := s.Annotations()
	var cfg Config
	cfg.Created = ann["org.opencontainers.image.created"]
	cfg.Architecture, cfg.OS = s.Arch, "linux"
	cfg.Config.User = "65532:65532" // no root inside; no /etc/passwd needed
	cfg.Config.Env = []string{"PATH=/usr/local/bin", "HOME=/tmp"}
	createdBy := "pvlint-image: the pvlint binary and its LICENSE on scratch"
	if s.debug() {
		cfg.Config.Env[0] += ":" + path.Dir(Busybox)
		createdBy = "pvlint-image: the pvlint binary and its LICENSE, and busybox, on scratch"
	}
	cfg.Config.Entrypoint = []string{Entrypoint}
	cfg.Config.WorkingDir = WorkDir
	cfg.Config.Labels = ann
	cfg.RootFS.Type = "layers"
	cfg.RootFS.DiffIDs = []string{digestOf(layerTar)}
	cfg.History = append(cfg.History, struct {
		Created   string `json:"created"`
		CreatedBy string `json:"created_by"`
	}{cfg.Created, createdBy})
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	cfgDigest := l.add(cfgJSON)
	man := Manifest{SchemaVersion: 2, MediaType: MediaManifest,
		Config:      Descriptor{MediaType: MediaConfig, Digest: cfgDigest, Size: int64(len(cfgJSON))},
		Layers:      []Descriptor{{MediaType: MediaLayer, Digest: layerDigest, Size: int64(gz.Len())}},
		Annotations: ann}
	manJSON, err := json.Marshal(man)
	if err != nil {
		return nil, err
	}
	manDigest := l.add(manJSON)
	manAnn := map[string]string{"org.opencontainers.image.ref.name": s.Tag()}
	if s.Repository != "" {
		manAnn["io.containerd.image.name"] = s.Repository + ":" + s.Tag()
	}
	idx := Index{SchemaVersion: 2, MediaType: MediaIndex, Manifests: []Descriptor{{
		MediaType: MediaManifest, Digest: manDigest, Size: int64(len(manJSON)),
		Platform: &Platform{Architecture: s.Arch, OS: "linux"}, Annotations: manAnn}}}
	if err := l.finish(idx, s.Repository, s.Tag()); err != nil {
		return nil, err
	}
	return l, nil
}

// finish writes oci-layout, index.json and Docker's manifest.json (the first manifest
// of each platform; docker load takes one platform per tag).
func (l Layout) finish(idx Index, repo, tag string) error {
	l["oci-layout"] = []byte(`{"imageLayoutVersion":"1.0.0"}`)
	data, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	l["index.json"] = data
	if len(idx.Manifests) != 1 {
		delete(l, "manifest.json")
		return nil
	}
	var man Manifest
	if err := json.Unmarshal(l.Blob(idx.Manifests[0].Digest), &man); err != nil {
		return err
	}
	entry := map[string]any{"Config": blobPath(man.Config.Digest), "Layers": []string{}}
	var layers []string
	for _, d := range man.Layers {
		layers = append(layers, blobPath(d.Digest))
	}
	entry["Layers"] = layers
	if repo != "" {
		entry["RepoTags"] = []string{repo + ":" + tag}
	}
	data, err = json.Marshal([]any{entry})
	if err != nil {
		return err
	}
	l["manifest.json"] = data
	return nil
}

func blobPath(digest string) string { return "blobs/sha256/" + strings.TrimPrefix(digest, "sha256:") }

// Blob returns the blob of a digest, nil when the layout has none.
func (l Layout) Blob(digest string) []byte { return l[blobPath(digest)] }

// layer is the uncompressed layer: the directories, the binary and the LICENSE (and
// busybox with its applets' links and copyright for the -debug variant).
func layer(s Spec) ([]byte, error) {
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	mod := s.Created.UTC()
	type entry struct {
		name string
		mode int64
		data []byte
		dir  bool
		link string // a symbolic link to this target
	}
	var shell []entry
	if s.debug() {
		dir := strings.TrimPrefix(path.Dir(Busybox), "/") + "/"
		shell = append(shell, entry{name: dir, mode: 0o755, dir: true},
			entry{name: strings.TrimPrefix(Busybox, "/"), mode: 0o755, data: s.Busybox})
		applets := slices.Clone(s.Applets)
		slices.Sort(applets)
		for _, a := range slices.Compact(applets) {
			if a == "" || a == path.Base(Busybox) || strings.ContainsAny(a, "/\x00") || a == "." || a == ".." {
				continue
			}
			shell = append(shell, entry{name: dir + a, mode: 0o777, link: path.Base(Busybox)})
		}
		shell = append(shell, entry{name: "usr/share/doc/busybox-static/", mode: 0o755, dir: true},
			entry{name: strings.TrimPrefix(BusyboxCopyright, "/"), mode: 0o644, data: s.BusyboxCopyright})
	}
	entries := append([]entry{
		{name: "src/", mode: 0o755, dir: true},
		{name: "tmp/", mode: 0o1777, dir: true},
		{name: "usr/", mode: 0o755, dir: true},
		{name: "usr/local/", mode: 0o755, dir: true},
		{name: "usr/local/bin/", mode: 0o755, dir: true},
		{name: strings.TrimPrefix(Entrypoint, "/"), mode: 0o755, data: s.Binary},
		{name: "usr/share/", mode: 0o755, dir: true},
		{name: "usr/share/doc/", mode: 0o755, dir: true},
		{name: "usr/share/doc/pvlint/", mode: 0o755, dir: true},
		{name: strings.TrimPrefix(License, "/"), mode: 0o644, data: s.License},
	}, shell...)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: e.mode, ModTime: mod, Format: tar.FormatPAX, Uname: "root", Gname: "root"}
		switch {
		case e.dir:
			h.Typeflag = tar.TypeDir
		case e.link != "":
			h.Typeflag, h.Linkname = tar.TypeSymlink, e.link
		default:
			h.Typeflag, h.Size = tar.TypeReg, int64(len(e.data))
		}
		if err := tw.WriteHeader(h); err != nil {
			return nil, err
		}
		if _, err := tw.Write(e.data); err != nil {
			return nil, err
		}
	}
	if err := tw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Merge joins the layouts of single-platform images into one multi-platform image: one
// index whose manifests are theirs, in the order given.
func Merge(layouts ...Layout) (Layout, error) {
	out := Layout{}
	var idx Index
	idx.SchemaVersion, idx.MediaType = 2, MediaIndex
	for _, l := range layouts {
		var in Index
		if err := json.Unmarshal(l["index.json"], &in); err != nil {
			return nil, fmt.Errorf("index.json: %w", err)
		}
		for name, b := range l {
			if strings.HasPrefix(name, "blobs/") {
				out[name] = b
			}
		}
		idx.Manifests = append(idx.Manifests, in.Manifests...)
	}
	if err := out.finish(idx, "", ""); err != nil {
		return nil, err
	}
	return out, nil
}

// Write writes a layout as a tar file, its entries in name order with fixed times.
func (l Layout) Write(w io.Writer) error {
	tw := tar.NewWriter(w)
	names := make([]string, 0, len(l))
	for n := range l {
		names = append(names, n)
	}
	sort.Strings(names)
	dirs := map[string]bool{}
	for _, n := range names {
		for d := path.Dir(n); d != "." && !dirs[d]; d = path.Dir(d) {
			dirs[d] = true
		}
	}
	var dl []string
	for d := range dirs {
		dl = append(dl, d)
	}
	sort.Strings(dl)
	for _, d := range dl {
		if err := tw.WriteHeader(&tar.Header{Name: d + "/", Typeflag: tar.TypeDir, Mode: 0o755, ModTime: time.Unix(0, 0), Format: tar.FormatPAX}); err != nil {
			return err
		}
	}
	for _, n := range names {
		if err := tw.WriteHeader(&tar.Header{Name: n, Typeflag: tar.TypeReg, Mode: 0o644, Size: int64(len(l[n])), ModTime: time.Unix(0, 0), Format: tar.FormatPAX}); err != nil {
			return err
		}
		if _, err := tw.Write(l[n]); err != nil {
			return err
		}
	}
	return tw.Close()
}

// WriteFile writes a layout's tar file atomically.
func (l Layout) WriteFile(name string) error {
	var buf bytes.Buffer
	if err := l.Write(&buf); err != nil {
		return err
	}
	tmp := name + ".tmp"
	if err := os.WriteFile(tmp, buf.Bytes(), 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, name)
}

// Read reads a layout's tar file, checking that every blob's content has its digest.
func Read(r io.Reader) (Layout, error) {
	l := Layout{}
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, err
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		data, err := io.ReadAll(io.LimitReader(tr, 1<<30))
		if err != nil {
			return nil, err
		}
		l[h.Name] = data
	}
	for name, b := range l {
		if hexd, ok := strings.CutPrefix(name, "blobs/sha256/"); ok && digestOf(b) != "sha256:"+hexd {
			return nil, fmt.Errorf("%s: content does not have its digest", name)
		}
	}
	if l["oci-layout"] == nil || l["index.json"] == nil {
		return nil, errors.New("not an OCI image layout: no oci-layout or index.json")
	}
	return l, nil
}

// ReadFile reads a layout's tar file.
func ReadFile(name string) (Layout, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f)
}

// Image is one platform's image of a layout, decoded.
type Image struct {
	Descriptor Descriptor
	Manifest   Manifest
	Config     Config
	// Files are the regular files of the layers by path (no leading slash), with
	// their modes.
	Files map[string][]byte
	Modes map[string]int64
	// Links are the symbolic links of the layers by path, with their targets.
	Links map[string]string
}

// Images decodes every image of a layout's index, checking that each descriptor's size
// and digest match its blob.
func (l Layout) Images() ([]Image, error) {
	var idx Index
	if err := json.Unmarshal(l["index.json"], &idx); err != nil {
		return nil, fmt.Errorf("index.json: %w", err)
	}
	blob := func(d Descriptor) ([]byte, error) {
		b := l.Blob(d.Digest)
		if b == nil {
			return nil, fmt.Errorf("no blob %s", d.Digest)
		}
		if int64(len(b)) != d.Size {
			return nil, fmt.Errorf("blob %s: %d bytes, its descriptor says %d", d.Digest, len(b), d.Size)
		}
		return b, nil
	}
	var out []Image
	for _, d := range idx.Manifests {
		img := Image{Descriptor: d, Files: map[string][]byte{}, Modes: map[string]int64{}, Links: map[string]string{}}
		b, err := blob(d)
		if err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &img.Manifest); err != nil {
			return nil, err
		}
		if b, err = blob(img.Manifest.Config); err != nil {
			return nil, err
		}
		if err := json.Unmarshal(b, &img.Config); err != nil {
			return nil, err
		}
		if len(img.Manifest.Layers) != len(img.Config.RootFS.DiffIDs) {
			return nil, errors.New("the config's diff_ids do not match the layers")
		}
		for i, ld := range img.Manifest.Layers {
			b, err := blob(ld)
			if err != nil {
				return nil, err
			}
			zr, err := gzip.NewReader(bytes.NewReader(b))
			if err != nil {
				return nil, err
			}
			raw, err := io.ReadAll(zr)
			if err != nil {
				return nil, err
			}
			if digestOf(raw) != img.Config.RootFS.DiffIDs[i] {
				return nil, fmt.Errorf("layer %d: diff_id does not match its content", i)
			}
			tr := tar.NewReader(bytes.NewReader(raw))
			for {
				h, err := tr.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					return nil, err
				}
				img.Modes[h.Name] = h.Mode
				if h.Typeflag == tar.TypeSymlink {
					img.Links[h.Name] = h.Linkname
				}
				if h.Typeflag == tar.TypeReg {
					data, err := io.ReadAll(tr)
					if err != nil {
						return nil, err
					}
					img.Files[h.Name] = data
				}
			}
		}
		out = append(out, img)
	}
	return out, nil
}
