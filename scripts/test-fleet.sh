#!/usr/bin/env bash
# Several instances of one configuration, end to end on loopback, scraped by a real Prometheus with the shipped
# alert rules (every `for:` set to 0s in a copy):
#   - three shards × two replicas (`--shard I/3`, `--replica a|b`): every target is probed once per replica and
#     PinguardShardingMismatch stays quiet; one instance restarted with the wrong total (2/4) makes it fire for
#     that replica set, naming the instance's index/total, and not for the other;
#   - two vantage points, each resolving the same names through its own private /etc/hosts (a mount namespace)
#     and scraped by its own Prometheus in agent mode that remote-writes to the central one with an external
#     label `vantage`: api.fleet.test reaches a server with another chain in each, www.fleet.test the same
#     one; PinguardVantagePointsDisagree fires for api, naming the app that rejects there, and not for www.
#
#   PINGUARD=path/to/pinguard scripts/test-fleet.sh
#
# Only loopback addresses; every process is started here and stopped by PID. Ends with "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
LIB=$ROOT/scripts/lib
PG=${PINGUARD:?set PINGUARD to the pinguard binary}
. "$LIB/suite.sh"
suite_workdir W pinguard-fleet

for pkg in prometheus python3-yaml openssl util-linux; do
  dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null | grep -q "install ok installed" || apt-get install -y -qq "$pkg" > /dev/null 2>&1
done
command -v prometheus > /dev/null || fail_early "prometheus is not installed"
command -v unshare > /dev/null || fail_early "unshare (util-linux) is not installed"

# --- A PKI: a root, and leaves for the shard targets (one wildcard), api (two keys) and www -----------------
cd "$W"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2> /dev/null; }
spki() { openssl pkey -in "$1" -pubout -outform DER 2> /dev/null | openssl dgst -sha256 -binary | base64; }
key root.key
openssl req -x509 -new -key root.key -out root.pem -days 3650 -subj "/CN=Fleet Test Root" 2> /dev/null
# leaf NAME SAN: NAME.pem signed by the root for SAN, on key NAME.key.
leaf() {
  key "$1.key"
  openssl req -new -key "$1.key" -out "$1.csr" -subj "/CN=$2" 2> /dev/null
  printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:%s\n' "$2" > "$1.ext"
  openssl x509 -req -in "$1.csr" -CA root.pem -CAkey root.key -CAcreateserial -days 90 -extfile "$1.ext" -out "$1.pem" 2> /dev/null
}
leaf shards "*.fleet.test" && leaf api-eu api.fleet.test && leaf api-us api.fleet.test && leaf www www.fleet.test \
  || fail_early "openssl could not issue the leaves"
mkdir -p policies
cat > policies/app.yml <<YML
name: app
environments:
  prod:
    policies:
      - pattern: "*.fleet.test"
        policy:
          pins:
            - {type: spki, hash: "$(spki shards.key)", role: primary, scope: leaf}
            - {type: spki, hash: "$(spki api-eu.key)", role: primary, scope: leaf}
            - {type: spki, hash: "$(spki www.key)", role: primary, scope: leaf}
YML

# --- The servers: the shard targets on 127.0.0.1; api on 127.0.0.2 (eu) and 127.0.0.3 (us); www on .4 ------
SP=$(port)
openssl s_server -quiet -accept "127.0.0.1:$SP" -cert shards.pem -key shards.key -www > /dev/null 2>&1 & track $!
VP=$(port)
for spec in api-eu:127.0.0.2 api-us:127.0.0.3 www:127.0.0.4; do
  openssl s_server -quiet -accept "${spec#*:}:$VP" -cert "${spec%%:*}.pem" -key "${spec%%:*}.key" -www > /dev/null 2>&1 & track $!
done

# --- Three shards × two replicas of one configuration ---------------------------------------------------------
{
  echo "interval: 5s"; echo "timeout: 3s"; echo "journal: {enabled: false}"; echo "trust: {ca_file: root.pem}"
  echo 'policies: ["policies/*.yml"]'; echo "targets:"
  for i in $(seq 0 11); do echo "  - {host: s$i.fleet.test, port: $SP, connect: 127.0.0.1, name: s$i}"; done
} > fleet.yml
"$PG" check-config fleet.yml > check.out 2>&1 || fail_early "pinguard check-config fleet.yml" check.out
declare -A PORTS PIDS
# serving PORT PID LOG: until the instance says in LOG that it serves on PORT (true), or has exited (false): its
# own line, so a server of another suite on that port is never taken for it.
serving() {
  local deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do
    grep -q "serving /metrics on 127.0.0.1:$1," "$3" && return 0
    kill -0 "$2" 2> /dev/null || return 1
    sleep 0.2
  done
  return 1
}
start_shard() {  # start_shard REPLICA INDEX TOTAL
  local p tries
  for tries in 1 2 3; do
    p=${PORTS[$1$2]:-$(port)}
    "$PG" serve --config fleet.yml --listen "127.0.0.1:$p" --shard "$2/$3" --replica "$1" > "shard-$1$2.log" 2>&1 &
    PIDS[$1$2]=$!; track $!
    serving "$p" "${PIDS[$1$2]}" "shard-$1$2.log" && { PORTS[$1$2]=$p; return 0; }
    # Another suite running beside this one took the port between its choice and the bind: the instance exited.
    # A first start chooses again; a restart keeps the port Prometheus scrapes and tries it again.
    echo "shard $1$2 did not answer on port $p (try $tries): $(tail -n 1 "shard-$1$2.log")"
    sleep 1
  done
}
for r in a b; do for i in 0 1 2; do start_shard "$r" "$i" 3; done; done

# --- Two vantage points: the same configuration, each with its own /etc/hosts ---------------------------------
{
  echo "interval: 5s"; echo "timeout: 3s"; echo "journal: {enabled: false}"; echo "trust: {ca_file: root.pem}"
  echo 'policies: ["policies/*.yml"]'; echo "targets:"
  echo "  - {host: api.fleet.test, port: $VP, name: api}"; echo "  - {host: www.fleet.test, port: $VP, name: www}"
} > vantage.yml
printf '127.0.0.1 localhost\n127.0.0.2 api.fleet.test\n127.0.0.4 www.fleet.test\n' > hosts-eu
printf '127.0.0.1 localhost\n127.0.0.3 api.fleet.test\n127.0.0.4 www.fleet.test\n' > hosts-us
declare -A VPORTS
for v in eu us; do
  VPORTS[$v]=$(port)
  unshare -m sh -c 'mount --bind "$1" /etc/hosts && exec "$2" serve --config vantage.yml --listen "127.0.0.1:$3" --vantage "$4"' \
    sh "$W/hosts-$v" "$PG" "${VPORTS[$v]}" "$v" > "vantage-$v.log" 2>&1 & track $!
done

# --- Prometheus: the shipped alert rules, `for:` 0s; replica and vantage as target labels ---------------------
sed -E 's/^( +)for: [0-9]+[smh]$/\1for: 0s/' "$ROOT/contrib/prometheus/pinguard.alerts.yml" > alerts.yml
{
  echo "global: {scrape_interval: 1s, evaluation_interval: 1s}"; echo "rule_files: [alerts.yml]"; echo "scrape_configs:"
  echo "  - job_name: fleet"; echo "    static_configs:"
  for r in a b; do
    echo "      - targets: [127.0.0.1:${PORTS[${r}0]}, 127.0.0.1:${PORTS[${r}1]}, 127.0.0.1:${PORTS[${r}2]}]"
    echo "        labels: {replica: $r}"
  done
} > prometheus.yml
promtool check config prometheus.yml > promtool.out 2>&1 || fail_early "promtool check config" promtool.out
PP=$(port)
prometheus --config.file=prometheus.yml --storage.tsdb.path="$W/prom-data" --web.listen-address="127.0.0.1:$PP" \
  --web.enable-remote-write-receiver --log.level=warn > prometheus.log 2>&1 & track $!
# Each vantage point is scraped by its own Prometheus in agent mode, which labels it by an external label and
# remote-writes to the central one above (docs/prometheus.md, Prometheus agent mode).
for v in eu us; do
  { echo "global: {scrape_interval: 1s, external_labels: {vantage: $v}}"
    echo "scrape_configs: [{job_name: vantage, static_configs: [{targets: ['127.0.0.1:${VPORTS[$v]}']}]}]"
    echo "remote_write: [{url: 'http://127.0.0.1:$PP/api/v1/write', queue_config: {batch_send_deadline: 1s}}]"; } > "agent-$v.yml"
  prometheus --enable-feature=agent --config.file="agent-$v.yml" --storage.agent.path="$W/agent-$v" \
    --web.listen-address="127.0.0.1:$(port)" --log.level=warn > "agent-$v.log" 2>&1 & track $!
done

# query EXPR: the instant vector as JSON lines of labels (python reads the API).
query() { curl -s --get "http://127.0.0.1:$PP/api/v1/query" --data-urlencode "query=$1" | python3 "$LIB/fleet_query.py"; }
# wait_for EXPR LINES: until the query returns LINES series (a safety net of 120 s, not a measure of speed).
wait_for() {
  local deadline=$((SECONDS + 120))
  while [ $SECONDS -lt $deadline ]; do [ "$(query "$1" | wc -l)" -eq "$2" ] && return 0; sleep 1; done
  return 1
}

check "the shards add up: each of the 12 targets is probed once per replica" \
  wait_for 'count by (target, replica) (pinguard_probe_success{job="fleet"} == 1) == 1' 24
check "every instance reports its shard: index 0, 1, 2 of 3 in each replica set" \
  wait_for 'pinguard_shard_total{job="fleet"} == 3' 6
sleep 3
check_that "PinguardShardingMismatch stays quiet while they add up" \
  '[ -z "$(query '"'"'ALERTS{alertname="PinguardShardingMismatch"}'"'"')" ]' "$(query 'ALERTS{alertname="PinguardShardingMismatch"}')"

kill "${PIDS[b2]}"; wait "${PIDS[b2]}" 2> /dev/null
start_shard b 2 4
check "one instance given the wrong total (2/4): PinguardShardingMismatch fires for its replica set" \
  wait_for 'ALERTS{alertname="PinguardShardingMismatch", alertstate="firing", job="fleet", replica="b"}' 1
check_that "... and not for the replica set that adds up" \
  '[ -z "$(query '"'"'ALERTS{alertname="PinguardShardingMismatch", replica="a"}'"'"')" ]' ""
alerts=""
# The alert may fire while the restarted instance is not scraped yet (its index missing); its words follow at
# the next evaluations.
alerts_say() {  # alerts_say TEXT: until the alerts' words hold TEXT (a safety net of 60 s)
  local deadline=$((SECONDS + 60))
  while [ $SECONDS -lt $deadline ]; do
    alerts=$(curl -s "http://127.0.0.1:$PP/api/v1/alerts"); echo "$alerts" | grep -qF "$1" && return 0; sleep 1
  done
  return 1
}
check_that "... naming the instance with its index/total" \
  'alerts_say "127.0.0.1:${PORTS[b2]} 2/4"' "$(echo "$alerts" | python3 -c 'import json,sys; [print(a["annotations"].get("description","")) for a in json.load(sys.stdin)["data"]["alerts"] if a["labels"]["alertname"]=="PinguardShardingMismatch"]' 2>&1 | head -c 1500)"

check "agents in each vantage point remote-write its series, labelled by their external label" \
  wait_for 'count by (vantage) (pinguard_probe_success{job="vantage"})' 2
check "two vantage points served different chains for api: PinguardVantagePointsDisagree fires for it" \
  wait_for 'ALERTS{alertname="PinguardVantagePointsDisagree", alertstate="firing", target="api"}' 1
check_that "... and not for www, served alike" \
  '[ -z "$(query '"'"'ALERTS{alertname="PinguardVantagePointsDisagree", target="www"}'"'"')" ]' ""
check_that "... naming where the app rejects (app in us)" 'alerts_say "[app in us]"' "$(echo "$alerts" | head -c 1500)"

finish
