#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Generates a throw-away PKI for the shell benchmarks (scripts/bench.sh): a root and an intermediate CA,
# a second root ("another CA"), and leaves for every case the probe and evaluator must handle. The Swift
# tests make the same files in-process (Tests/PinGuardTestSupport/TestPKIFiles.swift).
# Usage: scripts/make-pki.sh OUTDIR
# Every leaf NAME gets NAME.key, NAME.pem (leaf only), NAME-chain.pem (leaf + intermediate) and NAME.host.
set -euo pipefail
out=${1:?usage: make-pki.sh OUTDIR}
mkdir -p "$out/ca/newcerts"
cd "$out"
: > ca/index.txt
echo 1000 > ca/serial
q() { "$@" >/dev/null 2>&1 || { echo "make-pki: failed: $*" >&2; "$@"; exit 1; }; }
when() { date -u -d "$1" +%Y%m%d%H%M%SZ; }

cat > ca/ca.cnf <<CNF
[ca]
default_ca = ca_default
[ca_default]
database = ca/index.txt
new_certs_dir = ca/newcerts
serial = ca/serial
default_md = sha256
policy = policy_any
unique_subject = no
email_in_dn = no
[policy_any]
commonName = supplied
organizationName = optional
[req]
distinguished_name = dn
prompt = no
[dn]
CN = placeholder
[v3_ca]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
CNF

key() { # key FILE TYPE
  case $2 in
    rsa) q openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$1" ;;
    rsa-pss) q openssl genpkey -algorithm RSA-PSS -pkeyopt rsa_keygen_bits:2048 -out "$1" ;;
    p256) q openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$1" ;;
    p384) q openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-384 -out "$1" ;;
    ed25519) q openssl genpkey -algorithm ED25519 -out "$1" ;;
  esac
}

# Roots and the intermediate.
key ca/root.key p256
q openssl req -x509 -new -key ca/root.key -subj "/O=pinguard test/CN=pinguard Test Root" -days 3650 \
  -config ca/ca.cnf -extensions v3_ca -out ca/root.pem
key ca/root2.key p256
q openssl req -x509 -new -key ca/root2.key -subj "/O=pinguard test/CN=pinguard Other Root" -days 3650 \
  -config ca/ca.cnf -extensions v3_ca -out ca/root2.pem
key ca/int.key p256
q openssl req -new -key ca/int.key -subj "/O=pinguard test/CN=pinguard Test Intermediate" -out ca/int.csr
q openssl ca -config ca/ca.cnf -batch -notext -cert ca/root.pem -keyfile ca/root.key -in ca/int.csr \
  -out ca/int.pem -startdate "$(when '-1 day')" -enddate "$(when '+1825 days')" -extensions v3_ca -extfile ca/ca.cnf
key ca/int2.key p256
q openssl req -new -key ca/int2.key -subj "/O=pinguard test/CN=pinguard Other Intermediate" -out ca/int2.csr
q openssl ca -config ca/ca.cnf -batch -notext -cert ca/root2.pem -keyfile ca/root2.key -in ca/int2.csr \
  -out ca/int2.pem -startdate "$(when '-1 day')" -enddate "$(when '+1825 days')" -extensions v3_ca -extfile ca/ca.cnf
cat ca/root.pem > ca-bundle.pem
cat ca/root.pem ca/root2.pem > ca-bundle-both.pem

# leaf NAME HOST KEYTYPE START END [ISSUER] [KEYFILE-TO-REUSE]
leaf() {
  local name=$1 host=$2 kt=$3 start=$4 end=$5 issuer=${6:-int} reuse=${7:-}
  if [ -n "$reuse" ]; then cp "$reuse" "$name.key"; else key "$name.key" "$kt"; fi
  printf '[ext]\nbasicConstraints = critical, CA:false\nkeyUsage = critical, digitalSignature, keyEncipherment\nextendedKeyUsage = serverAuth\nsubjectAltName = DNS:%s\n' \
    "$host" > "ca/$name.ext"
  q openssl req -new -key "$name.key" -subj "/CN=$host" -out "ca/$name.csr"
  q openssl ca -config ca/ca.cnf -batch -notext -cert "ca/$issuer.pem" -keyfile "ca/$issuer.key" \
    -in "ca/$name.csr" -out "$name.pem" -startdate "$(when "$start")" -enddate "$(when "$end")" \
    -extensions ext -extfile "ca/$name.ext"
  cat "$name.pem" "ca/$issuer.pem" > "$name-chain.pem"
  echo "$host" > "$name.host"
}

leaf valid      valid.pinguard.test     p256    '-10 days' '+90 days'
leaf rsa        rsa.pinguard.test       rsa     '-10 days' '+90 days'
leaf rsapss     rsapss.pinguard.test    rsa-pss '-10 days' '+90 days'
leaf p384       p384.pinguard.test      p384    '-10 days' '+90 days'
leaf ed25519    ed25519.pinguard.test   ed25519 '-10 days' '+90 days'
leaf expiring   expiring.pinguard.test  p256    '-80 days' '+5 days'
leaf expired    expired.pinguard.test   p256    '-100 days' '-2 days'
leaf wronghost  other.example           p256    '-10 days' '+90 days'
leaf otherca    otherca.pinguard.test   p256    '-10 days' '+90 days' int2
# The same host served with a key rotated away from its pins, and one running on its backup key.
leaf rotated    rotated.pinguard.test   p256    '-1 day'   '+90 days'
key backup-spare.key p256
leaf backup     backup.pinguard.test    p256    '-1 day'   '+90 days' int backup-spare.key
# One name served by several nodes: the current chain, and a node left behind with an older key.
leaf pool       pool.pinguard.test      p256    '-1 day'   '+90 days'
leaf pool-stale pool.pinguard.test      p256    '-60 days' '+20 days'
# Self-signed leaf.
key selfsigned.key p256
q openssl req -x509 -new -key selfsigned.key -subj "/CN=selfsigned.pinguard.test" -days 90 \
  -addext "subjectAltName=DNS:selfsigned.pinguard.test" -addext "basicConstraints=critical,CA:false" -out selfsigned.pem
cp selfsigned.pem selfsigned-chain.pem
echo selfsigned.pinguard.test > selfsigned.host
# A spare key nobody serves: a reserve pin.
key reserve.key p256
echo "make-pki: wrote $(ls "$out"/*.pem | wc -l) PEM files to $out"
