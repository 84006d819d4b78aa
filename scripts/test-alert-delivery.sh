#!/usr/bin/env bash
# What reaches people, end to end: a fleet of TLS endpoints made at test time (healthy certificates of 6, 45,
# 90, 200 and 398 days at healthy ages; eight problems: a staged renewal on an unpinned key 5 days before expiry,
# a rejected key, an overdue renewal, a renewal at risk with no key plan, an expiry with nothing in place, a self-signed chain, a
# renewal from the CA's next issuer generation that Android does not pin, a revoked intermediate Android pins),
# judged by pinguard, scraped and evaluated by a real Prometheus with the shipped rules (`for:` shortened in a
# copy), routed by a real Alertmanager with the shipped routing and inhibitions (receivers pointed at a
# webhook, group_wait shortened in a copy), recorded by a webhook receiver. Checks: no healthy target reaches
# anyone; each app's problem reaches that app's team and the operators once, as one alert of the right severity
# that says what to do with the concrete values; two apps with problems on one target both hear; an untrusted
# chain's trust alert is folded into the rejections (scripts/lib/alert_delivery_check.py).
#
#   PINGUARD=path/to/pinguard scripts/test-alert-delivery.sh
#
# Only loopback; every process is started here and stopped by PID. Ends with "N passed, M failed".
set -uo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
LIB=$ROOT/scripts/lib
PG=${PINGUARD:?set PINGUARD to the pinguard binary}
. "$LIB/suite.sh"
suite_workdir W pinguard-delivery

for pkg in prometheus prometheus-alertmanager python3-yaml openssl; do
  dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null | grep -q "install ok installed" || apt-get install -y -qq "$pkg" > /dev/null 2>&1
done
command -v prometheus-alertmanager > /dev/null || fail_early "prometheus-alertmanager is not installed"

# --- A PKI made now: a root, an issuing intermediate, leaves with backdated lifetimes ---------------------
cd "$W"
mkdir -p ca/newcerts policies staged
: > ca/index.txt; echo 1000 > ca/serial
key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" 2> /dev/null; }
spki() { openssl pkey -in "$1" -pubout -outform DER 2> /dev/null | openssl dgst -sha256 -binary | base64; }
stamp() { date -u -d "@$1" +%Y%m%d%H%M%SZ; }
key root.key
openssl req -x509 -new -key root.key -out root.pem -days 3650 -subj "/CN=Delivery Test Root" 2> /dev/null
key int.key
openssl req -new -key int.key -out int.csr -subj "/CN=Delivery Test Issuing CA" 2> /dev/null
printf 'basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n' > int.ext
openssl x509 -req -in int.csr -CA root.pem -CAkey root.key -CAcreateserial -out int.pem -days 3000 -extfile int.ext 2> /dev/null
cat > ca.cnf <<CNF
[ ca ]
default_ca = issuing
[ issuing ]
database = $W/ca/index.txt
new_certs_dir = $W/ca/newcerts
serial = $W/ca/serial
default_md = sha256
policy = anything
unique_subject = no
[ anything ]
commonName = supplied
[ leaf ]
basicConstraints = CA:FALSE
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
subjectAltName = DNS:\${ENV::SAN}
CNF
now=$(date +%s)
# leaf NAME LIFETIME_DAYS AGE_DAYS [KEY] [OUT]: a chain for NAME.pg.test issued AGE days ago for LIFETIME days.
leaf() {
  local name=$1 lifetime=$2 age=$3 k=${4:-$1.key} out=${5:-$1.pem}
  [ -f "$k" ] || key "$k"
  local start=$(python3 -c "print(int($now - $age * 86400))") end
  end=$(python3 -c "print(int($start + $lifetime * 86400))")
  openssl req -new -key "$k" -out "$name.csr" -subj "/CN=$name.pg.test" 2> /dev/null
  SAN=$name.pg.test openssl ca -batch -config ca.cnf -cert int.pem -keyfile int.key -in "$name.csr" -out "$out.leaf" \
    -startdate "$(stamp "$start")" -enddate "$(stamp "$end")" -extensions leaf -notext > /dev/null 2>&1 || return 1
  cat "$out.leaf" int.pem > "$out"
}
key backup.key
BACKUP=$(spki backup.key)
INT=$(spki int.key)

# The CA's next generation: the issuer p-gen's renewals come from (an issuer pool), which Android does not pin.
key int2.key
mkdir -p nextgen
openssl req -new -key int2.key -out int2.csr -subj "/CN=Delivery Test Issuing CA 2" 2> /dev/null
openssl x509 -req -in int2.csr -CA root.pem -CAkey root.key -CAcreateserial -out nextgen/int2.pem -days 3000 -extfile int.ext 2> /dev/null
# A second intermediate that Android also pins, whose certificate names the root's CRL; the root revokes it.
CRLP=$(port)
mkdir -p rootca/newcerts crl
: > rootca/index.txt; echo 2000 > rootca/serial
cat > rootca.cnf <<CNF
[ ca ]
default_ca = root
[ root ]
database = $W/rootca/index.txt
new_certs_dir = $W/rootca/newcerts
serial = $W/rootca/serial
certificate = $W/root.pem
private_key = $W/root.key
default_md = sha256
default_crl_days = 30
policy = anything
unique_subject = no
[ anything ]
commonName = supplied
[ int ]
basicConstraints = critical,CA:TRUE
keyUsage = critical,keyCertSign,cRLSign
subjectKeyIdentifier = hash
authorityKeyIdentifier = keyid
crlDistributionPoints = URI:http://127.0.0.1:$CRLP/root.crl
CNF
key int-r.key
openssl req -new -key int-r.key -out int-r.csr -subj "/CN=Delivery Test Issuing CA R" 2> /dev/null
openssl ca -batch -config rootca.cnf -in int-r.csr -out int-r.pem -days 3000 -extensions int -notext > /dev/null 2>&1 \
  || fail_early "openssl ca could not issue the second intermediate"
openssl ca -config rootca.cnf -revoke int-r.pem -crl_reason cACompromise > /dev/null 2>&1 || fail_early "openssl ca -revoke"
openssl ca -config rootca.cnf -gencrl -out crl/root.crl > /dev/null 2>&1 || fail_early "openssl ca -gencrl"
INTR=$(spki int-r.key)

healthy="h6a:6:0.5 h6b:6:3.9 h45:45:29 h90:90:59 h200:200:130 h398:398:260"
problems="p-staged:90:85 p-reject:90:10 p-overdue:90:65 p-risk:90:52 p-expiring:45:40 p-untrusted:90:10 p-gen:90:55 p-revoked:90:10"
for spec in $healthy $problems; do
  IFS=: read -r name lifetime age <<< "$spec"
  if [ "$name" = p-revoked ]; then     # issued by the revoked intermediate (below)
    key "$name.key"
    openssl req -new -key "$name.key" -out "$name.csr" -subj "/CN=$name.pg.test" 2> /dev/null
    printf 'basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=DNS:%s.pg.test\n' "$name" > "$name.ext"
    openssl x509 -req -in "$name.csr" -CA int-r.pem -CAkey int-r.key -CAcreateserial -days 80 -extfile "$name.ext" \
      -out "$name.pem.leaf" 2> /dev/null || fail_early "openssl could not issue $name"
    continue
  fi
  if [ "$name" = p-untrusted ]; then   # self-signed: no app's store trusts it
    key "$name.key"
    openssl req -x509 -new -key "$name.key" -out "$name.pem.leaf" -days "$lifetime" -subj "/CN=$name.pg.test" \
      -addext "subjectAltName=DNS:$name.pg.test" -addext "extendedKeyUsage=serverAuth" 2> /dev/null || fail_early "openssl could not make $name"
    continue
  fi
  leaf "$name" "$lifetime" "$age" || fail_early "openssl ca could not issue $name"
done
# The renewal staged for p-staged: issued yesterday, on a new key the iOS app does not pin.
leaf p-staged 90 1 p-staged-next.key staged/p-staged-next.pem || fail_early "openssl ca could not issue the staged renewal"

# --- The apps: iOS pins each leaf key (with an offline backup key), Android pins the issuing CA ------------
{
  echo "name: ios-app"; echo "environments:"; echo "  prod:"; echo "    policies:"
  for spec in $healthy $problems; do
    name=${spec%%:*}
    pin=$(spki "$name.key"); [ "$name" = p-reject ] && pin=$(spki p-staged-next.key)
    printf '      - pattern: %s.pg.test\n        policy:\n          pins:\n' "$name"
    printf '            - {type: spki, hash: "%s", role: primary, scope: leaf}\n' "$pin"
    printf '            - {type: spki, hash: "%s", role: backup, scope: leaf}\n' "$BACKUP"
  done
} > policies/ios-app.yml
cat > policies/android-app.yml <<YML
name: android-app
environments:
  prod:
    policies:
      - pattern: "**.pg.test"
        policy:
          pins:
            - {type: ca, hash: "$INT", role: primary}
            - {type: ca, hash: "$INTR", role: primary}
            - {type: spki, hash: "$BACKUP", role: backup}
YML

# --- The endpoints and pinguard ---------------------------------------------------------------------------
{
  echo "interval: 5s"; echo "timeout: 3s"; echo "journal: {enabled: false}"; echo "trust: {ca_file: root.pem}"
  echo "fetch: {networks: [127.0.0.0/8]}"; echo "issuer_pools: {nextgen: [nextgen/int2.pem]}"
  echo 'policies: ["policies/*.yml"]'
  echo "files:"; echo "  - {path: staged/p-staged-next.pem, host: p-staged.pg.test}"
  echo "targets:"
} > pinguard.yml
for spec in $healthy $problems; do
  name=${spec%%:*}; p=$(port)
  chain=int.pem; [ "$name" = p-revoked ] && chain=int-r.pem
  openssl s_server -quiet -accept "127.0.0.1:$p" -cert "$name.pem.leaf" -cert_chain "$chain" -key "$name.key" -www > /dev/null 2>&1 &
  track $!
  plan=", renewal: {key: reuse}"; [ "$name" = p-risk ] || [ "$name" = p-staged ] && plan=""
  [ "$name" = p-gen ] && plan=", renewal: {key: reuse, issuers: nextgen}"
  echo "  - {host: $name.pg.test, port: $p, connect: 127.0.0.1, name: $name$plan}" >> pinguard.yml
done
(cd crl && exec python3 -m http.server "$CRLP" --bind 127.0.0.1 > ../crl-server.log 2>&1) & track $!
"$PG" check-config pinguard.yml > check.out 2>&1 || fail_early "pinguard check-config" check.out
PGP=$(port)
"$PG" serve --config pinguard.yml --listen "127.0.0.1:$PGP" > pinguard.log 2>&1 & PGPID=$!; track $PGPID

# --- Webhook, Alertmanager (shipped routing, receivers to the webhook), Prometheus (shipped rules) --------
WH=$(port)
python3 "$LIB/alert_webhook.py" "$WH" notifications.jsonl & track $!
AMP=$(port)
python3 - "$ROOT/contrib/prometheus/alertmanager.yml" am.yml "$WH" <<'PY'
import sys, yaml
cfg = yaml.safe_load(open(sys.argv[1]))
cfg["route"].update(group_wait="1s", group_interval="2s")
for r in cfg["receivers"]:
    r["webhook_configs"] = [{"url": f"http://127.0.0.1:{sys.argv[3]}/{r['name']}", "send_resolved": True}]
yaml.safe_dump(cfg, open(sys.argv[2], "w"), sort_keys=False)
PY
prometheus-alertmanager --config.file=am.yml --storage.path="$W/am-data" --web.listen-address="127.0.0.1:$AMP" \
  --cluster.listen-address= > alertmanager.log 2>&1 & track $!
mkdir -p prom
python3 "$LIB/prometheus_e2e_config.py" "$ROOT/contrib/prometheus" prom "$PGP" 0s > prom-gen.out 2>&1 || fail_early "prometheus config" prom-gen.out
cp "$ROOT/contrib/prometheus/pinguard.rules.yml" prom/
python3 - prom/prometheus.yml "$AMP" <<'PY'
import sys, yaml
cfg = yaml.safe_load(open(sys.argv[1]))
cfg["alerting"] = {"alertmanagers": [{"static_configs": [{"targets": [f"127.0.0.1:{sys.argv[2]}"]}]}]}
yaml.safe_dump(cfg, open(sys.argv[1], "w"), sort_keys=False)
PY
PP=$(port)
prometheus --config.file=prom/prometheus.yml --storage.tsdb.path="$W/prom-data" --web.listen-address="127.0.0.1:$PP" \
  --log.level=warn > prometheus.log 2>&1 & track $!

# --- Wait for every problem to reach someone, then a while longer for anything that should not ------------
# Up to five minutes: a safety net for a notification that never comes, not a measure of how fast they do.
deadline=$((SECONDS + 300)); settled=""
while [ $SECONDS -lt $deadline ]; do
  if [ -s notifications.jsonl ] && [ -z "$settled" ]; then
    all=1
    for spec in $problems; do grep -q "\"target\": \"${spec%%:*}\"" notifications.jsonl || all=""; done
    [ -n "$all" ] && settled=$((SECONDS + 12))
  fi
  [ -n "$settled" ] && [ $SECONDS -ge "$settled" ] && break
  sleep 1
done
[ -n "$settled" ] || { echo "      not every problem was notified within 300 s"; tail -n 5 pinguard.log alertmanager.log prometheus.log | sed 's/^/      /'; }

# --- The renewal of p-risk moves (renewal.before changes, as when the CA moves its window) while it alerts --
# Its words and due date change; its alert keeps its identity: no resolve, no second notification, and
# Alertmanager shows the new words.
am_summary() {
  curl -s "http://127.0.0.1:$AMP/api/v2/alerts?filter=target%3D%22p-risk%22" |
    python3 -c 'import json,sys; a=json.load(sys.stdin); print(a[0]["annotations"]["summary"] if a else "")'
}
before=$(am_summary)
sed -i 's/name: p-risk}/name: p-risk, renewal: {before: 12d}}/' pinguard.yml
kill -HUP "$PGPID"
deadline=$((SECONDS + 180)); after="$before"
while [ $SECONDS -lt $deadline ] && [ "$after" = "$before" ]; do sleep 1; after=$(am_summary); done
sleep 6   # past group_interval: a second notification, had there been one, would be sent by now
check_that "p-risk: a moved renewal changes the alert's words in Alertmanager (was: ${before:0:90}...)" \
  '[ -n "$before" ] && [ -n "$after" ] && [ "$after" != "$before" ]' "before: $before | after: $after"

curl -s "http://127.0.0.1:$PP/api/v1/alerts" > prometheus-alerts.json

python3 - expected.json "$BACKUP" "$INT" <<'PY'
import json, sys
backup = sys.argv[2]
# One entry per alert: each app's problem reaches that app's team and the operators (the pager when critical,
# chat when a warning); a problem of the certificate itself reaches every app's team.
pager, chat, ios, android = "tls-oncall-pager", "tls-team-chat", "ios-team", "android-team"
problems = {
    "p-staged": [
        {"alertname": "PinguardNextRenewalBreaksPins", "severity": "critical", "policy_set": "ios-app", "receivers": [pager, ios],
         "contains": ["Do not deploy staged/p-staged-next.pem", "certbot --reuse-key", f"sha256/{backup}"]},
        # Overdue for every app whose renewal is safe (android-app): the iOS app's critical alert must not
        # silence it, so the Android team hears of its own problem.
        {"alertname": "PinguardRenewalOverdue", "severity": "warning", "policy_set": "", "receivers": [android, chat],
         "contains": ["The renewal of p-staged was due on"]}],
    "p-reject": [{"alertname": "PinguardClientWouldReject", "severity": "critical", "policy_set": "ios-app", "receivers": [pager, ios],
                  "contains": ["(pin_mismatch)", "Serve a chain ios-app pins again"]}],
    "p-overdue": [{"alertname": "PinguardRenewalOverdue", "severity": "warning", "policy_set": "", "receivers": [ios, android, chat],
                   "contains": ["The renewal of p-overdue was due on", "certbot renew --dry-run"]}],
    "p-risk": [{"alertname": "PinguardRenewalAtRisk", "severity": "warning", "policy_set": "ios-app", "receivers": [ios, chat],
                "contains": ["renewal.key: reuse", "certbot --reuse-key", f"sha256/{backup}"]}],
    "p-expiring": [{"alertname": "PinguardCertificateExpiringSoon", "severity": "critical", "policy_set": "", "receivers": [pager, ios, android],
                    "contains": ["The certificate of p-expiring expires on", "a 45-day certificate", "Renew p-expiring now"]}],
    "p-untrusted": [
        {"alertname": "PinguardClientWouldReject", "severity": "critical", "policy_set": "ios-app", "receivers": [pager, ios],
         "contains": ["ios-app (prod) rejects the chain p-untrusted serves now"]},
        {"alertname": "PinguardClientWouldReject", "severity": "critical", "policy_set": "android-app", "receivers": [pager, android],
         "contains": ["android-app (prod) rejects the chain p-untrusted serves now"]}],
}
problems["p-gen"] = [
    # The CA moves to a new generation at the renewal in 5 days: the Android app pins the old intermediate. The
    # key is kept (declared), so the words name the issuer no pin covers, not the key.
    {"alertname": "PinguardNextRenewalBreaksPins", "severity": "critical", "policy_set": "android-app", "receivers": [pager, android],
     "contains": ["no pin covers the CA's next issuer Delivery Test Issuing CA 2", "pins the CA's next issuer Delivery Test Issuing CA 2 (sha256/"], "absent": ["next key"]}]
problems["p-revoked"] = [
    # The root revoked the intermediate Android pins: the Android team hears it, with the other pin to move to.
    {"alertname": "PinguardPinnedCertificateRevoked", "severity": "critical", "policy_set": "android-app", "receivers": [pager, android],
     "contains": ["android-app (prod) pins the intermediate at depth 1 of p-revoked", "(cACompromise)", f"sha256/{sys.argv[3]}"]}]
# The untrusted chain is why both apps reject, and the revoked intermediate is told per app that pins it: the
# trust alert and the certificate's own revocation alert fire in Prometheus and are inhibited.
json.dump({"healthy": ["h6a", "h6b", "h45", "h90", "h200", "h398"], "problems": problems,
           "inhibited": {"p-untrusted": "PinguardChainUntrusted", "p-revoked": "PinguardCertificateRevoked"}}, open(sys.argv[1], "w"))
PY
python3 "$LIB/alert_delivery_check.py" notifications.jsonl expected.json prometheus-alerts.json
exit $?
