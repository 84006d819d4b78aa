#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Time and peak memory of pinguard on hostile and large YAML: the alias-bomb reproducers, a 16 MiB
# file, and a legitimate policy with many patterns. Prints one line per case: seconds, MB, exit status.
#   scripts/bench-hostile-yaml.sh [PINGUARD_BINARY]   (default .build/release/pinguard)
set -u
cd "$(dirname "$0")/.."
bin=${1:-.build/release/pinguard}
repro=Tests/Fixtures/repro
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
: > "$tmp/empty.dat"
[ -x "$bin" ] || { echo "no binary at $bin (swift build -c release)"; exit 2; }

measure() {
  local label=$1; shift
  /usr/bin/time -f "%e %M" -o "$tmp/time" "$bin" "$@" > /dev/null 2> "$tmp/err"
  local rc=$? secs kb
  read -r secs kb < <(tail -1 "$tmp/time")
  printf '%-44s %6.2f s %6d MB  exit %d  %s\n' "$label" "$secs" $((kb / 1024)) "$rc" "$(head -c 100 "$tmp/err" | head -1)"
}

[ -f "$repro/amp150.yml" ] && measure "lint amp150.yml (alias bomb)" lint "$repro/amp150.yml"
if [ -f "$repro/gen_amp.py" ] && command -v python3 > /dev/null; then
  python3 "$repro/gen_amp.py" 400 400 100 "$tmp/amp-big.yml"
  measure "lint gen_amp 400x400x100" lint "$tmp/amp-big.yml"
fi
head -c $((15 << 20)) /dev/zero | tr '\0' 'x' | sed 's/^/name: /' > "$tmp/16m.yml"
measure "lint 15 MiB one-line value" lint "$tmp/16m.yml"
measure "lint /dev/zero" lint /dev/zero

# A legitimate policy: N patterns with two pins each.
patterns=${PATTERNS:-20000}
{
  printf 'name: many\nenvironments:\n  prod:\n    policies:\n'
  for ((i = 0; i < patterns; i++)); do
    printf '      - pattern: h%d.example.com\n        policy:\n          pins:\n' "$i"
    printf '            - {hash: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="}\n'
    printf '            - {hash: "BBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBBA=", role: backup}\n'
  done
} > "$tmp/many.yml"
measure "lint $patterns patterns ($(($(wc -c < "$tmp/many.yml") / 1024)) KB)" lint --public-suffix-list "$tmp/empty.dat" "$tmp/many.yml"
