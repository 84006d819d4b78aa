#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Checks everything pinguard ships for Prometheus and Grafana, without a running
# service:
#   - contrib/prometheus/prometheus.yml and contrib/kubernetes/prometheus-scrape.yml parse,
#     with the rule files they name; the Kubernetes manifests fit together;
#   - the recording and alert rules parse, and their promtool unit tests pass;
#   - every alert has a severity and summary/description/runbook annotations,
#     a runbook entry in docs/prometheus.md, and a unit test where it fires and
#     one where it stays quiet;
#   - dashboards/pinguard.json: datasource variable used by every panel, a
#     description and a unit on every panel, every PromQL expression parses;
#   - every pinguard_* metric name used anywhere above is one pinguard exports
#     (contrib/prometheus/exported-metrics.txt; the metrics are described in
#     docs/reference.md, Metrics), and that list equals the metric table of the
#     product specification when shared/SPEC.md is next to the repository.
# The checks written in Python are files in scripts/lib/, each runnable alone.
# Exits non-zero if any check fails; the last line is "N passed, M failed".
set -u -o pipefail

cd "$(dirname "$0")/.."
PROM=contrib/prometheus
DASHBOARD=dashboards/pinguard.json
METRICS=$PROM/exported-metrics.txt
DOCS=docs/prometheus.md
LIB=scripts/lib

. "$LIB/suite.sh"
suite_workdir tmp pinguard-rules

if ! command -v promtool >/dev/null 2>&1; then
    echo "promtool not found; installing the Debian prometheus package"
    apt-get install -y prometheus >"$tmp/apt.log" 2>&1 || { cat "$tmp/apt.log"; }
fi
if ! command -v promtool >/dev/null 2>&1; then
    fail "promtool is available (Debian prometheus)"
    finish
fi
echo "using $(promtool --version 2>&1 | head -n 1)"

# --- Prometheus configuration and rules ------------------------------------
check "promtool check config $PROM/prometheus.yml" \
    promtool check config "$PROM/prometheus.yml"
check "promtool check config contrib/kubernetes/prometheus-scrape.yml" \
    promtool check config contrib/kubernetes/prometheus-scrape.yml
check "Kubernetes manifests in contrib/kubernetes fit together (shard per ordinal, ports, selectors)" \
    python3 "$LIB/kubernetes_manifests_check.py" contrib/kubernetes
check "Kubernetes shards × replicas on one PostgreSQL memory (contrib/kubernetes/shared-memory) fit together" \
    python3 "$LIB/kubernetes_manifests_check.py" contrib/kubernetes/shared-memory contrib/kubernetes
for f in "$PROM"/pinguard.rules.yml "$PROM"/pinguard.alerts.yml; do
    check "promtool check rules $f" promtool check rules "$f"
done
for f in "$PROM"/tests/*.yml; do
    check "promtool test rules $f" promtool test rules "$f"
done

# --- Alert conventions and test coverage -----------------------------------
check "alerts: severity, annotations, runbook docs, firing and quiet tests" \
    python3 "$LIB/alert_rules_check.py" "$PROM/pinguard.alerts.yml" "$DOCS" "$PROM"/tests/*.yml

# --- Dashboard ---------------------------------------------------------------
# Writes every PromQL expression of the dashboard (panel targets and the
# selectors of label_values() variables) to $tmp/dashboard.exprs, one JSON
# array [where, expression] per line, for the parse and metric-name checks below.
check "dashboard $DASHBOARD: datasource variable, descriptions, units" \
    python3 "$LIB/dashboard_check.py" "$DASHBOARD" "$tmp/dashboard.exprs"

# Grafana variables become plain values so that promtool can parse the
# expressions: interval macros a duration, everything else a regex.
check "dashboard PromQL parses (promtool check rules)" \
    python3 "$LIB/dashboard_promql_check.py" "$tmp/dashboard.exprs" "$tmp/dashboard.rules.yml"

# --- Metric names --------------------------------------------------------------
check "every pinguard_* metric used is exported (exported-metrics.txt)" \
    python3 "$LIB/metric_names_check.py" "$METRICS" "$tmp/dashboard.exprs" "$DOCS" \
    "$PROM"/pinguard.rules.yml "$PROM"/pinguard.alerts.yml "$PROM"/tests/*.yml

# The product specification (its section 5, the metric table) is the contract
# the exported names come from; it sits in shared/ next to the repository (CI
# and developer machines), so compare when it is there. Users read the same
# names in docs/reference.md, Metrics.
spec=""
for s in ../shared/SPEC.md ../../shared/SPEC.md; do
    [ -f "$s" ] && spec=$s && break
done
if [ -n "$spec" ]; then
    check "exported-metrics.txt lists every metric of the table of $spec (section 5)" \
        python3 "$LIB/spec_metrics_check.py" "$METRICS" "$spec"
else
    echo "SKIP  comparison with the specification's metric table: shared/SPEC.md not found next to the repository"
fi

# The shipped Alertmanager routing (Debian prometheus-alertmanager provides amtool), and the docs' copy of it.
AM=$PROM/alertmanager.yml
if ! command -v amtool >/dev/null 2>&1; then
    apt-get install -y prometheus-alertmanager >"$tmp/apt.log" 2>&1 || cat "$tmp/apt.log"
fi
if command -v amtool >/dev/null 2>&1; then
    check "amtool check-config $AM" amtool check-config "$AM"
    python3 "$LIB/alertmanager_example.py" "$DOCS" "$tmp/alertmanager.yml"
    check "the Alertmanager example in $DOCS is $AM" diff -u "$AM" "$tmp/alertmanager.yml"
    # route_is NAME RECEIVERS LABEL=VALUE...: amtool's routing of an alert with those labels.
    route_is() {
        local want=$1; shift
        local got
        got=$(amtool config routes test --config.file="$AM" "$@" 2>/dev/null)
        [ "$got" = "$want" ] || { echo "labels $*: routed to $got, want $want"; return 1; }
    }
    check "a critical situation of an app pages on-call and reaches the app's team" \
        route_is "tls-oncall-pager,ios-team" severity=critical alertname=PinguardNextRenewalBreaksPins target=api policy_set=ios-app apps=ios-app/prod
    check "a warning of an app reaches the app's team and the operators' chat" \
        route_is "android-team,tls-team-chat" severity=warning alertname=PinguardRenewalAtRisk target=api policy_set=android-app apps=android-app/prod
    check "a problem of the certificate itself reaches every app it names" \
        route_is "tls-oncall-pager,ios-team,android-team" severity=critical alertname=PinguardCertificateExpiringSoon target=api apps=ios-app/prod,android-app/prod
    check "an app's alert without apps (its policy set only) reaches the app's team" \
        route_is "tls-oncall-pager,ios-team" severity=critical alertname=PinguardNodeServesRejectedChain target=api policy_set=ios-app
    check "a fleet info alert of an app reaches its team and the tickets, not pinguard's health" \
        route_is "android-team,tls-team-tickets" severity=info alertname=PinguardBackupPinCoverageLow policy_set=android-app
    check "pinguard's own health goes to chat, never the pager" \
        route_is "tls-team-chat" severity=warning alertname=PinguardConfigReloadFailed instance=pg:9477
else
    fail "amtool is available (Debian prometheus-alertmanager): the routing is not checked without it"
fi

finish
