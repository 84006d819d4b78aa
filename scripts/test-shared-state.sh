#!/usr/bin/env bash
# The memory of served chains in a shared PostgreSQL database (`state: {url: postgresql://...}`), end to end
# with Debian's server started here as the postgres user, on loopback:
#   - three shards × two replicas write one memory: every target and chain is one row, however many instances
#     observed it;
#   - a renewal served after a reshard from 3 to 4 is recognised as a renewal of the chain the old shards saw
#     (no target loses its history; `history` reads it back);
#   - a reload that gives a running instance more targets brings their history from the database;
#   - a server that cannot be reached at start, a newer schema and a value pinguard never writes stop the start
#     with the cause named, and change nothing;
#   - a server restarted between rounds goes unnoticed (the connection is made again at once);
#   - a server that goes away while serving is said once (state_unavailable, pinguard_state_writable 0), probing
#     goes on, and state_recovered follows when it is back, with what was observed meanwhile written.
#
#   PINGUARD=path/to/pinguard scripts/test-shared-state.sh
#
# Only loopback addresses; every process is started here and stopped by PID. Ends with "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
LIB=$ROOT/scripts/lib
PG=${PINGUARD:?set PINGUARD to the pinguard binary}
. "$LIB/suite.sh"
. "$LIB/postgres.sh"
suite_workdir W pinguard-shared-state

for pkg in postgresql openssl curl; do
  dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null | grep -q "install ok installed" || apt-get install -y -qq "$pkg" > /dev/null 2>&1
done
postgres_start "$W/pg" || fail_early "PostgreSQL could not be started" "$(ls "$W"/pg/*.log | tail -n 1)"

# --- A root, one key and two certificates on it (the second a renewal keeping the key) ------------------------
cd "$W"
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2> /dev/null; }
spki() { openssl pkey -in "$1" -pubout -outform DER 2> /dev/null | openssl dgst -sha256 -binary | base64; }
key root.key && key leaf.key
openssl req -x509 -new -key root.key -out root.pem -days 3650 -subj "/CN=Shared Memory Test Root" 2> /dev/null
openssl req -new -key leaf.key -out leaf.csr -subj "/CN=*.mem.test" 2> /dev/null
printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:*.mem.test\n' > leaf.ext
for v in v1 v2; do
  openssl x509 -req -in leaf.csr -CA root.pem -CAkey root.key -CAcreateserial -days 90 -extfile leaf.ext -out $v.pem 2> /dev/null \
    || fail_early "openssl could not issue $v"
done
mkdir -p policies
printf 'name: app\nenvironments:\n  prod:\n    policies:\n      - pattern: "*.mem.test"\n        policy:\n          pins:\n            - {type: spki, hash: "%s", role: primary, scope: leaf}\n' \
  "$(spki leaf.key)" > policies/app.yml
SP=$(port)
serve_cert() {  # serve_cert CERT: (re)starts the one TLS server every target reaches
  [[ -n ${TLS_PID:-} ]] && kill "$TLS_PID" 2> /dev/null && wait "$TLS_PID" 2> /dev/null
  openssl s_server -quiet -accept "127.0.0.1:$SP" -cert "$1" -key leaf.key -www > /dev/null 2>&1 &
  TLS_PID=$!; track $TLS_PID
  for _ in $(seq 50); do (exec 3<> "/dev/tcp/127.0.0.1/$SP") 2> /dev/null && return; sleep 0.1; done
}
serve_cert v1.pem
config() {  # config FILE URL [INTERVAL]
  { echo "interval: ${3:-5s}"; echo "timeout: 1s"; echo "journal: {enabled: false}"; echo "trust: {ca_file: root.pem}"
    echo "state: {url: \"$2\"}"; echo 'policies: ["policies/*.yml"]'; echo "targets:"
    for i in $(seq 0 11); do echo "  - {host: m$i.mem.test, port: $SP, connect: 127.0.0.1, name: m$i}"; done; } > "$1"
}
config mem.yml "$PG_URL"
wait_for() {  # wait_for SECONDS 'TEST'
  local until=$((SECONDS + $1)); while ((SECONDS < until)); do eval "$2" && return 0; sleep 0.3; done; return 1
}
once() {  # once LOG ARGS...: one round of serve
  local log=$1; shift
  "$PG" serve --config mem.yml --once --log-events "$@" > "$log.out" 2> "$log.err"
}

# --- Where the memory lives, as check-config says it; a password never shown ---------------------------------
"$PG" check-config mem.yml > check.out 2>&1
check_that "check-config names the shared database" \
  "grep -qx 'served chains are remembered in the shared database postgresql://pinguard@127.0.0.1:$PG_PORT/pinguard' check.out" "$(cat check.out)"
config secret.yml "postgresql://pinguard:s3cret@127.0.0.1:$PG_PORT/pinguard"
"$PG" check-config secret.yml > secret.out 2>&1
check_that "a password in the URL is never printed" "! grep -q s3cret secret.out && grep -q 'postgresql://pinguard@127.0.0.1' secret.out" "$(cat secret.out)"

# --- Three shards × two replicas, all at once: one row per target and per chain --------------------------------
pids=()
for r in a b; do for i in 0 1 2; do once "first-$r$i" --shard "$i/3" --replica "$r" & pids+=($!); done; done
codes=0; for p in "${pids[@]}"; do wait "$p" || codes=$((codes + 1)); done
check_that "six instances ran their round against one database" "[ $codes = 0 ]" "$(tail -n 3 first-*.err)"
check_that "the schema is at version 1" "[ \"\$(psql_q 'SELECT version FROM pinguard_schema')\" = 1 ]"
check_that "twelve targets, one row each" "[ \"\$(psql_q 'SELECT count(*) FROM pinguard_target')\" = 12 ]" "$(psql_q 'SELECT name FROM pinguard_target')"
check_that "two replicas observing one chain wrote it once: twelve chains" \
  "[ \"\$(psql_q 'SELECT count(*) FROM pinguard_chain')\" = 12 ]" "$(psql_q 'SELECT target, address, seq FROM pinguard_chain')"

# --- The certificate is renewed (key kept) and the fleet resharded from 3 to 4 ---------------------------------
serve_cert v2.pem
for i in 0 1 2 3; do once "reshard-$i" --shard "$i/4"; done
renewed=$(cat reshard-*.err | grep -c '\[certificate_renewed\]')
check_that "after the reshard every target's renewal is known as one: 12 certificate_renewed" "[ $renewed = 12 ]" \
  "$(grep -h 'certificate_renewed\|state' reshard-*.err | head -n 5)"
check_that "... each saying the key was kept" "[ \"\$(grep -h '\[certificate_renewed\]' reshard-*.err | grep -c 'key kept')\" = 12 ]" \
  "$(grep -h '\[certificate_renewed\]' reshard-*.err | head -n 2)"
check_that "the memory counts one renewal per target" "[ \"\$(psql_q 'SELECT count(*) FROM pinguard_target WHERE renewals = 1 AND last_key_reused')\" = 12 ]" \
  "$(psql_q 'SELECT name, renewals, last_key_reused FROM pinguard_target')"
"$PG" history m7 --config mem.yml > history.out 2>&1
check_that "history reads both chains of a target from the database" "grep -q 'renewal' history.out && [ \$(grep -c 'mem.test\|127.0.0.1' history.out) -ge 2 ]" "$(cat history.out)"
for i in 0 1 2 3; do once "again-$i" --shard "$i/4"; done
check_that "a second round after the reshard reports no renewal again" "! grep -q '\[certificate_renewed\]' again-*.err" "$(grep -h renewed again-*.err)"

# --- A reload that gives an instance more targets brings their history along ----------------------------------
config half.yml "$PG_URL" 2s
sed -i '/name: m\([6-9]\|1[01]\)}/d' half.yml
HP=$(port)
"$PG" serve --config half.yml --listen "127.0.0.1:$HP" --log-events > half.out 2> half.err & HALF=$!; track $HALF
renewals() { curl -s "http://127.0.0.1:$HP/metrics" | awk -v t="$1" '$1 == "pinguard_renewals_observed_total{target=\"" t "\"}" { print $2 }'; }
wait_for 30 '[ "$(renewals m1)" = 1 ]'
check_that "an instance of six targets knows their renewals from the database" '[ "$(renewals m1)" = 1 ] && [ -z "$(renewals m7)" ]' \
  "m1 $(renewals m1), m7 $(renewals m7): $(tail -n 3 half.err)"
cp mem.yml half.yml
sed -i 's/^interval: 5s/interval: 2s/' half.yml
kill -HUP $HALF
wait_for 30 '[ "$(renewals m7)" = 1 ]'
check_that "a reload adding six targets brings their history: m7's renewal is known" '[ "$(renewals m7)" = 1 ]' "$(tail -n 5 half.err)"
check_that "... and none of them is taken for a new renewal" '! grep -q "\[certificate_renewed\]" half.err' "$(grep renewed half.err)"
kill $HALF; wait $HALF 2> /dev/null

# --- What stops a start, naming the cause, and changes nothing -----------------------------------------------------
DEAD=$(port)
config dead.yml "postgresql://pinguard@127.0.0.1:$DEAD/pinguard"
"$PG" serve --config dead.yml --once > dead.out 2> dead.err; code=$?
check_that "an unreachable database stops the start (exit 2), naming it and the cause" \
  "[ $code = 2 ] && grep -q 'state database \"postgresql://pinguard@127.0.0.1:$DEAD/pinguard\": cannot reach PostgreSQL' dead.err" "exit $code: $(cat dead.err)"
psql_q "UPDATE pinguard_schema SET version = 99" > /dev/null
once newer; code=$?
check_that "a newer schema is refused (exit 2) and left as it is" \
  "[ $code = 2 ] && grep -q 'schema version 99 is newer than this pinguard.s 1' newer.err && [ \"\$(psql_q 'SELECT version FROM pinguard_schema')\" = 99 ]" "exit $code: $(tail -n 3 newer.err)"
psql_q "UPDATE pinguard_schema SET version = 1" > /dev/null
psql_q "UPDATE pinguard_chain SET last_seen = -5 WHERE target = 'm3' AND seq = (SELECT max(seq) FROM pinguard_chain WHERE target = 'm3')" > /dev/null
once corrupt; code=$?
check_that "a value pinguard never writes is refused (exit 2), naming the table and the value" \
  "[ $code = 2 ] && grep -q 'pinguard_chain row [0-9]* holds \"-5\" in column 13, not a time' corrupt.err" "exit $code: $(tail -n 3 corrupt.err)"
"$PG" history m3 --config mem.yml > corrupt-history.out 2>&1; code=$?
check_that "... and history says the same" "[ $code != 0 ] && grep -q 'holds \"-5\"' corrupt-history.out" "exit $code: $(cat corrupt-history.out)"
psql_q "UPDATE pinguard_chain SET last_seen = first_seen WHERE last_seen = -5" > /dev/null

# --- The server goes away while serving, and comes back ---------------------------------------------------------
config live.yml "$PG_URL" 2s
MP=$(port)
"$PG" serve --config live.yml --listen "127.0.0.1:$MP" --log-events > live.out 2> live.err & LIVE=$!; track $LIVE
metric() { curl -s "http://127.0.0.1:$MP/metrics" | awk -v m="$1" '$1 == m { print $2 }'; }
wait_for 30 '[ "$(metric pinguard_state_writable)" = 1 ]'
check_that "serving on the database: pinguard_state_writable 1" '[ "$(metric pinguard_state_writable)" = 1 ]' "$(tail -n 5 live.err)"
postgres_restart
probes=$(metric pinguard_probes_total)
wait_for 30 '[ "$(metric pinguard_probes_total)" -gt "$((probes + 24))" ]'
check_that "a server restarted between rounds is no outage: the connection is made again at once, nothing said" \
  '! grep -q "\[state_unavailable\]" live.err && [ "$(metric pinguard_state_writable)" = 1 ]' "$(grep state_ live.err)"
postgres_stop
wait_for 30 'grep -q "\[state_unavailable\]" live.err'
probes=$(metric pinguard_probes_total)
sleep 4
check_that "the lost database is said once" '[ "$(grep -c "\[state_unavailable\]" live.err)" = 1 ]' "$(grep state_ live.err)"
check_that "... naming the database and the cause" "grep '\[state_unavailable\]' live.err | grep -q 'cannot reach PostgreSQL'" "$(grep state_ live.err)"
check_that "... pinguard_state_writable 0, and probing goes on" \
  '[ "$(metric pinguard_state_writable)" = 0 ] && [ "$(metric pinguard_probes_total)" -gt "${probes:-0}" ]' "probes $probes then $(metric pinguard_probes_total)"
serve_cert v1.pem
sleep 2
postgres_run
wait_for 30 'grep -q "\[state_recovered\]" live.err'
check_that "state_recovered once it is back" 'grep -q "\[state_recovered\]" live.err && [ "$(metric pinguard_state_writable)" = 1 ]' "$(grep state_ live.err)"
check_that "... and the rollback observed meanwhile is written" \
  "wait_for 10 '[ \"\$(psql_q \"SELECT count(DISTINCT target) FROM pinguard_chain WHERE last_seen > first_seen AND arrival = 0\")\" = 12 ]'" \
  "$(psql_q 'SELECT target, arrival, first_seen, last_seen FROM pinguard_chain ORDER BY target, seq')"
finish
