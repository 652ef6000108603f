// Command pvlint-image writes pvlint's container image as an OCI image layout in a tar
// file, without a container engine (package cmd/internal/image). The release runs it
// from .goreleaser.yaml once per Linux build:
//
//	go run ./cmd/pvlint-image -binary dist/pvlint_linux_amd64_v1/pvlint -arch amd64 \
//	    -version v1.2.3 -revision SHA -created 2026-01-02T03:04:05Z -out dist/pvlint_image_linux_amd64.tar
//
// and -merge joins the architectures' images into one multi-platform image:
//
//	go run ./cmd/pvlint-image -merge -out dist/pvlint_image.tar dist/pvlint_image_linux_*.tar
//
// With -busybox (a static busybox binary: packaging/busybox/fetch.sh writes Debian's),
// it writes the -debug variant instead, tagged v1.2.3-debug: busybox in /busybox with a
// link for each applet of -applets and its -busybox-copyright, for CI systems that run
// a script inside the job's image (GitLab):
//
//	go run ./cmd/pvlint-image ... -busybox BB/amd64/busybox -out dist/pvlint_image_debug_linux_amd64.tar
//
// GoReleaser's build hook runs for every target: with -os other than linux, nothing is
// written.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/pvlint/pvlint/cmd/internal/image"
)

func main() {
	binary := flag.String("binary", "", "the static linux pvlint binary")
	license := flag.String("license", "LICENSE", "the LICENSE file")
	goos := flag.String("os", "linux", "the binary's GOOS: an image is written only for linux")
	arch := flag.String("arch", "", "the binary's GOARCH (amd64, arm64)")
	version := flag.String("version", "", "the release tag, v1.2.3")
	revision := flag.String("revision", "", "the commit")
	created := flag.String("created", "", "the commit's time, RFC 3339")
	source := flag.String("source", "https://github.com/pvlint/pvlint", "the repository")
	repo := flag.String("repository", "ghcr.io/pvlint/pvlint", "the image's name, without tag (docker load tags it NAME:VERSION)")
	out := flag.String("out", "", "the tar file to write")
	merge := flag.Bool("merge", false, "join the single-platform image tar files given as arguments into one multi-platform image")
	busybox := flag.String("busybox", "", "a static busybox binary for the image's architecture: write the -debug variant with it")
	busyboxCopyright := flag.String("busybox-copyright", "", "busybox's copyright file (default: copyright beside -busybox)")
	applets := flag.String("applets", "packaging/busybox/applets", "the applets to link to busybox, one a line (# comments)")
	flag.Parse()
	if *out == "" {
		fail(fmt.Errorf("-out is required"))
	}
	if *merge {
		var ls []image.Layout
		for _, name := range flag.Args() {
			l, err := image.ReadFile(name)
			if err != nil {
				fail(fmt.Errorf("%s: %w", name, err))
			}
			ls = append(ls, l)
		}
		if len(ls) == 0 {
			fail(fmt.Errorf("-merge: no image given"))
		}
		l, err := image.Merge(ls...)
		if err != nil {
			fail(err)
		}
		if err := l.WriteFile(*out); err != nil {
			fail(err)
		}
		return
	}
	if *goos != "linux" {
		return // GoReleaser's build hook runs for every target; images are Linux's
	}
	bin, err := os.ReadFile(*binary)
	if err != nil {
		fail(err)
	}
	lic, err := os.ReadFile(*license)
	if err != nil {
		fail(err)
	}
	t, err := time.Parse(time.RFC3339, *created)
	if err != nil {
		fail(fmt.Errorf("-created: %w", err))
	}
	spec := image.Spec{Binary: bin, License: lic, Arch: *arch, Version: *version, Revision: *revision,
		Created: t, Source: *source, Repository: *repo}
	if *busybox != "" {
		if spec.Busybox, err = os.ReadFile(*busybox); err != nil {
			fail(err)
		}
		if *busyboxCopyright == "" {
			*busyboxCopyright = filepath.Join(filepath.Dir(*busybox), "copyright")
		}
		if spec.BusyboxCopyright, err = os.ReadFile(*busyboxCopyright); err != nil {
			fail(err)
		}
		list, err := os.ReadFile(*applets)
		if err != nil {
			fail(err)
		}
		for line := range strings.Lines(string(list)) {
			if a := strings.TrimSpace(line); a != "" && !strings.HasPrefix(a, "#") {
				spec.Applets = append(spec.Applets, a)
			}
		}
	}
	l, err := image.Build(spec)
	if err != nil {
		fail(err)
	}
	if err := l.WriteFile(*out); err != nil {
		fail(err)
	}
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "pvlint-image:", err)
	os.Exit(1)
}
