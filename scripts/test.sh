#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Runs every test of pinguard on a fresh Debian machine of this kind, as root:
# installs what the tests need, builds, runs the Swift test suites (unit tests, probes against real
# TLS servers, the service against a private journald) and the script suites (promtool rules and
# dashboard, systemd unit and journal catalog, the man pages, a real Prometheus scraping a real pinguard, and a short
# libFuzzer run of every reader). The Swift tests run as two processes of the test bundle at once (split by test
# class; every listed test must run), and the script suites and the fuzzing in three background lanes beside them;
# the lanes' outputs follow the Swift tests', each with its seconds.
# Ends with one line "N passed, M failed"; exits non-zero when anything failed.
#
#   scripts/test.sh          everything
#   scripts/test.sh --fast   the edit loop: build and the in-process Swift tests only (no test class that
#                            starts a pinguard process, no script suite, no fuzzing); says what it left out
set -uo pipefail
fast=""
case "${1:-}" in
  --fast) fast=1 ;;
  "") ;;
  *) echo "usage: scripts/test.sh [--fast]"; exit 2 ;;
esac
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
export DEBIAN_FRONTEND=noninteractive

packages="libssl-dev libsystemd-dev libcrypt-dev libxml2-dev zlib1g-dev libsqlite3-dev libpq-dev pkg-config openssl"
[ -z "$fast" ] && packages="$packages nginx-light prometheus prometheus-alertmanager python3-yaml publicsuffix curl python3 util-linux systemd pebble certbot chromium man-db postgresql"
missing=$(for p in $packages; do dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"; done)
if [ -n "$missing" ]; then
  # Keep package scripts from starting nginx or prometheus as system services.
  policy=/usr/sbin/policy-rc.d
  made_policy=""
  if [ ! -e "$policy" ]; then printf '#!/bin/sh\nexit 101\n' > "$policy"; chmod +x "$policy"; made_policy=1; fi
  apt-get update -qq && apt-get install -y -qq $missing >/dev/null
  status=$?
  [ -n "$made_policy" ] && rm -f "$policy"
  [ $status -eq 0 ] || { echo "test.sh: apt-get install failed"; exit 1; }
fi

passed=0
failed=0
failures=()
log=$(mktemp /tmp/pinguard-test.XXXXXX)
lanes=$(mktemp -d /tmp/pinguard-lanes.XXXXXX)
trap 'rm -rf "$log" "$lanes"' EXIT

# Counts a finished suite: its output ends with "N passed, M failed"; a missing line or a non-zero exit is a failure.
count() {
  local name=$1 rc=$2 output=$3 line p f
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$output" | tail -1)
  p=$(echo "$line" | awk '{print $1}'); f=$(echo "$line" | awk '{print $3}')
  passed=$((passed + ${p:-0})); failed=$((failed + ${f:-0}))
  if [ "$rc" -ne 0 ] || [ -z "$line" ]; then failures+=("$name (exit $rc)"); [ "${f:-0}" -eq 0 ] && failed=$((failed + 1)); fi
}

# In a background lane: runs one suite with its output, exit status and seconds in files named after KEY.
lane_suite() {
  local key=$1 name=$2; shift 2
  local began=$SECONDS
  echo "$name" > "$lanes/$key.name"
  "$@" > "$lanes/$key.out" 2>&1
  echo $? > "$lanes/$key.rc"
  echo $((SECONDS - began)) > "$lanes/$key.secs"
}

echo "== swift build"
if ! swift build --build-tests 2>&1 | tail -5; then echo "test.sh: build failed"; echo "0 passed, 1 failed"; exit 1; fi

skip=()
if [ -n "$fast" ]; then
  # The classes whose tests start a pinguard process: every class of PinGuardCLITests (the built binary end to end),
  # and elsewhere those that run the binary or the service with its journald.
  out_of_process=$( (sed -nE 's/^final class ([A-Za-z0-9_]+): XCTestCase.*/\1/p' Tests/PinGuardCLITests/*.swift
    grep -rlE 'runPinguard|CLI\.run|PinguardCLI\.binary|ServeProcess\(|ServiceWorld[.(]|RunningService\.' Tests --include='*Tests.swift' --exclude-dir=PinGuardCLITests \
      | xargs sed -nE 's/^final class ([A-Za-z0-9_]+): XCTestCase.*/\1/p') | sort -u)
  skip=(--skip "^PinGuardCLITests\." --skip "^[A-Za-z]+\.($(echo $out_of_process | tr ' ' '|'))/")
fi

# Beside the Swift tests, three lanes run in the background (most of their time is waiting for Prometheus, journald
# or a server, or one core of fuzzing): the script suites in two lanes, each one suite after another (as one lane
# they outlasted the Swift tests), and the fuzz build with a short bounded run of every reader. Their outputs are printed, in order, once everything has ended.
if [ -z "$fast" ]; then
  bin="$(swift build --show-bin-path)/pinguard"
  (
    lane_suite 10 "prometheus rules and dashboard" bash scripts/test-prometheus-rules.sh
    lane_suite 11 "systemd unit and journal catalog" env PINGUARD="$bin" bash scripts/test-systemd-unit.sh
    lane_suite 12 "man pages generated from docs/reference.md" bash scripts/test-man-pages.sh "$bin"
    lane_suite 13 "real prometheus end to end" env PINGUARD="$bin" bash scripts/test-prometheus-e2e.sh
    lane_suite 15 "shards, replicas and vantage points: several pinguard, one Prometheus" env PINGUARD="$bin" bash scripts/test-fleet.sh
    lane_suite 16 "one memory in PostgreSQL: shards, replicas, a reshard, the server lost and back" env PINGUARD="$bin" bash scripts/test-shared-state.sh
  ) &
  (
    lane_suite 14 "alerts reach people once: pinguard, Prometheus, Alertmanager, webhook" env PINGUARD="$bin" bash scripts/test-alert-delivery.sh
    lane_suite 17 "status page in headless chromium" env PINGUARD="$bin" bash scripts/test-status-page.sh
    lane_suite 18 "renewals by a real ACME CA (pebble, certbot, nginx)" env PINGUARD="$bin" bash scripts/test-renewals.sh
  ) &
  # Every reader under libFuzzer for a short bounded time (scripts/fuzz.sh runs them for an hour each). An input's
  # time bound is wide here, as the readers share two cores with the other lanes.
  (
    lane_suite 20 "fuzzing every reader, ${PINGUARD_FUZZ_SECONDS:-8} s each" env FUZZ_TIMEOUT=30 bash scripts/fuzz-smoke.sh "${PINGUARD_FUZZ_SECONDS:-8}"
  ) &
fi

# One test process's result: its last "Executed N tests, with [K tests skipped and] M failures" line, and its exit
# status. A skipped test is not a pass: it is counted apart, and its output says why.
count_tests() {
  local name=$1 rc=$2 output=$3 summary n m k
  summary=$(grep -E "Executed [0-9]+ tests?, with ([0-9]+ tests? skipped and )?[0-9]+ failures?" "$output" | tail -1)
  n=$(echo "$summary" | sed -E 's/.*Executed ([0-9]+) tests?.*/\1/'); m=$(echo "$summary" | sed -E 's/.* ([0-9]+) failures?.*/\1/')
  k=$(echo "$summary" | sed -nE 's/.*with ([0-9]+) tests? skipped.*/\1/p')
  passed=$((passed + ${n:-0} - ${m:-0} - ${k:-0})); failed=$((failed + ${m:-0})); executed=$((executed + ${n:-0}))
  skipped=$((skipped + ${k:-0}))
  if [ "$rc" -ne 0 ] || [ -z "$summary" ]; then failures+=("$name (exit $rc)"); [ "${m:-0}" -eq 0 ] && failed=$((failed + 1)); fi
}
skipped=0
executed=0

if [ -n "$fast" ]; then
  echo "== swift test (in-process tests only)"
  swift test --skip-build "${skip[@]}" 2>&1 | tee "$log" | grep -vE "^Test Case '.*' (started|passed)"
  count_tests "swift test" "${PIPESTATUS[0]}" "$log"
else
  # The XCTest bundle in two processes at once, split by test class: the service, download, probe, command, config
  # and state tests (mostly waiting on processes and sockets) beside the rest. Every listed test must have run.
  bundle="$(swift build --show-bin-path)/pinguardPackageTests.xctest"
  "$bundle" --list-tests 2>/dev/null | grep -E '^[A-Za-z]+Tests\.[A-Za-z0-9_]+/' > "$lanes/tests"
  sed -E 's|/.*||' "$lanes/tests" | sort -u > "$lanes/classes"
  split='^PinGuard(Service|Fetch|Probe|Commands|Config|State)Tests\.'
  grep -E "$split" "$lanes/classes" > "$lanes/classes-waiting"
  echo "== swift test: $(wc -l < "$lanes/tests") tests of $(wc -l < "$lanes/classes") classes in two processes"
  "$bundle" "$(grep -vxF -f "$lanes/classes-waiting" "$lanes/classes" | paste -sd, -)" > "$lanes/swift-rest.log" 2>&1 &
  rest=$!
  "$bundle" "$(paste -sd, - < "$lanes/classes-waiting")" 2>&1 | tee "$log" | grep -vE "^Test Case '.*' (started|passed)"
  count_tests "swift tests of the service, downloads, probes, commands, config and state" "${PIPESTATUS[0]}" "$log"
  wait "$rest"
  rc=$?
  grep -vE "^Test Case '.*' (started|passed)" "$lanes/swift-rest.log"
  count_tests "the other swift tests" "$rc" "$lanes/swift-rest.log"
  listed=$(wc -l < "$lanes/tests")
  if [ "$executed" -ne "$listed" ]; then
    echo "test.sh: $listed Swift tests are listed but $executed ran"; failures+=("swift tests listed but not run"); failed=$((failed + 1))
  fi
fi

if [ -n "$fast" ]; then
  echo
  echo "not run by --fast (scripts/test.sh runs them): $(echo $out_of_process | wc -w) test classes that start pinguard; the script suites; fuzzing"
  [ "$skipped" -gt 0 ] && echo "$skipped Swift tests skipped (not counted as passed; each says why above)"
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]; exit $?
fi

wait
echo
for key in $(ls "$lanes" | sed -n 's/\.name$//p' | sort); do
  echo "== $(cat "$lanes/$key.name") ($(cat "$lanes/$key.secs" 2>/dev/null || echo "?") s)"
  cat "$lanes/$key.out"
  count "$(cat "$lanes/$key.name")" "$(cat "$lanes/$key.rc" 2>/dev/null || echo 1)" "$lanes/$key.out"
done

echo
for f in "${failures[@]}"; do echo "FAILED: $f"; done
[ "$skipped" -gt 0 ] && echo "$skipped Swift tests skipped (not counted as passed; each says why above)"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ ${#failures[@]} -eq 0 ]
