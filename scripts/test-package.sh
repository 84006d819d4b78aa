#!/usr/bin/env bash
# test-package.sh: installs the Debian package on this machine, runs what it installed, purges it
# and checks that nothing is left behind. As root, on a Debian machine where pinguard is not
# installed; it changes the machine (apt-get install, then apt-get purge).
#
#   scripts/test-package.sh [pinguard_VERSION_ARCH.deb]
#
# Without an argument it builds the package first (scripts/package-deb.sh: a static release build,
# about ten minutes from a clean scratch path). That is why this suite is not part of
# scripts/test.sh; run it on its own, like scripts/fuzz.sh.
#
# Checks:
# - lintian reports no errors (warnings are printed, not counted);
# - apt-get install ./the.deb pulls in what Depends names and installs it;
# - the installed binary runs, reports the package's upstream version, and lint finds the bundled
#   public suffix list in /usr/share/pinguard;
# - `pinguard check-config /etc/pinguard/pinguard.yml` accepts the shipped configuration;
# - `pinguard serve --once` on the shipped configuration ends a round with exit 0 or 1 (1: its
#   example targets fail or are rejected, which they are without network), never 2;
# - `serve --once` on the test's own configuration (in a temporary folder: one target on a loopback
#   TLS server, the installed policies in /etc/pinguard/policies) completes a handshake offline;
# - `systemd-analyze verify` accepts the installed unit, whose ExecStart is /usr/bin/pinguard;
# - man -w finds pinguard(1) and a page per subcommand; the completions are installed;
# - journalctl --list-catalog shows pinguard's entries after install and none after purge;
# - after `apt-get purge`, no file or folder the package created is left (dpkg -L, taken before
#   removal), nor /etc/pinguard, /var/lib/pinguard or /usr/share/pinguard.
# Prints one ok/FAIL line per check and ends with "N passed, M failed"; exits 1 if any failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive

passed=0
failed=0
TMP=$(mktemp -d)
server_pid=""
cleanup() {
    [[ -n $server_pid ]] && kill "$server_pid" 2>/dev/null
    rm -rf "$TMP"
}
trap cleanup EXIT

ok() { echo "ok    $1"; passed=$((passed + 1)); }
fail() {
    echo "FAIL  $1"
    if [[ -n ${2:-} ]]; then printf '%s\n' "$2" | tail -n 15 | sed 's/^/      /'; fi
    failed=$((failed + 1))
}
check() { # check NAME COMMAND...: ok when COMMAND exits 0, else FAIL with its output
    local name=$1 out; shift
    if out=$("$@" 2>&1); then ok "$name"; else fail "$name" "$out"; fi
}
finish() { echo "$passed passed, $failed failed"; [[ $failed == 0 ]]; exit $?; }

if [[ $(id -u) != 0 ]]; then fail "runs as root (it installs and purges a package)"; finish; fi
if dpkg-query -W -f='${Status}' pinguard 2>/dev/null | grep -q 'ok installed'; then
    fail "pinguard is not installed before the test (apt-get purge pinguard first)"; finish
fi
for tool in lintian openssl python3; do
    command -v "$tool" >/dev/null || apt-get install -y -qq "$tool" >/dev/null 2>&1
done

# --- the package ----------------------------------------------------------------------------

if [[ $# -ge 1 ]]; then
    deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
else
    echo "building the package (scripts/package-deb.sh)"
    if ! deb=$(bash "$ROOT/scripts/package-deb.sh" "$TMP/deb" 2>"$TMP/build.log" | tail -n 1); then
        fail "scripts/package-deb.sh builds the package" "$(cat "$TMP/build.log")"; finish
    fi
fi
if [[ -f $deb ]]; then ok "package $(basename "$deb")"; else fail "package file $deb exists"; finish; fi
version=$(dpkg-deb -f "$deb" Version)

out=$(lintian --fail-on error "$deb" 2>&1); rc=$?
out=$(grep -v '^running with root privileges' <<<"$out")
if [[ $rc == 0 ]]; then
    ok "lintian: no errors, $(grep -c '^W: ' <<<"$out") warnings"
    grep '^W: ' <<<"$out" | sed 's/^/      /'
else fail "lintian: no errors" "$out"; fi

# Paths that exist before installation are not the package's to remove.
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' | grep -v '^/$' | sort >"$TMP/contents"
while read -r path; do [[ -e $path ]] && echo "$path"; done <"$TMP/contents" >"$TMP/existing"

# --- install --------------------------------------------------------------------------------

if out=$(apt-get install -y "$deb" 2>&1); then ok "apt-get install $(basename "$deb")"
else fail "apt-get install $(basename "$deb")" "$out"; finish; fi

check "pinguard is /usr/bin/pinguard" test "$(command -v pinguard)" = /usr/bin/pinguard
check "pinguard --version is ${version%-*}" test "$(/usr/bin/pinguard --version 2>&1)" = "${version%-*}"

psl=$(/usr/bin/pinguard lint /usr/share/pinguard/examples/policies/example-ios-app.yml 2>&1 >/dev/null | grep 'public suffix list:')
if [[ $psl == *"bundled copy /usr/share/pinguard/public_suffix_list.dat"* ]]; then
    ok "lint uses the bundled public suffix list in /usr/share/pinguard"
elif [[ $psl == *"system copy"* ]]; then
    ok "lint uses the system's public suffix list, newer than the bundled one (${psl#*: })"
else fail "lint finds a public suffix list" "$psl"; fi
check "issuer catalog installed" test -s /usr/share/pinguard/issuer_catalog.json
check "CT log lists installed" test -s /usr/share/pinguard/ct_log_list_apple.json -a -s /usr/share/pinguard/ct_log_list_chrome.json

check "pinguard check-config /etc/pinguard/pinguard.yml" /usr/bin/pinguard check-config /etc/pinguard/pinguard.yml

# The shipped configuration's targets are examples (example.com, 203.0.113.0/24): a round ends with
# 1 (failed or rejected) offline and usually online too. 2 would be a configuration error.
port=$(python3 "$ROOT/scripts/lib/free_port.py")
out=$(cd / && timeout 120 /usr/bin/pinguard serve --once --config /etc/pinguard/pinguard.yml --listen "127.0.0.1:$port" 2>&1); rc=$?
if [[ $rc == 0 || $rc == 1 ]] && grep -qE '^[0-9]+ targets? ' <<<"$out"; then
    ok "serve --once on /etc/pinguard/pinguard.yml: a round, exit $rc ($(grep -E '^[0-9]+ targets? ' <<<"$out"))"
else fail "serve --once on /etc/pinguard/pinguard.yml exits 0 or 1 after a round (exit $rc)" "$out"; fi

# The test's own configuration: one target on a loopback TLS server, the installed policies.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=api.example.com \
    -addext subjectAltName=DNS:api.example.com -keyout "$TMP/key.pem" -out "$TMP/cert.pem" >/dev/null 2>&1
read -r tls_port listen_port < <(python3 "$ROOT/scripts/lib/free_port.py" 2 | tr '\n' ' ')
openssl s_server -quiet -accept "127.0.0.1:$tls_port" -cert "$TMP/cert.pem" -key "$TMP/key.pem" -www \
    </dev/null >"$TMP/s_server.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$tls_port") 2>/dev/null && break; sleep 0.1; done
cat >"$TMP/pinguard.yml" <<EOF
listen: "127.0.0.1:$listen_port"
trust: {ca_file: cert.pem}
policies: ["/etc/pinguard/policies/*.yml"]
journal: {enabled: false}
targets:
  - {host: api.example.com, port: $tls_port, connect: 127.0.0.1, name: loopback, policy_sets: [ios-app]}
EOF
chmod 0644 "$TMP/pinguard.yml" "$TMP/cert.pem"
out=$(cd / && timeout 60 /usr/bin/pinguard serve --once --config "$TMP/pinguard.yml" 2>&1); rc=$?
row=$(grep -E '^ *loopback ' <<<"$out")
if [[ ($rc == 0 || $rc == 1) && $row == *" ok"* && $row != *FAILED* ]]; then
    ok "serve --once, own config with the installed policies: loopback handshake, exit $rc ($(awk '{print $(NF-2), $(NF-1)}' <<<"$row"))"
else fail "serve --once, own config with the installed policies: a loopback handshake (exit $rc)" "$out"; fi
kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; server_pid=""

UNIT=/usr/lib/systemd/system/pinguard.service
check "unit ExecStart is /usr/bin/pinguard" grep -qx 'ExecStart=/usr/bin/pinguard serve --config /etc/pinguard/pinguard.yml' "$UNIT"
# In a private mount namespace: systemd-analyze otherwise leaves /run/systemd/systemd-units-load behind.
out=$(unshare --mount --propagation private -- \
    sh -c 'mount -t tmpfs tmpfs /run/systemd && exec systemd-analyze verify "$1"' sh "$UNIT" 2>&1); rc=$?
if [[ $rc == 0 && -z $out ]]; then ok "systemd-analyze verify $UNIT: no errors, no warnings"
else fail "systemd-analyze verify $UNIT (exit $rc)" "$out"; fi

check "man -w pinguard" man -w pinguard
subcommands=$(/usr/bin/pinguard --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
missing=""
for sub in $subcommands; do man -w "pinguard.$sub" >/dev/null 2>&1 || missing+=" pinguard.$sub"; done
if [[ -n $subcommands && -z $missing ]]; then ok "a man page per subcommand: $(echo $subcommands)"
else fail "a man page per subcommand" "missing:$missing"; fi
check "bash completion parses" bash -n /usr/share/bash-completion/completions/pinguard
check "zsh and fish completions installed" test -s /usr/share/zsh/vendor-completions/_pinguard -a \
    -s /usr/share/fish/vendor_completions.d/pinguard.fish

catalog_ids=$(sed -n 's/^-- \([0-9a-f]\{32\}\)$/\1/p' /usr/lib/systemd/catalog/pinguard.catalog)
listed=$(journalctl --list-catalog 2>/dev/null | awk '{print $1}')
missing=$(comm -23 <(sort <<<"$catalog_ids") <(sort <<<"$listed"))
if [[ -n $catalog_ids && -z $missing ]]; then ok "journal catalog: $(wc -l <<<"$catalog_ids") entries listed after install"
else fail "journal catalog entries listed after install" "missing: $missing"; fi

check "conffiles are /etc/pinguard's files" diff <(dpkg-query -W -f='${Conffiles}\n' pinguard | awk 'NF {print $1}' | sort) \
    <(find /etc/pinguard -type f | sort)

# --- purge ----------------------------------------------------------------------------------

dpkg -L pinguard | grep -v '^/\.$' | sort >"$TMP/listed"
if out=$(apt-get purge -y pinguard 2>&1); then ok "apt-get purge pinguard"
else fail "apt-get purge pinguard" "$out"; fi
left=$(comm -23 "$TMP/listed" "$TMP/existing" | while read -r path; do [[ -e $path || -L $path ]] && echo "$path"; done)
for path in /etc/pinguard /var/lib/pinguard /var/lib/private/pinguard /usr/share/pinguard /usr/share/doc/pinguard /usr/bin/pinguard; do
    [[ -e $path || -L $path ]] && left+=$'\n'"$path"
done
left=$(sed '/^$/d' <<<"$left" | sort -u)
if [[ -z $left ]]; then ok "nothing left after purge ($(wc -l <"$TMP/listed") paths listed by dpkg -L)"
else fail "nothing left after purge" "$left"; fi
if dpkg-query -W -f='${Status}' pinguard 2>/dev/null | grep -q 'ok installed'; then fail "dpkg no longer knows pinguard"
else ok "dpkg no longer knows pinguard"; fi
listed=$(journalctl --list-catalog 2>/dev/null | awk '{print $1}')
still=$(comm -12 <(sort <<<"$catalog_ids") <(sort <<<"$listed"))
if [[ -z $still ]]; then ok "journal catalog: no pinguard entry after purge"
else fail "journal catalog: no pinguard entry after purge" "$still"; fi

finish
