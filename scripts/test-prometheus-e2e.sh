#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# End-to-end test of the Prometheus integration against a real Prometheus:
# the shipped rules, evaluated on what a running pinguard actually serves.
#
#   1. starts `pinguard serve --listen 127.0.0.1:<free port>` without --config,
#      i.e. the built-in demo (4 loopback TLS endpoints: demo-api healthy,
#      demo-expiring leaf expiring in 5 days without a reserve pin, demo-rotated
#      key rotated away from its pins, demo-backup running on its backup pin;
#      policy sets demo-ios-app and demo-android-app);
#   2. starts Debian's `prometheus` on 127.0.0.1:<another free port>, storage in
#      a temporary directory, with a config generated from
#      contrib/prometheus/prometheus.yml: same rule_files, the scrape target
#      rewritten to the pinguard port, scrape and evaluation interval 1s;
#   3. polls the Prometheus HTTP API (/api/v1/alerts, /api/v1/query) until the
#      expected alerts fire and the recording rules have values, then checks:
#      which alerts fire for which demo target (and that nothing else fires,
#      in particular nothing critical for demo-api), the values of the
#      recording rules, and that every name in
#      contrib/prometheus/exported-metrics.txt is a series in Prometheus.
#
# The recording rules (pinguard.rules.yml) are used unchanged. The alert rules
# wait minutes to an hour (`for:`) before firing; the test runs a temporary
# copy of pinguard.alerts.yml in which every `for:` is replaced by
# $E2E_ALERT_FOR (default 0s). The copy is made with python3 + PyYAML (load,
# set `for` on every alerting rule, dump) -- no yq needed; expressions, labels
# and annotations are untouched, and the copy is checked with promtool.
# The Python parts are scripts/lib/prometheus_e2e_config.py (config and rule
# copy) and scripts/lib/prometheus_e2e_check.py (polling and checks).
#
# Environment:
#   PINGUARD       pinguard binary (default: `swift build --product pinguard`,
#                  then $(swift build --show-bin-path)/pinguard)
#   PROMETHEUS     prometheus binary (default: prometheus in PATH, else
#                  /usr/bin/prometheus; installed with apt-get if missing)
#   E2E_TIMEOUT    seconds allowed from starting pinguard to the verdict
#                  (default 300: a safety net for states never reached, not a
#                  measure of speed; building pinguard is not counted)
#   E2E_ALERT_FOR  `for:` used in the alert-rule copy (default 0s)
#   E2E_KEEP=1     keep the temporary directory (logs, generated config)
#
# Only loopback addresses are used; a system Prometheus on :9090 is neither
# used nor touched. pinguard and prometheus are stopped by PID on every exit
# path. Exits non-zero if any check fails; the last line is "N passed, M failed".
set -u -o pipefail

cd "$(dirname "$0")/.."
PROM_DIR=contrib/prometheus
METRICS=$PROM_DIR/exported-metrics.txt
LIB=scripts/lib
TIMEOUT=${E2E_TIMEOUT:-300}
ALERT_FOR=${E2E_ALERT_FOR:-0s}

. "$LIB/suite.sh"
pinguard_pid=""
prometheus_pid=""
checker_pid=""
tmp=$(mktemp -d "${TMPDIR:-/tmp}/pinguard-e2e.XXXXXX")

# stop PID NAME: SIGTERM, up to 5 s to exit, then SIGKILL. Only our own children.
stop() {
    local pid=$1 name=$2 i
    [ -n "$pid" ] || return 0
    kill -0 "$pid" 2>/dev/null || return 0
    kill -TERM "$pid" 2>/dev/null
    for i in $(seq 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.1
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "      $name (pid $pid) ignored SIGTERM; sending SIGKILL"
        kill -KILL "$pid" 2>/dev/null
    fi
    wait "$pid" 2>/dev/null
}

cleanup() {
    stop "$checker_pid" checker
    stop "$prometheus_pid" prometheus
    stop "$pinguard_pid" pinguard
    prometheus_pid=""
    pinguard_pid=""
    if [ "${E2E_KEEP:-0}" = 1 ]; then
        echo "kept $tmp"
    else
        rm -rf "$tmp"
    fi
}
at_exit cleanup
trap 'fail "interrupted by a signal"; finish' INT TERM

# show_log FILE: the last lines of a log, indented.
show_log() { [ -f "$1" ] && tail -n "${2:-20}" "$1" | sed 's/^/      /'; }

# free_port: a TCP port that nothing listens on at 127.0.0.1 right now.
free_port() { python3 "$LIB/free_port.py"; }

# wait_http URL PID DEADLINE: until URL answers 200, the process exits, or the deadline.
wait_http() {
    local url=$1 pid=$2 deadline=$3
    while [ "$(date +%s)" -lt "$deadline" ]; do
        kill -0 "$pid" 2>/dev/null || return 2
        curl -fsS -o /dev/null --max-time 2 "$url" 2>/dev/null && return 0
        sleep 0.2
    done
    return 1
}

# --- Tools ------------------------------------------------------------------
for tool in python3 curl; do
    command -v "$tool" >/dev/null 2>&1 || { fail "$tool is required"; finish; }
done
python3 -c 'import yaml' 2>/dev/null || { fail "python3 PyYAML is required (Debian: python3-yaml)"; finish; }

PROMETHEUS=${PROMETHEUS:-$(command -v prometheus || echo /usr/bin/prometheus)}
if [ ! -x "$PROMETHEUS" ]; then
    echo "prometheus not found; installing the Debian prometheus package"
    apt-get install -y prometheus >"$tmp/apt.log" 2>&1 || show_log "$tmp/apt.log"
    PROMETHEUS=$(command -v prometheus || echo /usr/bin/prometheus)
fi
[ -x "$PROMETHEUS" ] || { fail "prometheus is not available"; finish; }
echo "using $("$PROMETHEUS" --version 2>&1 | head -n 1)"

if [ -z "${PINGUARD:-}" ]; then
    echo "building pinguard (swift build --product pinguard)"
    if ! swift build --product pinguard >"$tmp/build.log" 2>&1; then
        show_log "$tmp/build.log" 40
        fail "swift build --product pinguard"
        finish
    fi
    PINGUARD="$(swift build --show-bin-path)/pinguard"
fi
[ -x "$PINGUARD" ] || { fail "pinguard binary $PINGUARD is not executable"; finish; }
echo "using $PINGUARD ($("$PINGUARD" --version 2>&1 | head -n 1))"

# --- pinguard (built-in demo) -------------------------------------------------
start=$(date +%s)
deadline=$((start + TIMEOUT))
pg_port=$(free_port)
mkdir -p "$tmp/pinguard-tmp"
# TMPDIR: the demo writes its generated config and PKI below it. The demo's names resolve through a
# private /etc/hosts (written below, once the demo has picked its ports), for GET /probe?target=NAME.
: >"$tmp/hosts"
TMPDIR="$tmp/pinguard-tmp" scripts/with-journald.sh --no-journal --hosts "$tmp/hosts" \
    "$PINGUARD" serve --listen "127.0.0.1:$pg_port" >"$tmp/pinguard.log" 2>&1 &
pinguard_pid=$!  # the wrapper execs into pinguard: this is pinguard's PID
echo "started pinguard serve (demo) on 127.0.0.1:$pg_port, pid $pinguard_pid"
wait_http "http://127.0.0.1:$pg_port/-/ready" "$pinguard_pid" "$deadline"
case $? in
    0) pass "pinguard demo ready on 127.0.0.1:$pg_port after $(($(date +%s) - start))s (GET /-/ready)" ;;
    2) fail "pinguard exited before it was ready"; show_log "$tmp/pinguard.log"; finish ;;
    *) fail "pinguard not ready within ${TIMEOUT}s"; show_log "$tmp/pinguard.log"; finish ;;
esac

# The demo's healthy host, for the pinguard_probe job: its name and port from the generated config.
probe_target=$(sed -n 's/.*{host: \(api\.[^,]*\), port: \([0-9]*\),.*/\1:\2/p' "$(find "$tmp/pinguard-tmp" -name pinguard.yml | head -n 1)")
if [ -n "$probe_target" ]; then
    printf '127.0.0.1 localhost\n127.0.0.1 %s\n' "${probe_target%:*}" >"$tmp/hosts.new"
    cat "$tmp/hosts.new" >"$tmp/hosts"   # in place: the bind mount keeps the file, not the name
    pass "the demo's api host $probe_target resolves for GET /probe (private /etc/hosts)"
else
    fail "could not read the demo's api host from its generated config"
fi

# --- Prometheus config and rule copies ----------------------------------------
# The generated prometheus.yml sits next to the rule files, so its rule_files
# entries stay as shipped (they are relative to the config file).
mkdir -p "$tmp/prom" "$tmp/data"
cp "$PROM_DIR/pinguard.rules.yml" "$tmp/prom/pinguard.rules.yml"
if python3 "$LIB/prometheus_e2e_config.py" "$PROM_DIR" "$tmp/prom" "$pg_port" "$ALERT_FOR" $probe_target >"$tmp/gen.out" 2>&1; then
    pass "generated prometheus.yml and alert-rule copy (for: $ALERT_FOR)"
    sed 's/^/      /' "$tmp/gen.out"
else
    fail "generating the Prometheus config"
    sed 's/^/      /' "$tmp/gen.out"
    finish
fi
if command -v promtool >/dev/null 2>&1; then
    if promtool check config "$tmp/prom/prometheus.yml" >"$tmp/promtool.out" 2>&1; then
        pass "promtool check config on the generated config and rule copies"
    else
        fail "promtool check config on the generated config and rule copies"
        show_log "$tmp/promtool.out"
        finish
    fi
fi

# --- Prometheus -----------------------------------------------------------------
prom_port=$(free_port)
while [ "$prom_port" = "$pg_port" ]; do prom_port=$(free_port); done
"$PROMETHEUS" --config.file="$tmp/prom/prometheus.yml" \
    --storage.tsdb.path="$tmp/data" \
    --web.listen-address="127.0.0.1:$prom_port" \
    --web.console.templates="$tmp/prom" --web.console.libraries="$tmp/prom" \
    --log.level=warn >"$tmp/prometheus.log" 2>&1 &
prometheus_pid=$!
echo "started prometheus on 127.0.0.1:$prom_port, pid $prometheus_pid"
wait_http "http://127.0.0.1:$prom_port/-/ready" "$prometheus_pid" "$deadline"
case $? in
    0) pass "prometheus ready on 127.0.0.1:$prom_port after $(($(date +%s) - start))s" ;;
    2) fail "prometheus exited before it was ready"; show_log "$tmp/prometheus.log"; finish ;;
    *) fail "prometheus not ready within ${TIMEOUT}s"; show_log "$tmp/prometheus.log"; finish ;;
esac

# --- Poll and check ----------------------------------------------------------------
# prometheus_e2e_check.py polls until every expected state is reached (or the deadline),
# then prints PASS/FAIL lines and writes "passed failed" to $tmp/counts. It runs
# in the background so that `wait` lets the INT/TERM trap in at once.
python3 "$LIB/prometheus_e2e_check.py" "http://127.0.0.1:$prom_port" "$METRICS" "$start" "$deadline" "$tmp/counts" $probe_target &
checker_pid=$!
wait "$checker_pid"
checker_pid=""
if [ -s "$tmp/counts" ]; then
    read -r p f <"$tmp/counts"
    passed=$((passed + p))
    failed=$((failed + f))
else
    fail "the polling and checking step did not finish"
fi

kill -0 "$pinguard_pid" 2>/dev/null && pass "pinguard still running" || { fail "pinguard exited during the test"; show_log "$tmp/pinguard.log"; }
kill -0 "$prometheus_pid" 2>/dev/null && pass "prometheus still running" || { fail "prometheus exited during the test"; show_log "$tmp/prometheus.log"; }
if [ "$failed" -ne 0 ]; then
    echo "      pinguard log (last lines):"
    show_log "$tmp/pinguard.log" 10
    echo "      prometheus log (last lines):"
    show_log "$tmp/prometheus.log" 10
fi
echo "      total $(($(date +%s) - start))s from starting pinguard"
finish
