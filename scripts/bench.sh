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
# Usage: scripts/bench.sh [TARGETS=1000] [RUNS=3]    (root, for the private /etc/hosts)
# Needs nginx, openssl and python3 (apt-get install -y nginx-light openssl).
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${1:-1000}
runs=${2:-3}
work=$(mktemp -d /tmp/pinguard-bench.XXXXXX)
nginx_pid=""
cleanup() { [ -n "$nginx_pid" ] && kill "$nginx_pid" 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT

swift build -c release --product pinguard >/dev/null
swift build -c release --product pinguard-bench >/dev/null
swift build -c release --product pinguard-state-bench >/dev/null
swift build -c release --product pinguard-cache-bench >/dev/null
bin=$(swift build -c release --show-bin-path)

# shellcheck source=lib/bench_fleet.sh
. scripts/lib/bench_fleet.sh
bench_pki "$work"
pki=$work/pki
bench_nginx "$work" "$targets" 127.0.0.1 127.0.0.2 127.0.0.3

bench_policies "$work" "$bin/pinguard"
{
  echo "listen: \"127.0.0.1:0\""; echo "interval: 5m"; echo "timeout: 10s"; echo "concurrency: ${CONCURRENCY:-64}"
  echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "targets:"
  for i in $(seq 1 "$targets"); do echo "  - {host: t$i.bench.pinguard.test, port: $port, connect: 127.0.0.1, name: t$i}"; done
} > "$work/cfg/pinguard.yml"

echo "probe round: $targets loopback TLS targets (one nginx, $targets server names), 2 policy sets, concurrency ${CONCURRENCY:-64}, $(nproc) cores"
for run in $(seq 1 "$runs"); do
  python3 scripts/lib/bench_probe_round.py "$bin/pinguard" "$work/cfg/pinguard.yml" "$targets"
done

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
echo
echo "nodes: $names names x 3 addresses (resolved through a private /etc/hosts), 2 policy sets, concurrency ${CONCURRENCY:-64}"
for run in $(seq 1 "$runs"); do
  python3 scripts/lib/bench_probe_round.py "$bin/pinguard" "$work/cfg/nodes.yml" "$names" --addresses $((names * 3)) --hosts "$work/hosts"
done

# The live service with many targets: memory after a round and while serving /metrics.
big=${SERVICE_TARGETS:-10000}
# The next full round starts one interval after the first: after the reloads, the bench waits for it.
service_interval=${SERVICE_INTERVAL:-$([ "$big" -gt 20000 ] && echo 5m || echo 1m)}
http_port=$(python3 scripts/lib/free_port.py)
{
  echo "listen: \"127.0.0.1:$http_port\""; echo "interval: $service_interval"; echo "timeout: 10s"; echo "concurrency: ${CONCURRENCY:-64}"
  echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "targets:"
  for i in $(seq 1 "$big"); do echo "  - {host: t$i.bench.pinguard.test, port: $port, connect: 127.0.0.1, name: t$i}"; done
} > "$work/cfg/big.yml"
{
  echo "listen: \"127.0.0.1:$http_port\""; echo "interval: $service_interval"; echo "timeout: 10s"; echo "concurrency: ${CONCURRENCY:-64}"
  echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "targets:"
  for i in $(seq 1 10); do echo "  - {host: t$i.bench.pinguard.test, port: $port, connect: 127.0.0.1, name: t$i}"; done
} > "$work/cfg/small.yml"
echo
echo "config: check-config of $big inline targets and 2 policy files (what loading or reloading them costs)"
for run in $(seq 1 "$runs"); do
  start=$(date +%s.%N)
  "$bin/pinguard" check-config "$work/cfg/big.yml" >/dev/null
  done_at=$(date +%s.%N)
  awk -v a="$done_at" -v b="$start" 'BEGIN { printf "  check-config: %.2f s\n", a - b }'
done
cp "$work/cfg/big.yml" "$work/cfg/live.yml"
"$bin/pinguard" serve --config "$work/cfg/live.yml" --web.enable-lifecycle 2>/dev/null &
serve_pid=$!
start=$(date +%s.%N)
served_at=${start%.*}
until curl -sf "http://127.0.0.1:$http_port/-/ready" >/dev/null 2>&1; do
  kill -0 "$serve_pid" 2>/dev/null || { echo "serve exited"; break; }
  sleep 0.2
done
ready=$(date +%s.%N)
echo
echo "service: $big targets x 2 policy sets (first round, then /metrics scrapes)"
awk -v a="$ready" -v b="$start" 'BEGIN { printf "  first round (to /-/ready):  %.1f s\n", a - b }'
sleep 5
grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the first round: /'
for i in 1 2 3 4 5; do
  curl -s -o "$work/metrics.txt" -w '  scrape %{time_total}s, %{size_download} bytes\n' "http://127.0.0.1:$http_port/metrics"
done
grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the scrapes: /'
for i in 1 2 3 4 5; do
  curl -s --compressed -H 'Accept-Encoding: gzip' -o /dev/null \
    -w '  scrape with gzip %{time_total}s, %{size_download} bytes on the wire\n' "http://127.0.0.1:$http_port/metrics"
done
grep -E 'VmHWM' "/proc/$serve_pid/status" | sed 's/^/  after the gzip scrapes: /'
for i in 1 2 3; do
  curl -s -o /dev/null -X POST -w '  reload (POST /-/reload), nothing changed: results kept %{time_total}s (HTTP %{http_code})\n' "http://127.0.0.1:$http_port/-/reload"
done
# A policy edit (a backup pin added, then removed): every result is judged again by the new policies.
cp "$work/cfg/policies/ios-app.yml" "$work/ios-app.yml.orig"
for i in 1 2 3 4; do
  if [ $((i % 2)) -eq 1 ]; then
    echo "            - {type: spki, hash: \"$(openssl rand -base64 32)\", role: backup}" >> "$work/cfg/policies/ios-app.yml"
  else
    cp "$work/ios-app.yml.orig" "$work/cfg/policies/ios-app.yml"
  fi
  curl -s -o /dev/null -X POST -w '  reload (POST /-/reload) after a policy edit: every result judged again %{time_total}s (HTTP %{http_code})\n' "http://127.0.0.1:$http_port/-/reload"
  curl -s --compressed -o /dev/null -w '    the next scrape with gzip (slices rendered again) %{time_total}s\n' "http://127.0.0.1:$http_port/metrics"
done
grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the reloads: /'
probes() { curl -s "http://127.0.0.1:$http_port/metrics" | awk '$1 == "pinguard_probes_total" { printf "%d\n", $2 }'; }
before=$(probes); sleep 5; after=$(probes)
echo "  probes in the 5 s after the policy-edit reloads: $((after - before)) (a reload probes only targets without a current result)"
# The next full round (due one interval after the first started) replaces every result once more.
round_at() { curl -s "http://127.0.0.1:$http_port/metrics" | awk '$1 == "pinguard_round_timestamp_seconds" { print $2 }'; }
# Each look is a whole scrape (the round's timestamp comes last): sleep until the round is due, then look
# every 10 s, so the looking does not compete with the round for the cores.
first=$(round_at)
case $service_interval in *h) due=$(( ${service_interval%h} * 3600 ));; *m) due=$(( ${service_interval%m} * 60 ));; *) due=${service_interval%s};; esac
sleep $(( served_at + due - $(date +%s) > 0 ? served_at + due - $(date +%s) : 0 ))
until [ "$(round_at)" != "$first" ]; do kill -0 "$serve_pid" 2>/dev/null || break; sleep 10; done
curl -s --compressed -o /dev/null "http://127.0.0.1:$http_port/metrics"
grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the next full round (interval '"$service_interval"') and a scrape: /'
# Adding targets: the catch-up after the reload probes just those.
cp "$work/cfg/live.yml" "$work/live.yml.orig"
for i in $(seq $((big + 1)) $((big + 100))); do echo "  - {host: t$i.bench.pinguard.test, port: $port, connect: 127.0.0.1, name: t$i}"; done >> "$work/cfg/live.yml"
before=$(probes)
start=$(date +%s.%N)
curl -s -o /dev/null -X POST -w '  reload adding 100 targets %{time_total}s (HTTP %{http_code})' "http://127.0.0.1:$http_port/-/reload"
for _ in $(seq 200); do [ "$(( $(probes) - before ))" -ge 100 ] && break; sleep 0.1; done
done_at=$(date +%s.%N)
after=$(probes)
awk -v a="$done_at" -v b="$start" -v n="$((after - before))" 'BEGIN { printf ", then %d probes in %.1f s\n", n, a - b }'
cp "$work/live.yml.orig" "$work/cfg/live.yml"
cp "$work/cfg/small.yml" "$work/cfg/live.yml"
curl -s -o /dev/null -X POST -w "  reload to a 10-target config %{time_total}s (HTTP %{http_code})\n" "http://127.0.0.1:$http_port/-/reload"
sleep 2
grep -E 'VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after replacing the configuration with 10 targets: /'
kill "$serve_pid"; wait "$serve_pid" 2>/dev/null || true

echo
"$bin/pinguard-bench" 10000 2 20

echo
"$bin/pinguard-cache-bench" 131072

echo
echo "state file: the memory of served chains at ${STATE_TARGETS:-100000} targets (one address each): first round, steady round, hourly last-seen refresh, start-up load, file size"
"$bin/pinguard-state-bench" "${STATE_TARGETS:-100000}" "$work/state"

if [ -n "${PROMETHEUS_TARGETS:-}" ]; then
  echo
  PINGUARD_BENCH=$bin/pinguard-bench scripts/bench-prometheus.sh "$PROMETHEUS_TARGETS" "${PROMETHEUS_SCRAPES:-5}" 60s
fi
if [ -n "${BLACKBOX_TARGETS:-}" ]; then
  echo
  scripts/bench-blackbox.sh "$BLACKBOX_TARGETS" 5
fi
