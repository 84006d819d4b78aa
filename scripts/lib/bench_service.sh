# SPDX-License-Identifier: Apache-2.0
# shellcheck shell=bash
# Sourced by scripts/bench.sh: the live service with SERVICE_TARGETS inline targets as the package runs it (a
# state file, the forecast, CT checked by one set): first round, resident memory, scrapes (series, gzip), reloads,
# the state file's size and the round's write time (from the STATUS line pinguard sends systemd, caught by
# scripts/lib/notify_status.py), the next full round (unless SERVICE_NEXT_ROUND=0), adding targets, shrinking.
# Uses $bin, $work, $pki, $port, $runs and part() of bench.sh; prints figures, asserts nothing.

bench_service() {
  # The live service with many targets: memory after a round and while serving /metrics.
  big=${SERVICE_TARGETS:-10000}
  # The next full round starts one interval after the first: after the reloads, the bench waits for it.
  service_interval=${SERVICE_INTERVAL:-$([ "$big" -gt 20000 ] && echo 5m || echo 1m)}
  http_port=$(python3 scripts/lib/free_port.py)
  {
    echo "listen: \"127.0.0.1:$http_port\""; echo "interval: $service_interval"; echo "timeout: 10s"; echo "concurrency: ${CONCURRENCY:-64}"
    echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "state: {path: $work/state-live/state.db}"
    echo "targets:"
    for i in $(seq 1 "$big"); do echo "  - {host: t$i.bench.pinguard.test, port: $port, connect: 127.0.0.1, name: t$i}"; done
  } > "$work/cfg/big.yml"
  {
    echo "listen: \"127.0.0.1:$http_port\""; echo "interval: $service_interval"; echo "timeout: 10s"; echo "concurrency: ${CONCURRENCY:-64}"
    echo "trust: {ca_file: $pki/ca-bundle.pem}"; echo "journal: {enabled: false}"; echo "state: {path: $work/state-live/state.db}"
    echo "targets:"
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
  mkdir -p "$work/state-live"
  python3 scripts/lib/notify_status.py "$work/notify.sock" "$work/status.txt" &
  notify_pid=$!
  for _ in $(seq 50); do [ -S "$work/notify.sock" ] && break; sleep 0.1; done
  NOTIFY_SOCKET=$work/notify.sock "$bin/pinguard" serve --config "$work/cfg/live.yml" --web.enable-lifecycle 2>/dev/null &
  serve_pid=$!
  start=$(date +%s.%N)
  served_at=${start%.*}
  until curl -sf "http://127.0.0.1:$http_port/-/ready" >/dev/null 2>&1; do
    kill -0 "$serve_pid" 2>/dev/null || { echo "serve exited"; break; }
    sleep 0.2
  done
  ready=$(date +%s.%N)
  echo
  echo "service: $big targets x 2 policy sets, state file, forecast, CT (first round, then /metrics scrapes); load $(cut -d' ' -f1-3 /proc/loadavg)"
  awk -v a="$ready" -v b="$start" 'BEGIN { printf "  first round (to /-/ready):  %.1f s\n", a - b }'
  sleep 5
  grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the first round: /'
  grep 'last round' "$work/status.txt" | tail -1 | sed 's/^/  status: /'
  state_file_size
  for i in 1 2 3 4 5; do
    curl -s -o "$work/metrics.txt" -w '  scrape %{time_total}s, %{size_download} bytes\n' "http://127.0.0.1:$http_port/metrics"
  done
  grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the scrapes: /'
  awk -v n="$big" '!/^#/ && NF { c++ } END { printf "  series: %d (%.2f per target)\n", c, c / n }' "$work/metrics.txt"
  awk '!/^#/ && NF { sub(/[{ ].*/, "", $1); c[$1]++ } END { for (f in c) printf "    %s %d\n", f, c[f] }' "$work/metrics.txt" | sort -k2,2nr -k1,1 | head -40
  for i in 1 2 3 4 5; do
    curl -s --compressed -H 'Accept-Encoding: gzip' -o /dev/null \
      -w '  scrape with gzip %{time_total}s, %{size_download} bytes on the wire\n' "http://127.0.0.1:$http_port/metrics"
  done
  grep -E 'VmHWM' "/proc/$serve_pid/status" | sed 's/^/  after the gzip scrapes: /'
  for i in 1 2 3; do
    # PERF_RELOAD_UNCHANGED=FILE: the first of these under `perf record -g`.
    perf_pid=""
    if [ -n "${PERF_RELOAD_UNCHANGED:-}" ] && [ "$i" = 1 ]; then
      perf record -q -g -F "${PERF_FREQ:-999}" -p "$serve_pid" -o "$PERF_RELOAD_UNCHANGED" 2>/dev/null & perf_pid=$!
      sleep 1
    fi
    curl -s -o /dev/null -X POST -w '  reload (POST /-/reload), nothing changed: results kept %{time_total}s (HTTP %{http_code})\n' "http://127.0.0.1:$http_port/-/reload"
    if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" 2>/dev/null || true; fi
  done
  # A policy edit (a backup pin added, then removed): every result is judged again by the new policies.
  cp "$work/cfg/policies/ios-app.yml" "$work/ios-app.yml.orig"
  for i in 1 2 3 4; do
    if [ $((i % 2)) -eq 1 ]; then
      echo "            - {type: spki, hash: \"$(openssl rand -base64 32)\", role: backup}" >> "$work/cfg/policies/ios-app.yml"
    else
      cp "$work/ios-app.yml.orig" "$work/cfg/policies/ios-app.yml"
    fi
    # PERF_RELOAD=FILE: the policy-edit reload number PERF_RELOAD_AT (default 1; 2 takes the backup pin away again)
    # under `perf record -g` (for `perf report -i FILE`).
    perf_pid=""
    if [ -n "${PERF_RELOAD:-}" ] && [ "$i" = "${PERF_RELOAD_AT:-1}" ]; then
      perf record -q -g -F "${PERF_FREQ:-999}" -p "$serve_pid" -o "$PERF_RELOAD" 2>/dev/null & perf_pid=$!
      sleep 1
    fi
    cpu_before=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
    edit=$([ $((i % 2)) -eq 1 ] && echo "a backup pin added" || echo "the backup pin removed again: every target has no reserve, an event each")
    curl -s -o /dev/null -X POST -w "  reload (POST /-/reload) after a policy edit ($edit): every result judged again %{time_total}s (HTTP %{http_code})" "http://127.0.0.1:$http_port/-/reload"
    awk -v a="$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")" -v b="$cpu_before" -v hz="$(getconf CLK_TCK)" \
      'BEGIN { printf ", %.2f s of CPU\n", (a - b) / hz }'
    if [ -n "$perf_pid" ]; then kill -INT "$perf_pid"; wait "$perf_pid" 2>/dev/null || true; fi
    curl -s --compressed -o /dev/null -w '    the next scrape with gzip (slices rendered again) %{time_total}s\n' "http://127.0.0.1:$http_port/metrics"
  done
  # The edits operators make to one set, each judged again by a reload (the set covers every target).
  cp "$work/cfg/policies/android-app.yml" "$work/android-app.yml.orig"
  sed -i 's/^        policy:$/        policy:\n          expires: 2027-06-30/' "$work/cfg/policies/android-app.yml"
  timed_reload "a pin set's expiry given (android-app, 2027-06-30)"
  sed -i 's/expires: 2027-06-30/expires: 2027-09-30/' "$work/cfg/policies/android-app.yml"
  timed_reload "that expiry moved (2027-09-30)"
  sed 's/^name: bench-ios-app$/name: bench-new-app/' "$work/ios-app.yml.orig" > "$work/cfg/policies/new-app.yml"
  timed_reload "a third set added (new-app, covering every target)"
  rm -f "$work/cfg/policies/new-app.yml"
  cp "$work/android-app.yml.orig" "$work/cfg/policies/android-app.yml"
  timed_reload "back to the two sets as they were"
  # One host's policy edited (t1's own rule, the first in the file): only that host's target is judged again.
  sed -i "0,/^          pins:\$/s##          pins:\n            - {type: spki, hash: \"$(openssl rand -base64 32)\", role: backup}#" "$work/cfg/policies/ios-app.yml"
  timed_reload "a backup pin added to one host's policy (ios-app, t1's rule: one target)"
  cp "$work/ios-app.yml.orig" "$work/cfg/policies/ios-app.yml"
  timed_reload "that backup pin removed again"
  grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the reloads: /'
  probes() { curl -s "http://127.0.0.1:$http_port/metrics" | awk '$1 == "pinguard_probes_total" { printf "%d\n", $2 }'; }
  before=$(probes); sleep 5; after=$(probes)
  echo "  probes in the 5 s after the policy-edit reloads: $((after - before)) (a reload probes only targets without a current result)"
  # The next full round (due one interval after the first started) replaces every result once more.
  if [ "${SERVICE_NEXT_ROUND:-1}" != 0 ]; then
  round_at() { curl -s "http://127.0.0.1:$http_port/metrics" | awk '$1 == "pinguard_round_timestamp_seconds" { print $2 }'; }
  # Each look is a whole scrape (the round's timestamp comes last): sleep until the round is due, then look
  # every 10 s, so the looking does not compete with the round for the cores.
  first=$(round_at)
  case $service_interval in *h) due=$(( ${service_interval%h} * 3600 ));; *m) due=$(( ${service_interval%m} * 60 ));; *) due=${service_interval%s};; esac
  sleep $(( served_at + due - $(date +%s) > 0 ? served_at + due - $(date +%s) : 0 ))
  until [ "$(round_at)" != "$first" ]; do kill -0 "$serve_pid" 2>/dev/null || break; sleep 10; done
  curl -s --compressed -o /dev/null "http://127.0.0.1:$http_port/metrics"
  grep -E 'VmHWM|VmRSS' "/proc/$serve_pid/status" | sed 's/^/  after the next full round (interval '"$service_interval"') and a scrape: /'
  grep 'last round' "$work/status.txt" | tail -1 | sed 's/^/  status: /'
  state_file_size
  fi
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

}

# timed_reload WHAT: one reload after the edit WHAT, its wall and CPU time.
timed_reload() {
  local cpu_before
  cpu_before=$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")
  curl -s -o /dev/null -X POST -w "  reload after an edit ($1): %{time_total}s (HTTP %{http_code})" "http://127.0.0.1:$http_port/-/reload"
  awk -v a="$(awk '{ print $14 + $15 }' "/proc/$serve_pid/stat")" -v b="$cpu_before" -v hz="$(getconf CLK_TCK)" \
    'BEGIN { printf ", %.2f s of CPU\n", (a - b) / hz }'
}

# The state file's size (with its write-ahead log).
state_file_size() {
  local db=$work/state-live/state.db
  [ -f "$db" ] || { echo "  state file: none"; return; }
  echo "  state file: $(stat -c %s "$db") bytes, write-ahead log $(stat -c %s "$db-wal" 2>/dev/null || echo 0) bytes"
}
