#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# Builds the libFuzzer targets (Sources/pinguard-fuzz, -sanitize=fuzzer, scratch path .build-fuzz) and
# runs each reader for SECONDS (default 3600), seeded from the fixtures, policies/, policies/sources/,
# fuzz/seeds/<target>/ and Tests/Fixtures/repro (the source readers, okhttp and trustkit, also from the
# Kotlin, Java, Swift and Objective-C reproducers and seeds of chained constants and deep nesting; inputs
# are cut at 64 KiB). Working corpora and crash artefacts go to .fuzz/ (ignored by git). A crash, a
# timeout (-timeout=2; 10 in a debug build) or more than 512 MB (-rss_limit_mb=512) fails the reader.
#
#   scripts/fuzz.sh [--smoke] [SECONDS] [TARGET...]
#     --smoke      20 s per reader unless SECONDS is given (scripts/fuzz-smoke.sh)
#     TARGET       config policy trustkit nspinneddomains android-nsc okhttp hpkp pem bundle defines probe-target
#                  webconfig ct-log-list sct-list renewal-info crl ca-issuers app-manifest (default: all)
#   FUZZ_JOBS=N    run N readers at once (default 1)
#   FUZZ_NO_REPRO=1  leave Tests/Fixtures/repro out of the seeds (to fuzz past a known, unfixed crash)
#   FUZZ_CONFIG=debug|release  the build (default: release, debug for --smoke)
#   FUZZ_TIMEOUT=S seconds one input may take (default 2, 10 in a debug build); raise it when many readers share few cores,
#                  where a reader starved of CPU reports false timeouts
# Prints one line per reader (status, execs, execs/s, cov, ft) and a final "N passed, M failed";
# exits 1 when any reader failed.
set -u
cd "$(dirname "$0")/.."
root=$(pwd)
export PATH=/opt/swift/usr/bin:$PATH
# Let libFuzzer, not the Swift runtime backtracer, handle a trap, so the crashing input is saved.
export SWIFT_BACKTRACE=enable=no

smoke=0
if [ "${1:-}" = "--smoke" ]; then smoke=1; shift; fi
seconds=3600
[ $smoke = 1 ] && seconds=20
if [[ "${1:-}" =~ ^[0-9]+$ ]]; then seconds=$1; shift; fi
all_targets=(config policy trustkit nspinneddomains android-nsc okhttp hpkp pem bundle defines probe-target webconfig ct-log-list sct-list renewal-info crl ca-issuers app-manifest)
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=("${all_targets[@]}")

# The smoke run (scripts/test.sh) builds in debug: a few seconds per reader need coverage, not speed, and a debug
# build of the readers takes a fraction of an optimised one. The long runs build optimised (FUZZ_CONFIG overrides).
config=release
[ $smoke = 1 ] && config=debug
config=${FUZZ_CONFIG:-$config}
# An input's time bound catches hangs; unoptimised code is several times slower, so its bound is wider.
input_timeout=2
[ "$config" = debug ] && input_timeout=10
echo "building pinguard-fuzz ($config) with -sanitize=fuzzer in .build-fuzz ..."
if ! swift build -c "$config" --scratch-path .build-fuzz --product pinguard-fuzz \
    -Xswiftc -sanitize=fuzzer -Xswiftc -parse-as-library -Xswiftc -DPINGUARD_FUZZ \
    -Xswiftc -enable-experimental-feature -Xswiftc Extern \
    -Xcc -fsanitize=fuzzer-no-link > .build-fuzz.log 2>&1; then
  tail -30 .build-fuzz.log
  echo "0 passed, ${#targets[@]} failed (build failed, see .build-fuzz.log)"
  exit 1
fi
binary=$(swift build -c "$config" --scratch-path .build-fuzz --show-bin-path)/pinguard-fuzz

work="$root/.fuzz"
repro="$root/Tests/Fixtures/repro"
[ "${FUZZ_NO_REPRO:-0}" = 1 ] && repro=/nonexistent
mkdir -p "$work"

# Seed files per reader; a missing folder simply contributes nothing.
seeds_for() {
  case "$1" in
    config) ls "$root"/Tests/Fixtures/config/*config*.yml "$root"/contrib/systemd/pinguard.yml "$repro"/*.yml ;;
    policy) ls "$root"/Tests/Fixtures/config/*policy*.yml "$root"/policies/*.yml \
               "$root"/contrib/systemd/policies/*.yml "$repro"/*.yml ;;
    trustkit) ls "$root"/policies/sources/trustkit-Info.plist "$root"/policies/sources/*.swift "$root"/policies/sources/*.m \
                 "$repro"/*.plist "$repro"/trustkit-*.swift "$repro"/trustkit-*.m ;;
    nspinneddomains) ls "$root"/policies/sources/nspinneddomains-Info.plist "$repro"/*.plist ;;
    android-nsc) ls "$root"/policies/sources/network_security_config.xml "$repro"/xml-*.plist ;;
    okhttp) ls "$root"/policies/sources/*.kt "$root"/policies/sources/*.java "$repro"/*.kt "$repro"/*.java ;;
    hpkp) ls "$root"/policies/sources/hpkp-headers.txt "$repro"/hpkp-*.txt ;;
    defines) ls "$repro"/defines-*.txt ;;
    webconfig) ls "$repro"/webcfg-*.yml ;;
    app-manifest) ls "$root"/policies/sources/nspinneddomains-Info.plist ;;
    pem|bundle|probe-target) ;;
  esac 2>/dev/null
  ls "$root"/fuzz/seeds/"$1"/* 2>/dev/null
}

# PEM/DER seeds are generated: a self-signed certificate as PEM, DER and a two-certificate bundle.
make_pem_seeds() {
  local dir=$1
  command -v openssl > /dev/null || return 0
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$dir/key.pem" \
    -subj /CN=fuzz.example.com -days 1 -out "$dir/leaf.pem" 2> /dev/null || return 0
  openssl x509 -in "$dir/leaf.pem" -outform DER -out "$dir/leaf.der" 2> /dev/null
  cat "$dir/leaf.pem" "$dir/leaf.pem" > "$dir/bundle.pem"
  rm -f "$dir/key.pem"
}

# Bundle seeds are generated: a PinGuard blob whose HMAC (secret "fuzz-secret", ID "fuzz") verifies, and its payload.
make_bundle_seeds() {
  local dir=$1 payload
  command -v openssl > /dev/null || return 0
  payload='{"version":1,"policySet":{"policies":[{"pattern":"*.example.com","policy":{"pins":[{"type":"spki","hash":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=","role":"primary","scope":"leaf"}],"failStrategy":"strict"}}],"defaultPolicy":null}}'
  printf '%s' "$payload" > "$dir/payload.json"
  printf '{"payload":"%s","signature":"%s","signatureType":{"hmacSHA256":{"secretID":"fuzz"}}}' \
    "$(base64 -w0 "$dir/payload.json")" \
    "$(openssl dgst -sha256 -mac HMAC -macopt key:fuzz-secret -binary "$dir/payload.json" | base64 -w0)" > "$dir/blob.json"
}

run_one() {
  local t=$1 dir="$work/$t"
  rm -rf "$dir/seeds" "$dir/artifacts"
  mkdir -p "$dir/corpus" "$dir/seeds" "$dir/artifacts"
  local i=0
  while read -r f; do [ -f "$f" ] && cp "$f" "$dir/seeds/$i-$(basename "$f")" && i=$((i + 1)); done < <(seeds_for "$t")
  if [ "$t" = pem ] || [ "$t" = ca-issuers ]; then make_pem_seeds "$dir/seeds"; fi
  [ "$t" = bundle ] && make_bundle_seeds "$dir/seeds"
  PINGUARD_FUZZ_TARGET=$t "$binary" -max_total_time="$seconds" -timeout="${FUZZ_TIMEOUT:-$input_timeout}" -rss_limit_mb=512 -max_len=65536 \
    -print_final_stats=1 -artifact_prefix="$dir/artifacts/" "$dir/corpus" "$dir/seeds" > "$dir/log" 2>&1
  local rc=$?
  local execs speed cov ft
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$dir/log" | grep -o '[0-9]*$')
  speed=$(grep -o 'stat::average_exec_per_sec: *[0-9]*' "$dir/log" | grep -o '[0-9]*$')
  cov=$(grep -o 'cov: [0-9]*' "$dir/log" | tail -1 | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' "$dir/log" | tail -1 | grep -o '[0-9]*')
  local line="$t: execs ${execs:-?} (${speed:-?}/s) cov ${cov:-?} ft ${ft:-?} corpus $(ls "$dir/corpus" | wc -l)"
  if [ $rc = 0 ]; then
    echo "PASS $line" > "$dir/result"
  else
    local why
    why=$(grep -m1 -E '^==[0-9]+== ERROR: libFuzzer|ALARM: working on the last Unit|Fatal error|out-of-memory' "$dir/log" | cut -c1-160)
    echo "FAIL $line: ${why:-exit $rc}; artefacts in $dir/artifacts, log $dir/log" > "$dir/result"
  fi
}

jobs_max=${FUZZ_JOBS:-1}
for t in "${targets[@]}"; do
  run_one "$t" &
  while [ "$(jobs -rp | wc -l)" -ge "$jobs_max" ]; do wait -n; done
done
wait

passed=0 failed=0
for t in "${targets[@]}"; do
  r=$(cat "$work/$t/result" 2>/dev/null || echo "FAIL $t: no result")
  echo "$r"
  case "$r" in PASS*) passed=$((passed + 1)) ;; *) failed=$((failed + 1)) ;; esac
done
echo "$passed passed, $failed failed"
[ $failed = 0 ]
