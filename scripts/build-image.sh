#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# build-image.sh: builds the container image pinguard:VERSION (and pinguard:latest) without pulling
# anything from a container registry.
#
#   scripts/build-image.sh [pinguard_VERSION_ARCH.deb]
#
# Without an argument it builds the Debian package first (scripts/package-deb.sh). Then:
# - mmdebstrap makes a Debian root file system (variant apt: the Essential packages and apt) of this
#   machine's release, from the Debian archive as this machine's apt sources name it
#   (scripts/lib/debian_sources.py; deb.debian.org when they name none), with ca-certificates and tzdata,
#   and installs the package into it with apt-get (its Depends come from the archive). That root is only
#   where the image's files come from:
# - scripts/lib/slim_rootfs.sh copies out of it what pinguard runs with and nothing else: the binary, the
#   shared libraries ldd lists for it (and the loader), the CA certificates (/etc/ssl, /usr/lib/ssl,
#   /usr/share/ca-certificates), tzdata's /usr/share/zoneinfo, /usr/share/pinguard (bundled data) and
#   /etc/pinguard, with the copyright file of every Debian package a file came from. No shell, no apt,
#   no dpkg. It runs `pinguard check-config` in the result to prove the libraries are all there.
# - In the image's /etc/pinguard/pinguard.yml the journal is off (no journald in a container:
#   events go to stderr through --log-events, the image's default argument).
# - A user pinguard with UID and GID 65532 owns /var/lib/pinguard, the state folder (STATE_DIRECTORY, a
#   volume; the configuration's state.path names /var/lib/pinguard/state.db).
# - `podman import` turns the slim tarball into an OCI image: user 65532:65532, entrypoint
#   `pinguard serve --config /etc/pinguard/pinguard.yml`, command `--log-events`, port 9477, volume
#   /var/lib/pinguard. A read-only root is a property of the run, not of the image: run it with
#   `podman run --read-only` (Kubernetes: readOnlyRootFilesystem, contrib/kubernetes).
# - The image is also written as an OCI archive, out/pinguard_VERSION_ARCH.oci.tar, for loading
#   where podman is not (`skopeo copy oci-archive:FILE ...`, `ctr images import`).
# VERSION is `pinguard --version` of the packaged binary. Prints the image name as its last line, after
# the image's size and file count (docs/reference.md, Container image, lists what it holds).
#
# Needs: root, mmdebstrap, podman (both Debian packages; installed when missing).
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$ROOT/out
UID_GID=65532
export DEBIAN_FRONTEND=noninteractive

say() { echo "build-image: $*" >&2; }
die() { say "$*"; exit 1; }

[[ $(id -u) == 0 ]] || die "needs root (mmdebstrap, podman import)"
for tool in mmdebstrap podman; do
    command -v "$tool" >/dev/null || apt-get install -y -qq "$tool" >/dev/null || die "cannot install $tool"
done

if [[ $# -ge 1 ]]; then
    deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
else
    deb=$(bash "$ROOT/scripts/package-deb.sh" "$OUT" | tail -n 1)
fi
[[ -f $deb ]] || die "no package at $deb"
version=$(dpkg-deb -f "$deb" Version); version=${version%-*}
arch=$(dpkg-deb -f "$deb" Architecture)
suite=$(. /etc/os-release && echo "$VERSION_CODENAME")
[[ -n $suite ]] || die "no VERSION_CODENAME in /etc/os-release"
SOURCE_DATE_EPOCH=$(dpkg-deb --fsys-tarfile "$deb" | tar -tv --full-time ./usr/bin/pinguard |
    awk '{print $4 " " $5}' | xargs -I{} date -u -d {} +%s)
export SOURCE_DATE_EPOCH

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cp "$deb" "$WORK/pinguard.deb"
python3 "$ROOT/scripts/lib/debian_sources.py" >"$WORK/debian.sources"
mirrors=()
[[ -s $WORK/debian.sources ]] && mirrors=("$WORK/debian.sources")

say "mmdebstrap $suite ($arch) with $(basename "$deb")"
mmdebstrap --variant=apt --architectures="$arch" --include=ca-certificates,tzdata \
    --dpkgopt='path-exclude=/usr/share/doc/*' --dpkgopt='path-include=/usr/share/doc/*/copyright' \
    --dpkgopt='path-exclude=/usr/share/man/*' --dpkgopt='path-exclude=/usr/share/info/*' \
    --dpkgopt='path-exclude=/usr/share/locale/*' --dpkgopt='path-include=/usr/share/locale/locale.alias' \
    --customize-hook="upload $WORK/pinguard.deb /tmp/pinguard.deb" \
    --customize-hook='chroot "$1" apt-get install -y --no-install-recommends /tmp/pinguard.deb' \
    --customize-hook='rm -f "$1/tmp/pinguard.deb"' \
    --customize-hook='sed -i "s/^journal: {enabled: true}.*/journal: {enabled: false}  # no journald in the container: events go to stderr (--log-events)/" "$1/etc/pinguard/pinguard.yml"' \
    --customize-hook='chroot "$1" pinguard check-config /etc/pinguard/pinguard.yml' \
    --customize-hook="bash $ROOT/scripts/lib/slim_rootfs.sh \"\$1\" $WORK/slim $UID_GID" \
    "$suite" "$WORK/full.tar" "${mirrors[@]}" >&2
[[ -x $WORK/slim/usr/bin/pinguard ]] || die "scripts/lib/slim_rootfs.sh made no root file system"
# Reproducible tarball of the slim root: sorted, owners numeric, times from SOURCE_DATE_EPOCH.
tar --sort=name --numeric-owner --mtime="@$SOURCE_DATE_EPOCH" --clamp-mtime -C "$WORK/slim" -cf "$WORK/rootfs.tar" .
say "slim root: $(du -sh --apparent-size "$WORK/slim" | cut -f1), $(find "$WORK/slim" -type f | wc -l) files"

image=pinguard:$version
say "podman import $image"
podman import \
    --change "USER $UID_GID:$UID_GID" \
    --change 'ENTRYPOINT ["/usr/bin/pinguard", "serve", "--config", "/etc/pinguard/pinguard.yml"]' \
    --change 'CMD ["--log-events"]' \
    --change 'ENV STATE_DIRECTORY=/var/lib/pinguard' \
    --change 'EXPOSE 9477/tcp' \
    --change 'VOLUME /var/lib/pinguard' \
    --change 'WORKDIR /var/lib/pinguard' \
    --change "LABEL org.opencontainers.image.title=pinguard" \
    --change "LABEL org.opencontainers.image.version=$version" \
    --message "pinguard $version from $(basename "$deb") on Debian $suite" \
    "$WORK/rootfs.tar" "$image" >&2
podman tag "$image" pinguard:latest
mkdir -p "$OUT"
rm -f "$OUT/pinguard_${version}_${arch}.oci.tar"
podman save --format oci-archive -o "$OUT/pinguard_${version}_${arch}.oci.tar" "$image" >&2
say "$(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.0f MB", $1 / 1e6}'), $OUT/pinguard_${version}_${arch}.oci.tar"
echo "$image"
