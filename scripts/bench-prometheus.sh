#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# What the Prometheus that scrapes pinguard pays: Debian's prometheus scrapes the /metrics exposition of
# TARGETS synthetic targets x 2 policy sets (pinguard-bench renders it exactly as /metrics does) SCRAPES
# times, and the script prints the samples per scrape, the scrape durations Prometheus records and its
# resident memory (current and peak). Prints figures, asserts nothing.
#
# Usage: scripts/bench-prometheus.sh [TARGETS=100000] [SCRAPES=6] [INTERVAL=30s]
# Needs prometheus and python3 (apt-get install -y prometheus python3); a debug build of pinguard-bench
# unless $PINGUARD_BENCH names a binary.
set -euo pipefail
cd "$(dirname "$0")/.."
targets=${1:-100000}
scrapes=${2:-6}
interval=${3:-30s}
seconds=${interval%s}
work=$(mktemp -d /tmp/pinguard-bench-prometheus.XXXXXX)
pids=()
cleanup() { for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; rm -rf "$work"; }
trap cleanup EXIT

bench=${PINGUARD_BENCH:-}
if [ -z "$bench" ]; then
  export PATH=/opt/swift/usr/bin:$PATH
  swift build --product pinguard-bench >/dev/null
  bench=.build/debug/pinguard-bench
fi
mkdir -p "$work/www"
BENCH_EXPOSITION="$work/www/metrics" "$bench" "$targets" 2 1 | sed -n '1,5p'
bytes=$(stat -c %s "$work/www/metrics")
series=$(grep -vc '^#' "$work/www/metrics")
echo "exposition: $series series, $((bytes / 1048576)) MiB plain"

port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
web=$(port)
(cd "$work/www" && exec python3 -m http.server "$web" --bind 127.0.0.1 >/dev/null 2>&1) &
pids+=($!)
prom=$(port)
cat > "$work/prometheus.yml" <<YML
global: {scrape_interval: $interval, scrape_timeout: $((seconds - 1))s}
scrape_configs:
  - job_name: pinguard
    static_configs: [{targets: ["127.0.0.1:$web"]}]
YML
prometheus --config.file="$work/prometheus.yml" --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$prom" >"$work/prometheus.log" 2>&1 &
ppid=$!
pids+=($ppid)
query() {
  python3 - "$prom" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = f"http://127.0.0.1:{sys.argv[1]}/api/v1/query?query=" + urllib.parse.quote(sys.argv[2])
try:
    r = json.load(urllib.request.urlopen(url, timeout=10))["data"]["result"]
    print(r[0]["value"][1] if r else "")
except Exception:
    print("")
PY
}
echo "prometheus $(prometheus --version 2>&1 | head -1 | cut -d' ' -f3), scraping every $interval, $scrapes scrapes"
for i in $(seq 1 "$scrapes"); do
  sleep "$seconds"
  rss=$(awk '/VmRSS/ {print $2}' "/proc/$ppid/status")
  dur=$(query 'scrape_duration_seconds{job="pinguard"}')
  got=$(query 'scrape_samples_scraped{job="pinguard"}')
  printf '  after %3ds: scrape %s s, %s samples, prometheus RSS %d MiB\n' "$((i * seconds))" "${dur:-?}" "${got:-?}" "$((rss / 1024))"
done
hwm=$(awk '/VmHWM/ {print $2}' "/proc/$ppid/status")
max=$(query "max_over_time(scrape_duration_seconds{job=\"pinguard\"}[$((scrapes * seconds))s])")
echo "prometheus peak RSS $((hwm / 1024)) MiB; longest scrape ${max:-?} s"
