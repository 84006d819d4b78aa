#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Benchmark of the HTTP endpoint: /metrics of 1,500 failed targets x 20 policy sets (several MB) plain and
# gzipped (bytes and time), and the cost of basic authentication over HTTPS with a bcrypt cost-10 hash:
# the first request (bcrypt computed) against later ones (remembered). Prints figures; asserts nothing.
# Usage: scripts/bench-endpoint.sh [REQUESTS=20]
# Needs curl, openssl, python3. Uses $PINGUARD if set, else a debug build.
set -euo pipefail
cd "$(dirname "$0")/.."
requests=${1:-20}
work=$(mktemp -d /tmp/pinguard-bench-endpoint.XXXXXX)
pid=""
cleanup() { [ -n "$pid" ] && kill "$pid" 2>/dev/null; wait 2>/dev/null; rm -rf "$work"; }
trap cleanup EXIT
if [ -z "${PINGUARD:-}" ]; then
  swift build --product pinguard >/dev/null
  PINGUARD=$(swift build --show-bin-path)/pinguard
fi

# Config: 20 policy sets covering **.pinguard.test, 1,500 targets on a closed port.
read -r closed port <<<"$(python3 scripts/lib/free_port.py 2 | tr '\n' ' ')"
python3 scripts/lib/bench_endpoint_config.py "$work" "$closed" "$port"

# HTTPS with a bcrypt cost-10 password (libxcrypt, scripts/lib/bcrypt_hash.py).
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$work/server.key" -out "$work/server.pem" \
  -days 1 -subj /CN=localhost -addext subjectAltName=IP:127.0.0.1 2>/dev/null
hash=$(python3 scripts/lib/bcrypt_hash.py bench-pw 10)
printf 'tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\nbasic_auth_users:\n  bench: "%s"\n' "$hash" > "$work/web.yml"

"$PINGUARD" serve --config "$work/pinguard.yml" --web.config.file "$work/web.yml" 2>"$work/stderr.log" &
pid=$!
c=(curl -sS --cacert "$work/server.pem" -o /dev/null)
url="https://127.0.0.1:$port"
for _ in $(seq 100); do
  [ "$("${c[@]}" -u bench:bench-pw -w '%{http_code}' "$url/-/ready" 2>/dev/null || true)" = 200 ] && break
  kill -0 "$pid" 2>/dev/null || { cat "$work/stderr.log"; exit 1; }
  sleep 0.2
done
# The readiness loop above already authenticated once: restart the cache with a fresh user list.
printf 'tls_server_config:\n  cert_file: server.pem\n  key_file: server.key\nbasic_auth_users:\n  bench2: "%s"\n' "$hash" > "$work/web.yml"
first=$("${c[@]}" -u bench2:bench-pw -w '%{time_total}' "$url/healthz")
total=0
for _ in $(seq "$requests"); do
  t=$("${c[@]}" -u bench2:bench-pw -w '%{time_total}' "$url/healthz")
  total=$(awk -v a="$total" -v b="$t" 'BEGIN { print a + b }')
done
wrong=$("${c[@]}" -u bench2:wrong -w '%{time_total}' "$url/healthz")
echo "basic auth over HTTPS, bcrypt cost 10: first request ${first}s, next $requests average $(awk -v a="$total" -v n="$requests" 'BEGIN { printf "%.4f", a / n }')s, wrong password ${wrong}s"

plain=$("${c[@]}" -u bench2:bench-pw -w '%{size_download} %{time_total}' "$url/metrics")
gz=$("${c[@]}" -u bench2:bench-pw -H 'Accept-Encoding: gzip' -w '%{size_download} %{time_total}' "$url/metrics")
echo "/metrics plain: ${plain% *} bytes in ${plain#* }s; gzip: ${gz% *} bytes in ${gz#* }s"
rss=$(awk '/VmHWM/ {print $2}' /proc/$pid/status)
echo "pinguard peak resident size: $((rss / 1024)) MiB"
