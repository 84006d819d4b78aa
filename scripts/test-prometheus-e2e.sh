#!/usr/bin/env bash
# End-to-end test of the Prometheus integration against a real Prometheus
# (issue 5 item 3): the shipped rules, evaluated on what a running pinguard
# actually serves.
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
#
# Environment:
#   PINGUARD       pinguard binary (default: `swift build --product pinguard`,
#                  then $(swift build --show-bin-path)/pinguard)
#   PROMETHEUS     prometheus binary (default: prometheus in PATH, else
#                  /usr/bin/prometheus; installed with apt-get if missing)
#   E2E_TIMEOUT    seconds allowed from starting pinguard to the verdict
#                  (default 90; building pinguard is not counted)
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
TIMEOUT=${E2E_TIMEOUT:-90}
ALERT_FOR=${E2E_ALERT_FOR:-0s}

passed=0
failed=0
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
trap cleanup EXIT
trap 'fail "interrupted by a signal"; echo; echo "$passed passed, $failed failed"; exit 130' INT TERM

pass() { passed=$((passed + 1)); echo "PASS  $1"; }
fail() { failed=$((failed + 1)); echo "FAIL  $1"; }

# finish: prints the totals and exits (the EXIT trap stops the processes).
finish() {
    echo
    echo "$passed passed, $failed failed"
    [ "$failed" -eq 0 ] && exit 0
    exit 1
}

# show_log FILE: the last lines of a log, indented.
show_log() { [ -f "$1" ] && tail -n "${2:-20}" "$1" | sed 's/^/      /'; }

# free_port: a TCP port that nothing listens on at 127.0.0.1 right now.
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

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
# TMPDIR: the demo writes its generated config and PKI below it.
TMPDIR="$tmp/pinguard-tmp" "$PINGUARD" serve --listen "127.0.0.1:$pg_port" >"$tmp/pinguard.log" 2>&1 &
pinguard_pid=$!
echo "started pinguard serve (demo) on 127.0.0.1:$pg_port, pid $pinguard_pid"
wait_http "http://127.0.0.1:$pg_port/-/ready" "$pinguard_pid" "$deadline"
case $? in
    0) pass "pinguard demo ready on 127.0.0.1:$pg_port after $(($(date +%s) - start))s (GET /-/ready)" ;;
    2) fail "pinguard exited before it was ready"; show_log "$tmp/pinguard.log"; finish ;;
    *) fail "pinguard not ready within ${TIMEOUT}s"; show_log "$tmp/pinguard.log"; finish ;;
esac

# --- Prometheus config and rule copies ----------------------------------------
# The generated prometheus.yml sits next to the rule files, so its rule_files
# entries stay as shipped (they are relative to the config file).
mkdir -p "$tmp/prom" "$tmp/data"
cp "$PROM_DIR/pinguard.rules.yml" "$tmp/prom/pinguard.rules.yml"
if python3 - "$PROM_DIR" "$tmp/prom" "$pg_port" "$ALERT_FOR" >"$tmp/gen.out" 2>&1 <<'EOF'
import os, sys, yaml

src, dst, port, alert_for = sys.argv[1:]
cfg = yaml.safe_load(open(os.path.join(src, "prometheus.yml")))
cfg.setdefault("global", {}).update(scrape_interval="1s", evaluation_interval="1s")
jobs = [j for j in cfg["scrape_configs"] if j.get("job_name") == "pinguard"]
if len(jobs) != 1:
    sys.exit("prometheus.yml: expected one scrape job named pinguard")
job = jobs[0]
job.update(scrape_interval="1s", scrape_timeout="1s", static_configs=[{"targets": [f"127.0.0.1:{port}"]}])
missing = [f for f in cfg.get("rule_files", []) if not os.path.exists(os.path.join(src, f))]
if missing or sorted(cfg.get("rule_files", [])) != ["pinguard.alerts.yml", "pinguard.rules.yml"]:
    sys.exit(f"prometheus.yml: unexpected rule_files {cfg.get('rule_files')}")
yaml.safe_dump(cfg, open(os.path.join(dst, "prometheus.yml"), "w"), sort_keys=False)

alerts = yaml.safe_load(open(os.path.join(src, "pinguard.alerts.yml")))
changed = 0
for group in alerts["groups"]:
    for rule in group["rules"]:
        if "alert" in rule:
            if rule.get("for") not in (None, alert_for):
                print(f"  {rule['alert']}: for {rule['for']} -> {alert_for}")
            rule["for"] = alert_for
            changed += 1
yaml.safe_dump(alerts, open(os.path.join(dst, "pinguard.alerts.yml"), "w"), sort_keys=False, width=1000)
print(f"{changed} alerting rules, `for:` set to {alert_for}; scrape target 127.0.0.1:{port}, intervals 1s")
EOF
then
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
# The Python part polls until every expected state is reached (or the deadline),
# then prints PASS/FAIL lines and writes "passed failed" to $tmp/counts. It runs
# in the background so that `wait` lets the INT/TERM trap in at once.
python3 - "http://127.0.0.1:$prom_port" "$METRICS" "$start" "$deadline" "$tmp/counts" <<'EOF' &
import json, math, sys, time, urllib.parse, urllib.request

base, metrics_file, start, deadline, counts_file = sys.argv[1:]
start, deadline = float(start), float(deadline)

ios, android = "demo-ios-app", "demo-android-app"
targets = ["demo-api", "demo-expiring", "demo-rotated", "demo-backup"]

# Alerts expected to fire: (alertname, labels that must match). Nothing else may fire.
EXPECTED = [
    ("PinguardClientWouldReject", {"target": "demo-rotated", "policy_set": ios, "severity": "critical"}),
    ("PinguardPinBreakageImminent", {"target": "demo-expiring", "policy_set": ios, "severity": "critical"}),
    ("PinguardNoReservePin", {"target": "demo-expiring", "policy_set": ios, "severity": "warning"}),
    ("PinguardBackupPinInUse", {"target": "demo-backup", "policy_set": ios, "severity": "warning"}),
    ("PinguardCertificateExpiringSoon", {"target": "demo-expiring", "severity": "critical"}),
    ("PinguardBackupPinCoverageLow", {"policy_set": ios, "severity": "info"}),
]
# Alerts that legitimately fire before the first scrape (there is no `up` series
# yet) and must resolve right after it; with the shortened `for:` they show up.
STARTUP_ONLY = [
    ("PinguardResultsStale", {"cause": "not_scraped", "severity": "warning"}),
]
STARTUP_GRACE = 3  # seconds after the first successful scrape, for the next evaluation
# Series legitimately absent in the demo, with the reason.
ABSENT_OK = {
    "pinguard_pin_set_expiry_timestamp_seconds": "no demo policy set has `expires`",
}
# Not absent by design but absent today; printed with the check so that they stay visible.
KNOWN_GAPS: dict = {}
# Exported but not in SPEC §5 / exported-metrics.txt; allowed, printed with the check.
KNOWN_UNLISTED = {
    "pinguard_journal_write_failures_total": "exported by MetricsRenderer, not in SPEC §5 (counts journal events "
                                             "that could not be written; the demo has no journald socket)",
}
ABSENT_OK_RECORDED = {
    "pinguard:days_to_pin_set_expiry": "computed from pinguard_pin_set_expiry_timestamp_seconds",
}

def get(path, **params):
    url = base + path + ("?" + urllib.parse.urlencode(params) if params else "")
    with urllib.request.urlopen(url, timeout=3) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise RuntimeError(f"{path}: {body}")
    return body["data"]

def query(expr):
    return [(s["metric"], float(s["value"][1])) for s in get("/api/v1/query", query=expr)["result"]]

def matches(labels, want):
    return all(labels.get(k) == v for k, v in want.items())

def key(a):
    l = a["labels"]
    return (l["alertname"], l.get("target", "-"), l.get("policy_set", "-"), l.get("severity", "-"),
            ",".join(f"{k}={v}" for k, v in sorted(l.items())
                     if k not in ("alertname", "target", "policy_set", "severity", "instance", "job", "environment")))

exported = [l.strip() for l in open(metrics_file) if l.strip() and not l.startswith("#")]
first_seen = {}     # alert key -> seconds after start when first seen firing
last_seen = {}      # alert key -> seconds after start when last seen firing
ever = {}           # alert key -> labels
last_alerts = []
first_scrape = None
waiting = ["a first answer from Prometheus"]  # what the last poll still lacked

def state():
    """One poll; returns (done, context)."""
    global last_alerts, first_scrape
    now = time.time()
    alerts = [a for a in get("/api/v1/alerts")["alerts"] if a["state"] == "firing"]
    last_alerts = alerts
    for a in alerts:
        k = key(a)
        if k not in first_seen:
            first_seen[k] = now - start
            ever[k] = a["labels"]
        last_seen[k] = now - start
    if first_scrape is None and query('up{job="pinguard"} == 1'):
        first_scrape = now - start
    waiting.clear()
    waiting.extend(f"alert {n} {w}" for n, w in EXPECTED
                   if not any(a["labels"]["alertname"] == n and matches(a["labels"], w) for a in alerts))
    names = {m["__name__"] for m, _ in query('count by (__name__)({__name__=~"pinguard_.*"})')}
    recorded = {m["__name__"] for m, v in query('{__name__=~"pinguard:.*"}') if not math.isnan(v)}
    want_recorded = {"pinguard:days_to_pin_breakage", "pinguard:days_to_expiry", "pinguard:probe_result_age_seconds",
                     "pinguard:backup_pin_in_use", "pinguard:policy_rejecting_targets:sum",
                     "pinguard:probe_failure_ratio:rate1h"}
    waiting.extend(f"series {n}" for n in sorted(set(exported) - set(ABSENT_OK) - set(KNOWN_GAPS) - names))
    waiting.extend(f"recording rule {n} (a number)" for n in sorted(want_recorded - recorded))
    return not waiting

done = False
last_error = None
while time.time() < deadline:
    try:
        if state():
            done = True
            break
    except Exception as e:  # Prometheus may still be loading; keep polling
        last_error = e
    time.sleep(1)
elapsed = time.time() - start

passed = failed = 0
def check(name, ok, details=()):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
    print(("PASS  " if ok else "FAIL  ") + name)
    for d in details:
        print("      " + d)

check(f"all expected states reached after {elapsed:.0f}s (limit {deadline - start:.0f}s)", done,
      [] if done else [f"gave up after {elapsed:.0f}s (E2E_TIMEOUT), still waiting for:"]
      + [f"  {w}" for w in waiting] + ([f"last error: {last_error}"] if last_error else []))
if first_scrape is not None:
    print(f"      first successful scrape after {first_scrape:.0f}s")

def firing(name, want):
    return [a for a in last_alerts if a["labels"]["alertname"] == name and matches(a["labels"], want)]

# Alerts: expected ones, with when they first fired.
for name, want in EXPECTED:
    hits = firing(name, want)
    when = [f"{v:.0f}s" for k, v in first_seen.items() if k[0] == name and matches(ever[k], want)]
    desc = ", ".join(f"{k}={v}" for k, v in want.items())
    check(f"{name} firing for {desc}", bool(hits),
          [f"first seen firing {min(when, key=lambda s: float(s[:-1]))} after start" if when else "never fired"]
          + [f"reason={a['labels']['reason']}" for a in hits if "reason" in a["labels"]])

rej = firing("PinguardClientWouldReject", {"target": "demo-rotated", "policy_set": ios})
check("PinguardClientWouldReject for demo-rotated carries reason=pin_mismatch (joined from pinguard_policy_decision_info)",
      any(a["labels"].get("reason") == "pin_mismatch" for a in rej), [f"labels: {a['labels']}" for a in rej])

never = [
    ("PinguardClientWouldReject", {"target": "demo-api"}),
    ("PinguardClientWouldReject", {"policy_set": android}),
    ("PinguardPinBreakageSoon", {"target": "demo-expiring"}),  # 5 days is Imminent only: bands do not overlap
    ("PinguardCertificateExpiringSoon", {"target": "demo-expiring", "severity": "warning"}),
]
for name, want in never:
    seen = [k for k in first_seen if k[0] == name and matches(ever[k], want)]
    check(f"{name} never fired for {', '.join(f'{k}={v}' for k, v in want.items())}", not seen,
          [f"fired: {ever[k]}" for k in seen])

crit = [ever[k] for k in first_seen if ever[k].get("target") == "demo-api" and ever[k].get("severity") == "critical"]
check("no critical alert ever fired for healthy demo-api", not crit, [f"fired: {l}" for l in crit])
api_any = [ever[k] for k in first_seen if ever[k].get("target") == "demo-api"]
check("no alert at all ever fired for healthy demo-api", not api_any, [f"fired: {l}" for l in api_any])

def listed(k, rules):
    return any(ever[k]["alertname"] == n and matches(ever[k], w) for n, w in rules)

startup = [k for k in first_seen if listed(k, STARTUP_ONLY) and not listed(k, EXPECTED)]
late = [k for k in startup if first_scrape is None or last_seen[k] > first_scrape + STARTUP_GRACE]
check("startup-only alerts resolved after the first scrape", not late,
      [f"{ever[k]['alertname']} {ever[k].get('cause', '')}: firing {first_seen[k]:.0f}s-{last_seen[k]:.0f}s"
       + (" -- still firing after the first scrape" if k in late else " (before the first scrape; expected)")
       for k in startup])
unexpected = [ever[k] for k in first_seen if not listed(k, EXPECTED) and k not in startup]
check("no alert fired beyond the expected ones", not unexpected, [f"fired: {l}" for l in unexpected])

# Report: what fires now, by target.
print("      firing now, by target:")
by_target = {}
for a in last_alerts:
    l = a["labels"]
    by_target.setdefault(l.get("target", "(no target)"), []).append(
        f"{l['alertname']} [{l.get('severity')}]" + (f" policy_set={l['policy_set']}" if "policy_set" in l else "")
        + (f" environment={l['environment']}" if "environment" in l and "target" not in l else "")
        + (f" reason={l['reason']}" if "reason" in l else ""))
for t in sorted(by_target):
    for line in sorted(by_target[t]):
        print(f"        {t}: {line}")

# Recording rules.
def one(expr):
    r = query(expr)
    return r[0][1] if len(r) == 1 else None, r

v, r = one(f'pinguard:days_to_pin_breakage{{target="demo-expiring",policy_set="{ios}"}}')
check(f"pinguard:days_to_pin_breakage{{demo-expiring, {ios}}} ≈ 5", v is not None and 4.9 < v <= 5.0, [f"value: {r}"])
v, r = one(f'pinguard:days_to_pin_breakage{{target="demo-api",policy_set="{ios}"}}')
check(f"pinguard:days_to_pin_breakage{{demo-api, {ios}}} ≈ 90", v is not None and 89.9 < v <= 90.0, [f"value: {r}"])
v, r = one(f'pinguard:days_to_pin_breakage{{target="demo-expiring",policy_set="{android}"}}')
check(f"pinguard:days_to_pin_breakage{{demo-expiring, {android}}} ≈ 1825 (CA pin: intermediate's notAfter)",
      v is not None and 1824.9 < v <= 1825.0, [f"value: {r}"])
r = query(f'pinguard:days_to_pin_breakage{{target="demo-rotated",policy_set="{ios}"}}')
check(f"pinguard:days_to_pin_breakage{{demo-rotated, {ios}}} absent (no pin matches, no horizon)", not r, [f"value: {r}"])
v, r = one('pinguard:days_to_expiry{target="demo-expiring"}')
check("pinguard:days_to_expiry{demo-expiring} ≈ 5", v is not None and 4.9 < v <= 5.0, [f"value: {r}"])
r = query("pinguard:days_to_expiry")
vals = {m["target"]: v for m, v in r}
ok = set(vals) == set(targets) and all(89.9 < vals[t] <= 90.0 for t in targets if t != "demo-expiring")
check("pinguard:days_to_expiry ≈ 90 for demo-api, demo-rotated, demo-backup", ok,
      [f"{t}: {vals[t]:.3f}" for t in sorted(vals)])
r = query("pinguard:backup_pin_in_use")
got = sorted((m["target"], m["policy_set"], v) for m, v in r)
check(f"pinguard:backup_pin_in_use is 1 for demo-backup/{ios} only", got == [("demo-backup", ios, 1.0)], [f"series: {got}"])
r = query("pinguard:policy_rejecting_targets:sum")
got = {(m["policy_set"], m.get("environment")): v for m, v in r}
check(f"pinguard:policy_rejecting_targets:sum: {ios} 1, {android} 0",
      got == {(ios, "prod"): 1.0, (android, "prod"): 0.0}, [f"series: {got}"])
r = query("pinguard:probe_result_age_seconds")
ages = {m["target"]: v for m, v in r}
check("pinguard:probe_result_age_seconds for the 4 targets, each in [0, 60) s (interval 30s)",
      set(ages) == set(targets) and all(0 <= a < 60 for a in ages.values()),
      [f"{t}: {a:.1f}s" for t, a in sorted(ages.items())])
r = query("pinguard:probe_failure_ratio:rate1h")
check("pinguard:probe_failure_ratio:rate1h is 0 (every demo probe succeeds)",
      bool(r) and all(v == 0 for _, v in r), [f"series: {[(m, v) for m, v in r]}"])
for name, why in ABSENT_OK_RECORDED.items():
    r = query(name)
    check(f"{name} absent in the demo ({why})", not r, [f"series: {r}"] if r else [])

# Metric names: exported-metrics.txt against the series Prometheus holds.
names = {m["__name__"]: int(v) for m, v in query('count by (__name__)({__name__=~"pinguard_.*"})')}
missing = [n for n in exported if n not in names and n not in ABSENT_OK and n not in KNOWN_GAPS]
check(f"every name in {metrics_file} is a series in Prometheus, except the listed absentees", not missing,
      [f"missing: {n}" for n in missing]
      + [f"allowed absent (by design): {n}: {why}{' -- but present' if n in names else ''}" for n, why in ABSENT_OK.items()]
      + [f"allowed absent (known gap): {n}: {why}{' -- now present, remove from KNOWN_GAPS' if n in names else ''}"
         for n, why in KNOWN_GAPS.items()])
extra = sorted(n for n in names if n not in exported and n not in KNOWN_UNLISTED)
check(f"every pinguard_* series in Prometheus is listed in {metrics_file} (or a known unlisted one)", not extra,
      [f"not listed: {n}" for n in extra]
      + [f"known unlisted: {n}: {why}{'' if n in names else ' -- not exported any more'}" for n, why in KNOWN_UNLISTED.items()])
print("      series per name: " + ", ".join(f"{n}={c}" for n, c in sorted(names.items())))

open(counts_file, "w").write(f"{passed} {failed}\n")
EOF
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
