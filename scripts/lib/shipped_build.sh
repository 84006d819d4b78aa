# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# The build the Debian package ships: release, the Swift runtime linked into the binary, every symbol
# bound at load, in its own scratch path. Sourced by scripts/package-deb.sh and the benchmarks that
# measure what operators run. Needs ROOT (the repository).
shipped_build_flags=(-c release --static-swift-stdlib --disable-local-rpath -Xlinker -z -Xlinker now
                     --scratch-path "$ROOT/.build-release-static")
