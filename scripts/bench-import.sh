#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `pinguard import` (release build) on the hostile-input reproducers in Tests/Fixtures/repro/ and on a
# generated OkHttp file of N add() calls. Prints wall time, peak RSS and exit status; asserts nothing.
# Usage: scripts/bench-import.sh [CALLS=20000]
# Needs GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
calls=${1:-20000}
work=$(mktemp -d /tmp/pinguard-bench-import.XXXXXX)
trap 'rm -rf "$work"' EXIT

swift build -c release --product pinguard >/dev/null
bin=$(swift build -c release --show-bin-path)/pinguard
repro=Tests/Fixtures/repro

pin=V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=
{
  echo 'val p = CertificatePinner.Builder()'
  for ((i = 0; i < calls; i++)); do printf '    .add("h%d.example.com", "sha256/%s")\n' "$i" "$pin"; done
  echo '    .build()'
} > "$work/calls.kt"

run() {
  local format=$1 file=$2 status
  status=0
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" import --format "$format" "$file" >/dev/null 2>"$work/err" || status=$?
  read -r secs kb < <(tail -n 1 "$work/time")
  printf '%-40s %-16s %6.2f s %7.1f MiB  exit %d\n' "$(basename "$file")" "$format" "$secs" "$(echo "$kb / 1024" | bc -l)" "$status"
}

run hpkp "$repro/hpkp-maxage-intmax.txt"
run trustkit "$repro/bplist_fan6.plist"
run nspinneddomains "$repro/bplist_fan5_nspinneddomains.plist"
run okhttp "$repro/okhttp-sequential-add-5000.kt"
run okhttp "$repro/okhttp-nested-add-8000.kt"
run trustkit "$repro/xml-internal-entity-dropped.plist"
run trustkit "$repro/xml-entity-laughs-error89.plist"
run okhttp "$work/calls.kt"
