#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark: one probe round over N loopback TLS targets (one nginx, N server names); a round over
# NODE_NAMES names (default 1000) that each resolve to 3 addresses (127.0.0.1-3, through a private
# /etc/hosts); check-config and the live service with SERVICE_TARGETS (default 10000) inline targets
# (first round, scrapes, reloads, the next full round one SERVICE_INTERVAL later: default 5m above 20,000
# targets, else 1m); /metrics rendering for 10,000 targets x 2 policy sets; the verification cache full; the
# state file. Prints figures; asserts nothing.
# The operator's side, when asked: PROMETHEUS_TARGETS=N adds scripts/bench-prometheus.sh (Debian's prometheus
# scraping the exposition of N targets x 2 sets, PROMETHEUS_SCRAPES times, default 5, every 60 s);
# BLACKBOX_TARGETS=N adds scripts/bench-blackbox.sh (blackbox_exporter on the same N-name fleet, 5 rounds).
# The live service runs as the package deploys it: a state file (StateDirectory), the forecast, and CT checked
# by the iOS app's set (the bench's private CA is exempt from the CT policies, so the verdicts stay the same).
# Usage: scripts/bench.sh [TARGETS=1000] [RUNS=3]    (root, for the private /etc/hosts)
# PARTS (default "rounds nodes service render cache state") picks the sections; BIN=DIR measures the binaries
# in DIR instead of building; SERVICE_NEXT_ROUND=0 skips waiting for the service's second full round.
# Needs nginx, openssl and python3 (apt-get install -y nginx-light openssl).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${1:-1000}
runs=${2:-3}
work=$(mktemp -d /tmp/pinguard-bench.XXXXXX)
nginx_pid=""
notify_pid=""
cleanup() {
  [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null
  [ -n "$notify_pid" ] && kill "$notify_pid" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
parts=" ${PARTS:-rounds nodes service render cache state} "
part() { [[ $parts == *" $1 "* ]]; }

if [ -n "${BIN:-}" ]; then
  bin=$BIN
else
  for product in pinguard pinguard-bench pinguard-state-bench pinguard-cache-bench; do
    swift build -c release --product "$product" >/dev/null
  done
  bin=$(swift build -c release --show-bin-path)
fi

# shellcheck source=lib/bench_fleet.sh
. scripts/lib/bench_fleet.sh
bench_pki "$work"
pki=$work/pki
bench_nginx "$work" "$targets" 127.0.0.1 127.0.0.2 127.0.0.3

bench_policies "$work" "$bin/pinguard"
# CT on, as an iOS app has it: SCTs are collected and judged for every target (the private CA is exempt).
sed -i 's/^name: bench-ios-app$/name: bench-ios-app\nclient: ios/' "$work/cfg/policies/ios-app.yml"
{
  echo "listen: \"127.0.0.1:0\""; echo "interval: 5m"; echo "timeout: 10s"; echo "concurrency: ${CONCURRENCY:-64}"
  echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "targets:"
  for i in $(seq 1 "$targets"); do echo "  - {host: t$i.bench.pinguard.test, port: $port, connect: 127.0.0.1, name: t$i}"; done
} > "$work/cfg/pinguard.yml"

if part rounds; then
echo "probe round: $targets loopback TLS targets (one nginx, $targets server names), 2 policy sets, concurrency ${CONCURRENCY:-64}, $(nproc) cores"
for run in $(seq 1 "$runs"); do
  python3 scripts/lib/bench_probe_round.py "$bin/pinguard" "$work/cfg/pinguard.yml" "$targets"
done
fi

# Every node behind a name: NODE_NAMES names, each resolving to 127.0.0.1, 127.0.0.2 and 127.0.0.3
# (one nginx listening on all three), so a round makes 3 x NODE_NAMES address probes.
names=${NODE_NAMES:-1000}
{
  echo "127.0.0.1 localhost"
  for i in $(seq 1 "$names"); do
    for a in 127.0.0.1 127.0.0.2 127.0.0.3; do echo "$a t$i.bench.pinguard.test"; done
  done
} > "$work/hosts"
{
  echo "listen: \"127.0.0.1:0\""; echo "interval: 5m"; echo "timeout: 10s"; echo "concurrency: ${CONCURRENCY:-64}"
  echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "targets:"
  for i in $(seq 1 "$names"); do echo "  - {host: t$i.bench.pinguard.test, port: $port, name: t$i}"; done
} > "$work/cfg/nodes.yml"
if part nodes; then
echo
echo "nodes: $names names x 3 addresses (resolved through a private /etc/hosts), 2 policy sets, concurrency ${CONCURRENCY:-64}"
for run in $(seq 1 "$runs"); do
  python3 scripts/lib/bench_probe_round.py "$bin/pinguard" "$work/cfg/nodes.yml" "$names" --addresses $((names * 3)) --hosts "$work/hosts"
done
fi

# The live service with many targets, as deployed: memory after a round and while serving /metrics, reloads.
if part service; then
  # shellcheck source=lib/bench_service.sh
  . scripts/lib/bench_service.sh
  bench_service
fi

if part render; then
  echo
  "$bin/pinguard-bench" 10000 2 20
fi

if part cache; then
  echo
  "$bin/pinguard-cache-bench" 131072
fi

if part state; then
echo
echo "state file: the memory of served chains at ${STATE_TARGETS:-100000} targets (one address each): first round, steady round, hourly last-seen refresh, start-up load, file size"
"$bin/pinguard-state-bench" "${STATE_TARGETS:-100000}" "$work/state"
fi

if [ -n "${PROMETHEUS_TARGETS:-}" ]; then
  echo
  PINGUARD_BENCH=$bin/pinguard-bench scripts/bench-prometheus.sh "$PROMETHEUS_TARGETS" "${PROMETHEUS_SCRAPES:-5}" 60s
fi
if [ -n "${BLACKBOX_TARGETS:-}" ]; then
  echo
  scripts/bench-blackbox.sh "$BLACKBOX_TARGETS" 5
fi
