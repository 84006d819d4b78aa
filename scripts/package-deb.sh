#!/usr/bin/env bash
# package-deb.sh: builds the Debian package pinguard_VERSION_ARCH.deb.
#
#   scripts/package-deb.sh [OUTPUT_DIR]        (default: out/)
#
# VERSION is the Debian version of contrib/debian/changelog (UPSTREAM-REVISION), whose upstream
# part must equal PinGuardVersion.current (Sources/PinGuardService/Lifecycle/Version.swift);
# ARCH is `dpkg --print-architecture`. Prints the path of the .deb as its last line.
#
# The binary is a release build linked with --static-swift-stdlib in its own scratch path
# (.build-release-static), so the package does not depend on a Swift toolchain; Debian's
# OpenSSL, libxml2, SQLite, zlib, libsystemd and libxcrypt stay shared libraries, and
# `Depends` is what dpkg-shlibdeps finds for them. The build leaves out the $ORIGIN run path
# (lintian: custom-library-search-path) and binds symbols at load time (-z now).
#
# What goes where:
#   /usr/bin/pinguard                               the binary, stripped
#   /usr/lib/systemd/system/pinguard.service        contrib/systemd, ExecStart=/usr/bin/pinguard
#   /usr/lib/systemd/catalog/pinguard.catalog       contrib/journald (postinst: journalctl --update-catalog)
#   /etc/pinguard/pinguard.yml, policies/*.yml      contrib/systemd's example, conffiles
#   /usr/share/pinguard/{public_suffix_list.dat,issuer_catalog.json,ct_log_list_apple.json,ct_log_list_chrome.json}
#                                                   bundled data, found by BundledResource in ../share/pinguard
#   /usr/share/pinguard/examples/policies/*.yml     policies/*.yml
#   /usr/share/man/man1/pinguard*.1.gz              swift-argument-parser's generate-manual
#   bash, zsh and fish completions                  `pinguard --generate-completion-script`
#   /usr/share/doc/pinguard/{copyright,changelog.Debian.gz}
#
# The man pages come from the generate-manual tool of swift-argument-parser (the tool its
# GenerateManual plugin runs), built in the same scratch path and run on the built binary: the
# plugin itself would build every product of the package a second time, in another configuration.
# Pages are dated by the changelog entry, and SOURCE_DATE_EPOCH is the changelog's date, so two
# builds of one commit give the same files.
#
# Needs: the Swift toolchain (PATH or /opt/swift/usr/bin), dpkg-dev, binutils, man-db (for a
# check of the pages), gzip.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
OUT=$(mkdir -p "${1:-$ROOT/out}" && cd "${1:-$ROOT/out}" && pwd)
export PATH=/opt/swift/usr/bin:$PATH
cd "$ROOT"

say() { echo "package-deb: $*" >&2; }
die() { say "$*"; exit 1; }

DEBIAN_SRC=$ROOT/contrib/debian
deb_version=$(dpkg-parsechangelog -l "$DEBIAN_SRC/changelog" -S Version)
upstream=${deb_version%-*}
swift_version=$(sed -n 's/.*static let current = "\(.*\)".*/\1/p' Sources/PinGuardService/Lifecycle/Version.swift)
[[ $upstream == "$swift_version" ]] ||
    die "contrib/debian/changelog is at $deb_version but Version.swift says $swift_version: add a changelog entry"
arch=$(dpkg --print-architecture)
SOURCE_DATE_EPOCH=$(dpkg-parsechangelog -l "$DEBIAN_SRC/changelog" -S Timestamp)
export SOURCE_DATE_EPOCH
manual_date=$(date -u -d "@$SOURCE_DATE_EPOCH" +%Y-%m-%d)

# shellcheck source=lib/shipped_build.sh
. "$ROOT/scripts/lib/shipped_build.sh"
build_flags=("${shipped_build_flags[@]}")
say "swift build ${build_flags[*]} --product pinguard"
swift build "${build_flags[@]}" --product pinguard >&2
swift build "${build_flags[@]}" --product generate-manual >&2
BIN=$(swift build "${build_flags[@]}" --show-bin-path)
[[ $("$BIN/pinguard" --version) == "$swift_version" ]] || die "the built pinguard does not report version $swift_version"

WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
PKG=$WORK/root
umask 022

# Binary. Swift's reflection metadata lives in allocated sections, which --strip-unneeded keeps.
install -D -m 0755 "$BIN/pinguard" "$PKG/usr/bin/pinguard"
strip --remove-section=.comment --remove-section=.note --strip-unneeded "$PKG/usr/bin/pinguard"
"$PKG/usr/bin/pinguard" --version >/dev/null || die "the stripped binary does not run"

# systemd unit and journal catalog.
install -d "$PKG/usr/lib/systemd/system" "$PKG/usr/lib/systemd/catalog"
sed 's|^ExecStart=/usr/local/bin/pinguard |ExecStart=/usr/bin/pinguard |' contrib/systemd/pinguard.service \
    >"$PKG/usr/lib/systemd/system/pinguard.service"
grep -qx 'ExecStart=/usr/bin/pinguard serve --config /etc/pinguard/pinguard.yml' "$PKG/usr/lib/systemd/system/pinguard.service" ||
    die "contrib/systemd/pinguard.service: ExecStart is not /usr/local/bin/pinguard serve --config /etc/pinguard/pinguard.yml"
install -m 0644 contrib/journald/pinguard.catalog "$PKG/usr/lib/systemd/catalog/pinguard.catalog"

# Configuration (conffiles) and examples.
install -D -m 0644 contrib/systemd/pinguard.yml "$PKG/etc/pinguard/pinguard.yml"
install -d "$PKG/etc/pinguard/policies" "$PKG/usr/share/pinguard/examples/policies"
install -m 0644 contrib/systemd/policies/*.yml "$PKG/etc/pinguard/policies/"
install -m 0644 policies/*.yml "$PKG/usr/share/pinguard/examples/policies/"

# Bundled data.
install -m 0644 Sources/PinGuardConfig/Resources/public_suffix_list.dat \
    Sources/PinGuardConfig/Resources/issuer_catalog.json Sources/PinGuardConfig/Resources/ct_log_list_apple.json \
    Sources/PinGuardConfig/Resources/ct_log_list_chrome.json "$PKG/usr/share/pinguard/"

# Man pages: pinguard(1) and one per subcommand.
install -d "$PKG/usr/share/man/man1"
"$BIN/generate-manual" "$PKG/usr/bin/pinguard" --multi-page --date "$manual_date" \
    --authors "pinguard maintainers" --output-directory "$PKG/usr/share/man/man1" >&2
[[ -f $PKG/usr/share/man/man1/pinguard.1 ]] || die "generate-manual wrote no pinguard.1"
for page in "$PKG"/usr/share/man/man1/*.1; do
    chmod 0644 "$page"
    if command -v man >/dev/null; then
        warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null || true)
        [[ -z $warnings ]] || die "$(basename "$page"): $warnings"
    fi
    gzip -9n "$page"
done

# Shell completions.
install -d "$PKG/usr/share/bash-completion/completions" "$PKG/usr/share/zsh/vendor-completions" \
    "$PKG/usr/share/fish/vendor_completions.d"
# bash-completion sources the file: a #! line there is only noise (lintian: bash-completion-with-hashbang).
"$PKG/usr/bin/pinguard" --generate-completion-script bash | sed '1{/^#!/d}' >"$PKG/usr/share/bash-completion/completions/pinguard"
"$PKG/usr/bin/pinguard" --generate-completion-script zsh >"$PKG/usr/share/zsh/vendor-completions/_pinguard"
"$PKG/usr/bin/pinguard" --generate-completion-script fish >"$PKG/usr/share/fish/vendor_completions.d/pinguard.fish"
chmod 0644 "$PKG"/usr/share/bash-completion/completions/pinguard "$PKG"/usr/share/zsh/vendor-completions/_pinguard \
    "$PKG"/usr/share/fish/vendor_completions.d/pinguard.fish

# Documentation.
install -d "$PKG/usr/share/doc/pinguard"
install -m 0644 "$DEBIAN_SRC/copyright" "$PKG/usr/share/doc/pinguard/copyright"
gzip -9n <"$DEBIAN_SRC/changelog" >"$PKG/usr/share/doc/pinguard/changelog.Debian.gz"
chmod 0644 "$PKG/usr/share/doc/pinguard/changelog.Debian.gz"

# Lintian's overrides, with their reasons.
if [[ -f $DEBIAN_SRC/lintian-overrides ]]; then
    install -D -m 0644 "$DEBIAN_SRC/lintian-overrides" "$PKG/usr/share/lintian/overrides/pinguard"
fi

# Control: Depends from dpkg-shlibdeps, Installed-Size from dpkg-gencontrol.
mkdir -p "$WORK/src/debian" "$PKG/DEBIAN"
cp "$DEBIAN_SRC/control" "$DEBIAN_SRC/changelog" "$WORK/src/debian/"
(
    cd "$WORK/src"
    dpkg-shlibdeps -Tdebian/substvars -e"$PKG/usr/bin/pinguard" >&2
    dpkg-gencontrol -ppinguard -P"$PKG" -Tdebian/substvars -fdebian/files >&2
)
for script in postinst prerm postrm; do install -m 0755 "$DEBIAN_SRC/$script" "$PKG/DEBIAN/$script"; done
(cd "$PKG" && find etc -type f | sort | sed 's|^|/|') >"$PKG/DEBIAN/conffiles"
(cd "$PKG" && find . -path ./DEBIAN -prune -o -type f -print | sed 's|^\./||' | LC_ALL=C sort | xargs md5sum) \
    >"$PKG/DEBIAN/md5sums"
chmod 0644 "$PKG/DEBIAN/control" "$PKG/DEBIAN/conffiles" "$PKG/DEBIAN/md5sums"

# Same timestamps every build.
find "$PKG" -depth -exec touch --no-dereference --date="@$SOURCE_DATE_EPOCH" {} +

deb=$OUT/pinguard_${deb_version}_${arch}.deb
dpkg-deb --root-owner-group -Zxz --build "$PKG" "$deb" >&2
say "$(grep '^Depends:' "$PKG/DEBIAN/control")"
echo "$deb"
