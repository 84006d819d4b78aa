#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# slim_rootfs.sh: copies out of a Debian root with pinguard installed what the image runs with.
#
#   slim_rootfs.sh FULL_ROOT SLIM_ROOT UID_GID
#
# SLIM_ROOT gets: /usr/bin/pinguard; the shared libraries `ldd` lists for it in FULL_ROOT and the dynamic
# loader (as the files and the symlinks that name them); the merged-/usr links (/lib, /lib64, /bin, /sbin);
# the CA certificates (/etc/ssl, and cert.pem, certs and openssl.cnf of /usr/lib/ssl: OpenSSL's default
# paths, /usr/share/ca-certificates);
# /usr/share/zoneinfo (tzdata); /usr/share/pinguard (bundled data); /etc/pinguard; /etc/nsswitch.conf;
# /etc/passwd and /etc/group with root and pinguard (UID_GID); /var/lib/pinguard owned by UID_GID, mode
# 0700; empty /tmp, /dev, /proc, /sys, /etc/hosts, /etc/resolv.conf for the runtime to mount over; and
# /usr/share/doc/PACKAGE/copyright of every Debian package any of those files came from (dpkg's lists). No
# shell, no package manager. Ends by running `pinguard check-config` and `--version` in SLIM_ROOT (chroot).
set -euo pipefail

FULL=$(cd "$1" && pwd -P)
SLIM=$2
ID=$3
die() { echo "slim_rootfs: $*" >&2; exit 1; }
[[ -x $FULL/usr/bin/pinguard ]] || die "$FULL has no /usr/bin/pinguard"
rm -rf "$SLIM"
mkdir -p "$SLIM"

# copy PATH: PATH of FULL (file, symlink or folder) into SLIM, with the folders above it; a symlink's
# target is copied too.
copy() {
    local path=$1 dir
    [[ -e $FULL$path || -L $FULL$path ]] || die "$path is missing in the full root"
    # The folder as it really is (/lib/x86_64-linux-gnu is /usr/lib/x86_64-linux-gnu with merged /usr).
    dir=$(cd "$FULL$(dirname "$path")" && pwd -P) || die "cannot enter the folder of $path"
    path=${dir#"$FULL"}/$(basename "$path")
    mkdir -p "$SLIM$(dirname "$path")"
    cp -a "$FULL$path" "$SLIM$(dirname "$path")/"
    if [[ -L $FULL$path ]]; then
        local target
        target=$(readlink "$FULL$path")
        [[ $target == /* ]] || target=$(dirname "$path")/$target
        target=$(realpath -m --no-symlinks "$target")
        [[ -e $SLIM$target || -L $SLIM$target ]] || copy "$target"
    fi
}

for link in /bin /sbin /lib /lib64; do [[ -L $FULL$link ]] && cp -a "$FULL$link" "$SLIM/"; done
copy /usr/bin/pinguard
libraries=$(chroot "$FULL" ldd /usr/bin/pinguard | awk '/=> \// {print $3} /^\t\// {print $1}')
[[ -n $libraries ]] || die "ldd lists no library for /usr/bin/pinguard"
for lib in $libraries; do copy "$lib"; done
for path in /etc/ssl /usr/lib/ssl/cert.pem /usr/lib/ssl/certs /usr/lib/ssl/openssl.cnf /usr/share/ca-certificates \
    /usr/share/zoneinfo /usr/share/pinguard \
    /etc/pinguard /etc/nsswitch.conf; do
    copy "$path"
done

# Licences: the copyright file of each package a copied file belongs to (dpkg's file lists; with merged
# /usr, a package may list /lib/… for what is now /usr/lib/…).
(cd "$SLIM" && find . -type f -printf '/%P\n' | sed -e 'p' -e 's|^/usr/|/|') >"$SLIM.files"
packages=$(for list in "$FULL"/var/lib/dpkg/info/*.list; do
    grep -Fxq -f "$SLIM.files" "$list" && basename "$list" .list | cut -d: -f1
done | sort -u)
rm -f "$SLIM.files"
[[ -n $packages ]] || die "no package of the full root lists the copied files"
for p in $packages; do
    [[ -f $FULL/usr/share/doc/$p/copyright ]] && copy "/usr/share/doc/$p/copyright"
done

printf 'root:x:0:0:root:/root:/usr/sbin/nologin\npinguard:x:%s:%s:pinguard:/var/lib/pinguard:/usr/sbin/nologin\n' \
    "$ID" "$ID" >"$SLIM/etc/passwd"
printf 'root:x:0:\npinguard:x:%s:\n' "$ID" >"$SLIM/etc/group"
install -d -m 0700 -o "$ID" -g "$ID" "$SLIM/var/lib/pinguard"
install -d -m 1777 "$SLIM/tmp"
install -d -m 0755 "$SLIM/dev" "$SLIM/proc" "$SLIM/sys" "$SLIM/root"
: >"$SLIM/etc/hosts"
: >"$SLIM/etc/resolv.conf"
chmod 0644 "$SLIM/etc/passwd" "$SLIM/etc/group" "$SLIM/etc/hosts" "$SLIM/etc/resolv.conf"

for forbidden in /usr/bin/apt /usr/bin/apt-get /usr/bin/dpkg /var/lib/dpkg /bin/sh /usr/bin/sh; do
    [[ -e $SLIM$forbidden ]] && die "$forbidden ended up in the slim root"
done
chroot "$SLIM" /usr/bin/pinguard --version >/dev/null || die "pinguard does not run in the slim root"
chroot "$SLIM" /usr/bin/pinguard check-config /etc/pinguard/pinguard.yml >&2 ||
    die "pinguard check-config fails in the slim root"
echo "slim_rootfs: $(echo $packages | wc -w) packages' files: $(echo $packages)" >&2
