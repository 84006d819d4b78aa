#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Renewals by a real ACME CA and a real ACME client, observed by a real pinguard: Debian's pebble
# (Let's Encrypt's test CA, challenges always valid) issues 90-day certificates, certbot obtains and
# renews them with and without --reuse-key, nginx serves them and is reloaded after each renewal, and
# `pinguard serve --once` (each run a restart) remembers the chains in its state file. Runs inside a
# private journald (scripts/with-journald.sh) so the events' fields can be read back with journalctl.
#
#   PINGUARD=path/to/pinguard scripts/test-renewals.sh
#
# Checks: a renewal that keeps the key and one that does not, each seen exactly once; a restart between
# renewals (no false renewal, counts kept); pebble restarted (a new intermediate: issuer changed); two
# addresses renewed one after the other (one renewal); `pinguard history`; and a corrupt, a read-only
# and a full state file (a small tmpfs), which leave the service running and the file untouched.
# Ends with "N passed, M failed".
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
if [ -z "${JOURNAL_PRIVATE:-}" ]; then exec "$here/with-journald.sh" "$0" "$@"; fi
PG=${PINGUARD:?set PINGUARD to the pinguard binary}
. "$here/lib/suite.sh"
for tool in pebble certbot nginx openssl curl; do
  command -v "$tool" > /dev/null || { fail "$tool is installed"; finish; }
done

suite_workdir W pinguard-renewals
at_exit 'umount "$W/full" 2> /dev/null'
ACME=$(port); MGMT=$(port); HTTP01=$(port); TLS=$(port)

# --- pebble -------------------------------------------------------------------------------------------
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$W/pebble.key" -out "$W/pebble.pem" \
  -days 2 -subj /CN=localhost -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" 2> /dev/null
cat > "$W/pebble.json" <<JSON
{"pebble": {"listenAddress": "127.0.0.1:$ACME", "managementListenAddress": "127.0.0.1:$MGMT",
 "certificate": "$W/pebble.pem", "privateKey": "$W/pebble.key", "httpPort": $HTTP01, "tlsPort": $TLS,
 "ocspResponderURL": "", "externalAccountBindingRequired": false, "certificateValidityPeriod": 7776000}}
JSON
pebble_pid=""
start_pebble() {
  [ -n "$pebble_pid" ] && kill "$pebble_pid" 2> /dev/null && wait "$pebble_pid" 2> /dev/null
  # The one before must have let go of its ports: else the new one cannot bind, and the old one answers.
  for _ in $(seq 100); do curl -sfk "https://127.0.0.1:$MGMT/roots/0" -o /dev/null || break; sleep 0.1; done
  PEBBLE_VA_ALWAYS_VALID=1 PEBBLE_VA_NOSLEEP=1 PEBBLE_WFE_NONCEREJECT=0 pebble -config "$W/pebble.json" >> "$W/pebble.log" 2>&1 &
  pebble_pid=$!; track "$pebble_pid"
  # Up to a minute: a safety net for a pebble that never answers, not a measure of how fast it starts.
  for _ in $(seq 600); do curl -sfk "https://127.0.0.1:$MGMT/roots/0" -o "$W/root.pem" && return 0; sleep 0.1; done
  return 1
}
start_pebble || { fail "pebble starts" "$(cat "$W/pebble.log")"; finish; }
cp "$W/root.pem" "$W/roots.pem"
# The intermediates pebble issues from, kept as a private issuer pool for the forecast.
mkdir -p "$W/pool"
curl -sfk "https://127.0.0.1:$MGMT/intermediates/0" -o "$W/pool/first.pem"

export REQUESTS_CA_BUNDLE=$W/pebble.pem
certbot_for() {  # NAME [certbot flags...]: obtain or renew the certificate NAME for api.pg.test
  local name=$1; shift
  certbot certonly --config-dir "$W/cb" --work-dir "$W/cb-work" --logs-dir "$W/cb-logs" --server "https://127.0.0.1:$ACME/dir" \
    --non-interactive --agree-tos --register-unsafely-without-email --standalone --http-01-address 127.0.0.1 \
    --http-01-port "$HTTP01" -d api.pg.test --cert-name "$name" "$@" > "$W/certbot.log" 2>&1
}
spki() { openssl x509 -in "$1" -noout -pubkey | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | base64; }
policy() {  # NAME "HASH ROLE SCOPE"...: a policy set pinning api.pg.test with these spki pins
  local name=$1 pin hash role scope; shift
  { printf 'name: %s\nenvironments:\n  prod:\n    policies:\n      - pattern: "api.pg.test"\n        policy:\n          pins:\n' "$name"
    for pin in "$@"; do
      read -r hash role scope <<< "$pin"
      printf '            - {type: spki, hash: "%s", role: %s, scope: %s}\n' "$hash" "$role" "$scope"
    done
  } > "$W/policies/$name.yml"
}

# --- nginx: two addresses of one name, each serving its own copy of the certificate -------------------
NGX=$(port)
mkdir -p "$W/a1" "$W/a2" "$W/nginx"
serve_copy() { cp -L "$W/cb/live/api/fullchain.pem" "$W/$1/fullchain.pem"; cp -L "$W/cb/live/api/privkey.pem" "$W/$1/privkey.pem"; }
cat > "$W/nginx.conf" <<NGINX
pid $W/nginx/nginx.pid;
error_log $W/nginx/error.log;
events {}
http {
  access_log off;
  client_body_temp_path $W/nginx; proxy_temp_path $W/nginx; fastcgi_temp_path $W/nginx; uwsgi_temp_path $W/nginx; scgi_temp_path $W/nginx;
  server { listen 127.0.0.1:$NGX ssl; ssl_certificate $W/a1/fullchain.pem; ssl_certificate_key $W/a1/privkey.pem; return 204; }
  server { listen 127.0.0.2:$NGX ssl; ssl_certificate $W/a2/fullchain.pem; ssl_certificate_key $W/a2/privkey.pem; return 204; }
}
NGINX
served() {  # ADDRESS: the certificate nginx serves there, as a SHA-256 fingerprint
  openssl s_client -connect "$1:$NGX" -servername api.pg.test < /dev/null 2> /dev/null | openssl x509 -noout -fingerprint -sha256 2> /dev/null
}
# A reload takes effect when nginx's new workers answer: until both addresses serve the certificates of their
# copies (up to a minute, a safety net for a reload that never happens, not a measure of speed).
reload_nginx() {
  nginx -c "$W/nginx.conf" -s reload 2> "$W/nginx/reload.log"
  local want1 want2 _
  want1=$(openssl x509 -in "$W/a1/fullchain.pem" -noout -fingerprint -sha256)
  want2=$(openssl x509 -in "$W/a2/fullchain.pem" -noout -fingerprint -sha256)
  for _ in $(seq 600); do
    [ "$(served 127.0.0.1)" = "$want1" ] && [ "$(served 127.0.0.2)" = "$want2" ] && return 0
    sleep 0.1
  done
  echo "      nginx did not serve the reloaded certificates within a minute" >&2
}

# --- pinguard -------------------------------------------------------------------------------------------
mkdir -p "$W/policies"
write_config() {  # STATE_PATH
  cat > "$W/pinguard.yml" <<YML
interval: 1h
timeout: 5s
trust: {ca_file: roots.pem}
policies: ["policies/*.yml"]
state: {path: $1}
targets:
  - {host: api.pg.test, port: $NGX, connect: [127.0.0.1, 127.0.0.2], name: api}
YML
}
round() { "$PG" serve --once --config "$W/pinguard.yml" > "$W/once.out" 2> "$W/once.err"; }
events() {  # EVENT: the journal entries of EVENT so far, as KEY=VALUE lines
  journalctl --no-pager -o export PINGUARD_EVENT="$1" 2> /dev/null | grep -aE '^(PINGUARD_[A-Z_]+|MESSAGE)='
}
count() { journalctl --no-pager -o cat PINGUARD_EVENT="$1" 2> /dev/null | grep -c . ; }

certbot_for api || { fail "certbot obtains the first certificate" "$(cat "$W/certbot.log")"; finish; }
serve_copy a1; serve_copy a2
nginx -c "$W/nginx.conf" 2> "$W/nginx/start.log" || { fail "nginx starts" "$(cat "$W/nginx/start.log")"; finish; }
track "$(cat "$W/nginx/pid" 2> /dev/null || cat "$W/nginx/nginx.pid")"
key1=$(spki "$W/a1/fullchain.pem")
policy app "$key1 primary leaf" "$(printf 'backup%.0s' 1 2 3 4 5 | openssl dgst -sha256 -binary | base64) backup leaf"
write_config state.db

round
check_that "first round: the chain is remembered, no renewal" '[ -s "$W/state.db" ] && [ "$(count certificate_renewed)" = 0 ]' "$(cat "$W/once.err")"
round
check_that "a restart that sees the same chain is no renewal" '[ "$(count certificate_renewed)" = 0 ] && [ "$(count chain_rollback)" = 0 ]'

# A renewal that keeps the key (certbot --reuse-key), served by both addresses.
certbot_for api --force-renewal --reuse-key; serve_copy a1; serve_copy a2; reload_nginx
round
check_that "certbot --reuse-key: one certificate_renewed" '[ "$(count certificate_renewed)" = 1 ]' "$(events certificate_renewed)"
check_that "... with PINGUARD_KEY_REUSED=yes and PINGUARD_ISSUER_CHANGED=no" \
  'events certificate_renewed | grep -qx PINGUARD_KEY_REUSED=yes && events certificate_renewed | grep -qx PINGUARD_ISSUER_CHANGED=no' \
  "$(events certificate_renewed)"
check_that "... its message says the key was kept" 'events certificate_renewed | grep -q "^MESSAGE=api: certificate renewed, key kept, issuer Pebble Intermediate CA"'
round
check_that "a restart after the renewal reports it once only" '[ "$(count certificate_renewed)" = 1 ]'
scrape() {  # one serve, its /metrics into $W/metrics.txt, stopped
  local mp; mp=$(port)
  "$PG" serve --config "$W/pinguard.yml" --listen "127.0.0.1:$mp" > /dev/null 2> "$W/scrape.err" & local p=$!
  for _ in $(seq 600); do curl -sf "http://127.0.0.1:$mp/-/ready" > /dev/null && break; sleep 0.1; done
  curl -s "http://127.0.0.1:$mp/metrics" > "$W/metrics.txt"; kill "$p"; wait "$p" 2> /dev/null
}
scrape
check_that "after a renewal that kept the key, an app pinning that key forecasts ratio 0 (not written: key reuse observed), no breakage" \
  '! grep -q "^pinguard_renewal_reject_ratio{target=\"api\",policy_set=\"app\"}" "$W/metrics.txt" &&
   grep -q "^pinguard_renewal_forecast_info{target=\"api\",key=\"reuse\",key_basis=\"observed\"" "$W/metrics.txt" &&
   ! grep -q "^pinguard_pin_breakage_timestamp_seconds{target=\"api\"" "$W/metrics.txt"' \
  "$(grep -E "renewal|breakage" "$W/metrics.txt")"

# A renewal with a new key, reaching the two addresses one after the other.
certbot_for api --force-renewal; serve_copy a1; reload_nginx
round
check_that "a new key at the first address: a second renewal, PINGUARD_KEY_REUSED=no" \
  '[ "$(count certificate_renewed)" = 2 ] && events certificate_renewed | grep -qx PINGUARD_KEY_REUSED=no' "$(events certificate_renewed)"
serve_copy a2; reload_nginx
round
check_that "the second address catching up is no new renewal" '[ "$(count certificate_renewed)" = 2 ]'

# Pebble restarted makes a new intermediate: the next renewal changes the issuer.
# (it forgets its accounts too: certbot registers again)
# A restart that left the same intermediate (the old pebble still answering) is made again, at most twice.
for _ in 1 2 3; do
  start_pebble && cat "$W/root.pem" >> "$W/roots.pem"
  curl -sfk "https://127.0.0.1:$MGMT/intermediates/0" -o "$W/pool/second.pem"
  cmp -s "$W/pool/first.pem" "$W/pool/second.pem" || break
done
rm -rf "$W/cb/accounts"
certbot_for api --force-renewal --reuse-key; serve_copy a1; serve_copy a2; reload_nginx
round
check_that "a renewal from a new pebble intermediate: PINGUARD_ISSUER_CHANGED=yes" \
  '[ "$(count certificate_renewed)" = 3 ] && events certificate_renewed | grep -qx PINGUARD_ISSUER_CHANGED=yes' "$(events certificate_renewed)"

"$PG" history api --config "$W/pinguard.yml" --json > "$W/history.json" 2> "$W/history.err"
check_that "pinguard history lists every chain with its renewals" \
  'python3 -c "
import json,sys
h=json.load(open(sys.argv[1])); r=[c[\"renewal\"] for c in h[\"chains\"] if c[\"renewal\"]]
assert h[\"target\"]==\"api\" and len(h[\"chains\"])==8, len(h[\"chains\"])
assert [x[\"key_reused\"] for x in r]==[True,False,True] and [x[\"issuer_changed\"] for x in r]==[False,False,True], r
" "$W/history.json"' "$(cat "$W/history.json" "$W/history.err")"

# A private pool of the two pebble intermediates: an app pinning only the first covers half the pool.
first_int=$(spki "$W/pool/first.pem")
policy pool-app "$first_int primary intermediate" "$key1 backup leaf"
cat >> "$W/pinguard.yml" <<YML
renewal: {issuers: pebble, key: reuse}
issuer_pools: {pebble: ["pool/*.pem"]}
YML
scrape
check_that "a declared pool of two intermediates: the app pinning one of them forecasts ratio 0.5" \
  'grep -qx "pinguard_renewal_reject_ratio{target=\"api\",policy_set=\"pool-app\"} 0.5" "$W/metrics.txt" &&
   grep -q "^pinguard_renewal_forecast_info{target=\"api\",key=\"reuse\",key_basis=\"declared\",issuers=\"2\",issuer_basis=\"pool\",when_basis=\"lifetime\"}" "$W/metrics.txt"' \
  "$(grep -E "renewal_reject|forecast_info" "$W/metrics.txt"; cat "$W/scrape.err")"
rm "$W/policies/pool-app.yml"; write_config state.db

# A rollback: address 2 goes back to an older certificate.
cp "$W/a1/fullchain.pem" "$W/newest.pem"; cp -L "$W/cb/archive/api/fullchain1.pem" "$W/a2/fullchain.pem"; cp -L "$W/cb/archive/api/privkey1.pem" "$W/a2/privkey.pem"; reload_nginx
round
check_that "an address going back to an older chain: chain_rollback, no renewal" \
  '[ "$(count chain_rollback)" = 1 ] && [ "$(count certificate_renewed)" = 3 ]' "$(events chain_rollback)"

# Faults: each leaves the service running and the file as it was.
printf 'SQLite format 3\000%s' "$(head -c 4000 /dev/urandom | base64 -w0)" > "$W/corrupt.db"
before=$(sha256sum < "$W/corrupt.db"); write_config corrupt.db; round; status=$?
check_that "a corrupt state file: the round runs (exit $status), state_unavailable, the file untouched" \
  '[ $status -le 1 ] && [ "$(count state_unavailable)" -ge 1 ] && [ "$before" = "$(sha256sum < "$W/corrupt.db")" ] && ! ls "$W"/corrupt.db-wal > /dev/null 2>&1' \
  "$(cat "$W/once.err"; events state_unavailable)"
sqlite_foreign() { python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('create table t(x)'); c.commit()" "$1"; }
sqlite_foreign "$W/foreign.db"; before=$(sha256sum < "$W/foreign.db"); write_config foreign.db; round
check_that "another application's SQLite file is refused and untouched" \
  '[ "$before" = "$(sha256sum < "$W/foreign.db")" ] && events state_unavailable | grep -q "foreign.db"' "$(events state_unavailable)"

write_config state.db
n=$(count state_unavailable)
chattr +i "$W/state.db" 2> /dev/null && immutable=1 || immutable=""
if [ -n "$immutable" ]; then
  certbot_for api --force-renewal; serve_copy a1; serve_copy a2; reload_nginx
  round; status=$?
  chattr -i "$W/state.db"
  check_that "a read-only state file: the round runs, state_unavailable names it" \
    '[ $status -le 1 ] && [ "$(count state_unavailable)" -gt "$n" ]' "$(cat "$W/once.err"; events state_unavailable)"
else
  echo "not run: a read-only state file (chattr +i is not supported on this file system)"
fi

mkdir -p "$W/full"
if mount -t tmpfs -o size=256k tmpfs "$W/full" 2> /dev/null; then
  head -c 200000 /dev/zero > "$W/full/filler"
  write_config full/state.db; round; status=$?
  check_that "a full disk: the round runs, state_unavailable" \
    '[ $status -le 1 ] && events state_unavailable | grep -q "full/state.db"' "$(cat "$W/once.err"; events state_unavailable)"
  rm -f "$W/full/filler"; round
  check_that "... and once there is room, the file is written (history readable)" \
    '"$PG" history api --config "$W/pinguard.yml" > /dev/null 2>&1' "$(cat "$W/once.err")"
else
  echo "not run: a full state file (cannot mount a tmpfs here)"
fi

# Two instances must not share one file: the second is refused, naming it.
write_config state.db
MP=$(port)
"$PG" serve --config "$W/pinguard.yml" --listen "127.0.0.1:$MP" > /dev/null 2> "$W/first.err" & first=$!; track "$first"
for _ in $(seq 600); do grep -q "serving /metrics" "$W/first.err" && break; sleep 0.1; done
curl -s "http://127.0.0.1:$MP/metrics" > "$W/metrics.txt"
check_that "after restarts the metrics keep the renewals: 4 observed, the last brought a new key (so no key age beyond the leaf's), writable" \
  'grep -qx "pinguard_renewals_observed_total{target=\"api\"} 4" "$W/metrics.txt" &&
   grep -qx "pinguard_last_renewal_key_reused{target=\"api\"} 0" "$W/metrics.txt" &&
   grep -qx "pinguard_state_writable 1" "$W/metrics.txt" &&
   ! grep -q "^pinguard_leaf_key_first_seen_timestamp_seconds{target=\"api\"" "$W/metrics.txt"' \
  "$(grep -E "renewal|state_writable|key_first" "$W/metrics.txt")"
"$PG" serve --config "$W/pinguard.yml" --listen 127.0.0.1:0 > /dev/null 2> "$W/second.err"; status=$?
check_that "a second instance on the same state file is refused (exit 2) naming the file" \
  '[ $status = 2 ] && grep -q "state.db" "$W/second.err"' "$(cat "$W/second.err")"
kill "$first"; wait "$first" 2> /dev/null

# plan, before switching to a staged key that a backup pin covers: the key served today (remembered in the
# state file) is no reserve after the switch, so the app is left without one.
certbot_for api --force-renewal
served=$(spki "$W/a1/fullchain.pem"); staged=$(spki "$W/cb/live/api/fullchain.pem")
policy switch-app "$served primary leaf" "$staged backup leaf"
"$PG" plan --chain "$W/cb/live/api/fullchain.pem" --host api.pg.test --config "$W/pinguard.yml" --json > "$W/plan.json" 2> "$W/plan.err"
check_that "plan: switching to the backup key accepts it, and the key served today is no reserve left" \
  'python3 -c "
import json,sys
p=json.load(open(sys.argv[1])); v=[x for x in p[\"verdicts\"] if x[\"policy_set\"]==\"switch-app\"][0]
assert v[\"verdict\"]==\"accept\" and v[\"reserve_pins\"]==[] and v[\"keeps_reserve_pin\"] is False, v
" "$W/plan.json"' "$(cat "$W/plan.json" "$W/plan.err" | head -60)"

finish
