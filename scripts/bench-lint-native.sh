#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: `pinguard lint` on generated native files of N domains: an Android network security config whose
# domain-configs all inherit one <base-config> (cleartext, user CA, overridePins: every guardrail reaches every
# pinned domain) and an Info.plist with N pinned domains and N ATS exception domains. Prints wall time, peak
# RSS and exit status; asserts nothing.
# Usage: scripts/bench-lint-native.sh [DOMAINS=6000] [release|debug]  (6000 keeps the plist under the importers' 100,000-value cap)
# Needs GNU time (/usr/bin/time).
set -euo pipefail
cd "$(dirname "$0")/.."
domains=${1:-6000}
config=${2:-release}
work=$(mktemp -d /tmp/pinguard-bench-lint.XXXXXX)
trap 'rm -rf "$work"' EXIT

swift build -c "$config" --product pinguard >/dev/null
bin=$(swift build -c "$config" --show-bin-path)/pinguard

a=V4zZ9zgOAvYJg7dA+kmk0t+zIYSW0pYWf/cITIu9JvU=
b=kuSfssDcwQgR1zeaAWyuRb6/rAwifh8vmdDJto034ow=
{
  echo '<network-security-config>'
  echo '  <base-config cleartextTrafficPermitted="true"><trust-anchors>'
  echo '    <certificates src="system" overridePins="true"/><certificates src="user"/>'
  echo '  </trust-anchors></base-config>'
  for ((i = 0; i < domains; i++)); do
    printf '  <domain-config><domain>h%d.example.com</domain><pin-set><pin digest="SHA-256">%s</pin><pin digest="SHA-256">%s</pin></pin-set></domain-config>\n' "$i" "$a" "$b"
  done
  echo '</network-security-config>'
} > "$work/network_security_config.xml"
{
  echo '<plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>'
  echo '<key>NSExceptionDomains</key><dict>'
  for ((i = 0; i < domains; i++)); do
    printf '<key>h%d.example.com</key><dict><key>NSExceptionAllowsInsecureHTTPLoads</key><true/></dict>\n' "$i"
  done
  echo '</dict><key>NSPinnedDomains</key><dict>'
  for ((i = 0; i < domains; i++)); do
    printf '<key>h%d.example.com</key><dict><key>NSPinnedLeafIdentities</key><array><dict><key>SPKI-SHA256-BASE64</key><string>%s</string></dict><dict><key>SPKI-SHA256-BASE64</key><string>%s</string></dict></array></dict>\n' "$i" "$a" "$b"
  done
  echo '</dict></dict></dict></plist>'
} > "$work/Info.plist"

run() {
  local file=$1 status=0
  /usr/bin/time -f "%e %M" -o "$work/time" "$bin" lint --format sarif "$file" >"$work/out" 2>"$work/err" || status=$?
  read -r secs kb < <(tail -n 1 "$work/time")
  printf '%-28s %6d domains %7.2f s %7.1f MiB  exit %d  %s\n' "$(basename "$file")" "$domains" "$secs" \
    "$(echo "$kb / 1024" | bc -l)" "$status" "$(grep -c '"ruleId"' "$work/out") results"
}

run "$work/network_security_config.xml"
run "$work/Info.plist"
