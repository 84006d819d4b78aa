#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
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
#   /usr/share/pinguard/{public_suffix_list.dat,issuer_catalog.json,ct_log_list_apple.json,ct_log_list_chrome.json,
#                        ct_log_list_pubkey_chrome.pem,client_trust_stores.json}
#                                                   bundled data, found by BundledResource in ../share/pinguard
#   /usr/share/pinguard/examples/policies/*.yml     policies/*.yml
#   /usr/share/pinguard/prometheus/                 contrib/prometheus's rules (runbook_url rewritten to
#                                                   the installed docs) and alertmanager.yml when present
#   /usr/share/pinguard/grafana/pinguard.json       dashboards/pinguard.json
#   /usr/share/man/man1/pinguard.1.gz, pinguard-COMMAND.1.gz, /usr/share/man/man5/pinguard.yml.5.gz
#                                                   scripts/lib/man_pages.py from docs/reference.md
#   bash, zsh and fish completions                  `pinguard --generate-completion-script`
#   /usr/share/doc/pinguard/{reference,prometheus,benchmarks}.md, copyright, changelog.Debian.gz
# docs/reference.md (Packaging, Installed files) is the table of these paths.
#
# The man pages are generated from docs/reference.md, with each command's flags from its --help, so
# they say what the reference says. Pages are dated by the changelog entry, and SOURCE_DATE_EPOCH is
# the changelog's date, so two builds of one commit give the same files.
#
# Maintainer: as dch takes it, DEBFULLNAME (else NAME) and DEBEMAIL (else EMAIL; "Name <address>" in
# DEBEMAIL gives both); without them, the Maintainer of contrib/debian/control.
#
# Needs: the Swift toolchain (PATH or /opt/swift/usr/bin), dpkg-dev, binutils, python3, man-db (for
# a check of the pages), gzip.
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
# Before the build: a malformed DEBEMAIL fails at once.
maintainer=$(python3 scripts/lib/debian_maintainer.py "$DEBIAN_SRC/control") || die "no maintainer: see above"
say "Maintainer: $maintainer"

# shellcheck source=lib/shipped_build.sh
. "$ROOT/scripts/lib/shipped_build.sh"
build_flags=("${shipped_build_flags[@]}")
say "swift build ${build_flags[*]} --product pinguard"
swift build "${build_flags[@]}" --product pinguard >&2
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
    Sources/PinGuardConfig/Resources/ct_log_list_chrome.json Sources/PinGuardConfig/Resources/ct_log_list_pubkey_chrome.pem \
    Sources/PinGuardConfig/Resources/client_trust_stores.json "$PKG/usr/share/pinguard/"

# Man pages: pinguard(1), one per command, pinguard.yml(5), from docs/reference.md.
python3 scripts/lib/man_pages.py docs/reference.md "$PKG/usr/share/man" --date "$manual_date" \
    --version "$swift_version" --binary "$PKG/usr/bin/pinguard" >/dev/null || die "scripts/lib/man_pages.py failed"
for page in "$PKG"/usr/share/man/man[15]/*.[15]; do
    chmod 0644 "$page"
    if command -v man >/dev/null; then
        warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null || true)
        [[ -z $warnings ]] || die "$(basename "$page"): $warnings"
        # lexgrog reads the NAME line as mandb and lintian (bad-whatis-entry) do.
        lexgrog "$page" >/dev/null 2>&1 || die "$(basename "$page"): lexgrog cannot parse its NAME section"
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

# Prometheus rules, Alertmanager routing (written separately; installed when the tree has it) and the
# Grafana dashboard. Runbook links point to the installed Prometheus guide.
install -d "$PKG/usr/share/pinguard/prometheus" "$PKG/usr/share/pinguard/grafana"
for rules in pinguard.rules.yml pinguard.alerts.yml; do
    sed 's|runbook_url: "docs/\([a-z]*\.md\)#|runbook_url: "file:///usr/share/doc/pinguard/\1#|' \
        "contrib/prometheus/$rules" >"$PKG/usr/share/pinguard/prometheus/$rules"
done
if grep -h 'runbook_url:' "$PKG"/usr/share/pinguard/prometheus/*.yml | grep -v 'runbook_url: "file:///usr/share/doc/pinguard/'; then
    die "contrib/prometheus: a runbook_url above is not a docs/*.md#anchor link"
fi
if [[ -f contrib/prometheus/alertmanager.yml ]]; then
    install -m 0644 contrib/prometheus/alertmanager.yml "$PKG/usr/share/pinguard/prometheus/alertmanager.yml"
fi
install -m 0644 dashboards/pinguard.json "$PKG/usr/share/pinguard/grafana/pinguard.json"
chmod 0644 "$PKG"/usr/share/pinguard/prometheus/*.yml

# Documentation: kept uncompressed, as the runbook links open them in place.
install -d "$PKG/usr/share/doc/pinguard"
install -m 0644 docs/reference.md docs/prometheus.md docs/benchmarks.md "$PKG/usr/share/doc/pinguard/"
for target in $(grep -ho 'file:///usr/share/doc/pinguard/[a-z]*\.md' "$PKG"/usr/share/pinguard/prometheus/*.yml | sort -u); do
    [[ -f $PKG${target#file://} ]] || die "a runbook_url names ${target#file://}, which the package does not install"
done
install -m 0644 "$DEBIAN_SRC/copyright" "$PKG/usr/share/doc/pinguard/copyright"
gzip -9n <"$DEBIAN_SRC/changelog" >"$PKG/usr/share/doc/pinguard/changelog.Debian.gz"
chmod 0644 "$PKG/usr/share/doc/pinguard/changelog.Debian.gz"

# Lintian's overrides, with their reasons.
if [[ -f $DEBIAN_SRC/lintian-overrides ]]; then
    install -D -m 0644 "$DEBIAN_SRC/lintian-overrides" "$PKG/usr/share/lintian/overrides/pinguard"
fi

# Control: Depends from dpkg-shlibdeps, Installed-Size from dpkg-gencontrol.
mkdir -p "$WORK/src/debian" "$PKG/DEBIAN"
cp "$DEBIAN_SRC/changelog" "$WORK/src/debian/"
sed "s|^Maintainer: .*|Maintainer: $maintainer|" "$DEBIAN_SRC/control" >"$WORK/src/debian/control"
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
