#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Side-by-side benchmark: pinguard `serve --once` and blackbox_exporter (Debian's
# prometheus-blackbox-exporter) probing the same fleet in one run: one nginx serving TARGETS server names
# (default 1000), each name resolving to 127.0.0.1 through a private /etc/hosts (a mount namespace), the
# same trust store, concurrency 32 for both. Five rounds each (ROUNDS), alternating; prints CPU per probe,
# round wall time and peak RSS per round, the medians and the ratios pinguard/blackbox. Asserts nothing.
# Usage: scripts/bench-blackbox.sh [TARGETS=1000] [ROUNDS=5]    (root, for the mount namespace)
# Needs nginx, openssl, python3 and prometheus-blackbox-exporter (apt-get install -y nginx-light openssl
# prometheus-blackbox-exporter). pinguard is built as the Debian package ships it (scripts/lib/shipped_build.sh:
# the Swift runtime linked in); PINGUARD=path measures that binary instead (a plain release build, say);
# PERF_OUT=FILE adds a pinguard round under `perf record` (ROUNDS=0 for that round alone). Then the warm side by
# side (the live service's rounds against one warm blackbox_exporter, start-up excluded) and start-up alone;
# SKIP_COLD=1 runs only those; WARM_INTERVAL (default 20) is the live service's interval in seconds.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${1:-1000}
rounds=${2:-5}
concurrency=${CONCURRENCY:-32}
work=$(mktemp -d /tmp/pinguard-bench-blackbox.XXXXXX)
nginx_pid=""
cleanup() { [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

if [ -z "${PINGUARD:-}" ]; then
  ROOT=$PWD
  # shellcheck source=lib/shipped_build.sh
  . scripts/lib/shipped_build.sh
  swift build "${shipped_build_flags[@]}" --product pinguard >/dev/null
  PINGUARD=$(swift build "${shipped_build_flags[@]}" --show-bin-path)/pinguard
fi
blackbox=$(command -v prometheus-blackbox-exporter || command -v blackbox_exporter)

# shellcheck source=lib/bench_fleet.sh
. scripts/lib/bench_fleet.sh
bench_pki "$work"
pki=$work/pki
bench_nginx "$work" "$targets" 127.0.0.1

{ echo "127.0.0.1 localhost"; for i in $(seq 1 "$targets"); do echo "127.0.0.1 t$i.bench.pinguard.test"; done; } > "$work/hosts"
for i in $(seq 1 "$targets"); do echo "t$i.bench.pinguard.test:$port"; done > "$work/targets.txt"

bench_policies "$work" "$PINGUARD"
{
  echo "listen: \"127.0.0.1:0\""; echo "interval: 5m"; echo "timeout: 10s"; echo "concurrency: $concurrency"
  echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "targets:"
  for i in $(seq 1 "$targets"); do echo "  - {host: t$i.bench.pinguard.test, port: $port, name: t$i}"; done
} > "$work/cfg/pinguard.yml"

# blackbox_exporter: a TCP connect and a verified TLS handshake (chain and host name) with the same CA file,
# IPv4 as the names resolve.
cat > "$work/blackbox.yml" <<YML
modules:
  tls:
    prober: tcp
    timeout: 10s
    tcp:
      preferred_ip_protocol: ip4
      tls: true
      tls_config:
        ca_file: $pki/ca-bundle.pem
YML

echo "side by side: $targets TLS targets (one nginx, $targets server names via a private /etc/hosts), concurrency $concurrency, $rounds rounds each, $(nproc) cores"
echo "pinguard: $("$PINGUARD" --version 2>/dev/null | head -1); blackbox_exporter: $("$blackbox" --version 2>&1 | head -1)"
in_hosts() { unshare --mount --propagation private sh -c 'mount --bind "$0" /etc/hosts && exec "$@"' "$work/hosts" "$@"; }
in_hosts python3 scripts/lib/bench_blackbox.py --pinguard "$PINGUARD" --config "$work/cfg/pinguard.yml" \
  --blackbox "$blackbox" --blackbox-config "$work/blackbox.yml" --targets "$work/targets.txt" \
  --rounds "$rounds" --concurrency "$concurrency" ${SKIP_COLD:+--skip-cold} --warm-interval "${WARM_INTERVAL:-20}"
# PERF_OUT=FILE: one more pinguard round under `perf record` (DWARF call graphs), for `perf report -i FILE`.
if [ -n "${PERF_OUT:-}" ]; then
  in_hosts perf record -q --call-graph dwarf,16384 -F "${PERF_FREQ:-250}" -o "$PERF_OUT" -- \
    "$PINGUARD" serve --once --config "$work/cfg/pinguard.yml" | tail -1
fi
