# SPDX-License-Identifier: Apache-2.0
# Sourced by the benchmarks (scripts/bench.sh, scripts/bench-blackbox.sh): the fleet they probe and the
# policy sets they judge it with.
#
# bench_pki WORK: the test PKI of scripts/make-pki.sh in WORK/pki plus one wildcard leaf (P-256) under its
#   intermediate for every bench name: WORK/pki/bench.key, bench.pem, bench-chain.pem (leaf + intermediate).
# bench_nginx WORK TARGETS [ADDRESS...]: one nginx serving t1..tTARGETS.bench.pinguard.test on 127.0.0.1, a
#   default server on each ADDRESS (default 127.0.0.1) refusing other names; sets $port and $nginx_pid. TLS 1.2
#   and 1.3, nginx's default since 1.23.4 (Debian 12's 1.22 offers no TLS 1.3 unless told).

bench_pki() {
  local pki=$1/pki
  scripts/make-pki.sh "$pki" >/dev/null
  openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out "$pki/bench.key" 2>/dev/null
  openssl req -new -key "$pki/bench.key" -subj "/CN=*.bench.pinguard.test" -out "$pki/bench.csr" 2>/dev/null
  printf 'subjectAltName=DNS:*.bench.pinguard.test\nbasicConstraints=critical,CA:false\n' > "$pki/bench.ext"
  openssl x509 -req -in "$pki/bench.csr" -CA "$pki/ca/int.pem" -CAkey "$pki/ca/int.key" -CAcreateserial \
    -days 90 -extfile "$pki/bench.ext" -out "$pki/bench.pem" 2>/dev/null
  cat "$pki/bench.pem" "$pki/ca/int.pem" > "$pki/bench-chain.pem"
}

bench_nginx() {
  local work=$1 targets=$2 pki=$1/pki
  shift 2
  local addresses=("${@:-127.0.0.1}")
  port=$(python3 scripts/lib/free_port.py)
  mkdir -p "$work/nginx/logs"
  {
    echo "worker_processes 1; pid $work/nginx/nginx.pid; error_log $work/nginx/error.log;"
    echo "events { worker_connections 4096; }"
    echo "http { access_log off; ssl_certificate $pki/bench-chain.pem; ssl_certificate_key $pki/bench.key; ssl_protocols TLSv1.2 TLSv1.3;"
    echo "  server_names_hash_bucket_size 128; server_names_hash_max_size 65536;"
    printf '  server {'; for a in "${addresses[@]}"; do printf ' listen %s:%s ssl default_server;' "$a" "$port"; done; echo ' return 444; }'
    for i in $(seq 1 "$targets"); do echo "  server { listen 127.0.0.1:$port ssl; server_name t$i.bench.pinguard.test; return 204; }"; done
    echo "}"
  } > "$work/nginx/nginx.conf"
  nginx -p "$work/nginx" -c "$work/nginx/nginx.conf" -g 'daemon off;' &
  nginx_pid=$!
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/"$port") 2>/dev/null && break; sleep 0.1; done
}

# bench_policies WORK PINGUARD: the two policy sets the benchmarks judge every target with (the leaf key
# pinned, the intermediate as backup), in WORK/cfg/policies; t1 has a rule of its own (the same pins), which
# the service bench edits as an operator edits one host's policy.
bench_policies() {
  local work=$1 pinguard=$2 pki=$1/pki
  local intermediate_pin leaf_pin
  intermediate_pin=$("$pinguard" pin "$pki/ca/int.pem" | sed -n 's/.*type: ca, hash: "\([^"]*\)".*/\1/p' | head -1)
  leaf_pin=$("$pinguard" pin "$pki/bench.pem" | sed -n 's/.*type: spki, hash: "\([^"]*\)".*/\1/p' | head -1)
  mkdir -p "$work/cfg/policies"
  for app in ios-app android-app; do
    cat > "$work/cfg/policies/$app.yml" <<YML
name: bench-$app
environments:
  prod:
    policies:
      - pattern: "t1.bench.pinguard.test"
        policy:
          pins:
            - {type: spki, hash: "$leaf_pin", scope: leaf}
            - {type: ca, hash: "$intermediate_pin", role: backup}
      - pattern: "**.bench.pinguard.test"
        policy:
          pins:
            - {type: spki, hash: "$leaf_pin", scope: leaf}
            - {type: ca, hash: "$intermediate_pin", role: backup}
YML
  done
}
