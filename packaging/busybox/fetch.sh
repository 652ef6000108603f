#!/bin/sh
# Fetches the static busybox of Debian's busybox-static package (bookworm) for amd64
# and arm64 into DIR/ARCH/busybox, with Debian's copyright file (GPL-2.0, which the
# image ships beside it) in DIR/ARCH/copyright: the shell and tools of the container image's -debug
# variant (cmd/pvlint-image -busybox), which CI systems that run a script inside the
# job's image (GitLab) need. Each .deb is checked against the SHA-256 that Debian's
# signed package index lists for it (apt-cache show busybox-static:ARCH), so the image
# gets the same bytes in every release. When Debian drops this version from its pool,
# the download fails: bump version and both sums from a current index.
#
#   packaging/busybox/fetch.sh .tools/busybox   # make tools; the release workflow
set -eu
dir=${1:?usage: fetch.sh DIR}
version=1.35.0-4+deb12u1+b1
pool=${BUSYBOX_POOL_URL:-https://deb.debian.org/debian/pool/main/b/busybox}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
for arch in amd64 arm64; do
  case $arch in
    amd64) sum=3d3fdbe91d4660c873e14b092c213fe81c1da6362daa236eb25d0171eb108744 ;;
    arm64) sum=732c9135564fc71337e0e05fb4da4d11e6c28c1834bce3e405e575afef2a52f5 ;;
  esac
  if [ -f "$dir/$arch/busybox.deb-sha256" ] && [ "$(cat "$dir/$arch/busybox.deb-sha256")" = "$sum" ] && [ -x "$dir/$arch/busybox" ]; then
    continue
  fi
  deb=busybox-static_${version}_$arch.deb
  curl -fsSL --retry 3 -o "$tmp/$deb" "$pool/$deb"
  (cd "$tmp" && echo "$sum  $deb" | sha256sum -c - >/dev/null) || { echo "fetch.sh: $deb does not have its SHA-256 $sum" >&2; exit 1; }
  mkdir -p "$tmp/$arch" "$dir/$arch"
  dpkg-deb --fsys-tarfile "$tmp/$deb" | tar -x -C "$tmp/$arch" ./bin/busybox ./usr/share/doc/busybox-static/copyright
  install -m 0755 "$tmp/$arch/bin/busybox" "$dir/$arch/busybox"
  install -m 0644 "$tmp/$arch/usr/share/doc/busybox-static/copyright" "$dir/$arch/copyright"
  echo "$sum" > "$dir/$arch/busybox.deb-sha256"
done
