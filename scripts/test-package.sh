#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
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
# - lintian reports no errors and no warnings (an override in contrib/debian/lintian-overrides silences
#   one, and every override there is preceded by a comment that gives its reason);
# - apt-get install ./the.deb pulls in what Depends names and installs it;
# - the installed binary runs, reports the package's upstream version, and lint finds the bundled
#   public suffix list in /usr/share/pinguard;
# - `pinguard check-config /etc/pinguard/pinguard.yml` accepts the shipped configuration;
# - `pinguard serve --once` on the shipped configuration ends a round with exit 0 or 1 (1: its
#   example targets fail or are rejected, which they are without network), never 2;
# - `serve --once` on the test's own configuration (in a temporary folder: one target on a loopback
#   TLS server, the installed policies in /etc/pinguard/policies) completes a handshake offline;
# - the state file: `serve --once` on the shipped configuration writes /var/lib/pinguard/state.db (its
#   state.path, the unit's StateDirectory); `check-config` names it; `serve --once` of the test's own
#   configuration with STATE_DIRECTORY=/var/lib/pinguard (as the unit runs it) remembers the loopback chain,
#   and `history loopback` with the shipped configuration lists it; `history` for a configuration without
#   state.path says where the service keeps it;
# - `systemd-analyze verify` accepts the installed unit, whose ExecStart is /usr/bin/pinguard;
# - man -w finds pinguard(1), a page per subcommand and pinguard.yml(5); lexgrog reads each page's NAME;
#   `man 5 pinguard.yml` has an entry for every configuration key of docs/reference.md; the completions
#   are installed;
# - every path of docs/reference.md's "Installed files" table exists; the docs, the rules, the Alertmanager
#   routing (when contrib/prometheus/alertmanager.yml exists) and the dashboard are installed; the rules
#   pass `promtool check rules`; every runbook_url in them opens an installed file at an existing heading;
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
for tool in lintian openssl python3 promtool; do
    package=$tool; [[ $tool == promtool ]] && package=prometheus
    command -v "$tool" >/dev/null || apt-get install -y -qq "$package" >/dev/null 2>&1
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

lintian --fail-on error,warning "$deb" >/dev/null 2>&1; rc=$?
out=$(lintian --show-overrides "$deb" 2>&1 | grep -v '^running with root privileges')
if [[ $rc == 0 ]] && ! grep -q '^[EW]: ' <<<"$out"; then
    ok "lintian: no errors, no warnings ($(grep -c '^O: ' <<<"$out") overridden)"
    grep -E '^(O|I): ' <<<"$out" | sed 's/^/      /'
else fail "lintian: no errors, no warnings" "$out"; fi
unexplained=$(awk '/^#/ {reason = 1; next} /^[^[:space:]]/ {if (!reason) print; reason = 0; next} {reason = 0}' \
    "$ROOT/contrib/debian/lintian-overrides")
if [[ -z $unexplained ]]; then ok "every lintian override is preceded by its reason"
else fail "every lintian override is preceded by its reason" "$unexplained"; fi

# Paths that exist before installation are not the package's to remove.
dpkg-deb --fsys-tarfile "$deb" | tar -t | sed 's|^\./|/|; s|/$||' | grep -v '^/$' | sort >"$TMP/contents"
while read -r path; do [[ -e $path ]] && echo "$path"; done <"$TMP/contents" >"$TMP/existing"

# --- install --------------------------------------------------------------------------------

if out=$(apt-get install -y "$deb" 2>&1); then ok "apt-get install $(basename "$deb")"
else fail "apt-get install $(basename "$deb")" "$out"; finish; fi

check "pinguard is /usr/bin/pinguard" test "$(command -v pinguard)" = /usr/bin/pinguard
check "pinguard --version is ${version%-*}" test "$(/usr/bin/pinguard --version 2>&1)" = "${version%-*}"

# The bundled copy is named without its path (no build path ever reaches a message); that it is the installed
# file shows when the file is moved away and lint no longer says "bundled copy".
psl_of() { /usr/bin/pinguard lint /usr/share/pinguard/examples/policies/example-ios-app.yml 2>&1 >/dev/null | grep 'public suffix list:'; }
psl=$(psl_of)
installed_psl=/usr/share/pinguard/public_suffix_list.dat
if [[ $psl == *"bundled copy ("* ]] && mv "$installed_psl" "$installed_psl.moved"; then
    without=$(psl_of)
    mv "$installed_psl.moved" "$installed_psl"
    if [[ $without != *"bundled copy"* ]]; then ok "lint uses the bundled public suffix list in /usr/share/pinguard ($psl)"
    else fail "lint says bundled copy even without $installed_psl" "$without"; fi
elif [[ $psl == *"system copy"* ]]; then
    ok "lint uses the system's public suffix list, newer than the bundled one (${psl#*: })"
else fail "lint finds a public suffix list" "$psl"; fi
check "issuer catalog installed" test -s /usr/share/pinguard/issuer_catalog.json
check "CT log lists and the key of Chrome's installed" test -s /usr/share/pinguard/ct_log_list_apple.json -a -s /usr/share/pinguard/ct_log_list_chrome.json \
    -a -s /usr/share/pinguard/ct_log_list_pubkey_chrome.pem
check "the clients' trust stores installed" test -s /usr/share/pinguard/client_trust_stores.json

check "pinguard check-config /etc/pinguard/pinguard.yml" /usr/bin/pinguard check-config /etc/pinguard/pinguard.yml

# The shipped configuration's targets are examples (example.com, 203.0.113.0/24): a round ends with
# 1 (failed or rejected) offline and usually online too. 2 would be a configuration error. Outside systemd
# the state folder is the administrator's to create, as the shipped configuration's comment says.
install -d -m 0700 /var/lib/pinguard
port=$(python3 "$ROOT/scripts/lib/free_port.py")
out=$(cd / && timeout 120 /usr/bin/pinguard serve --once --config /etc/pinguard/pinguard.yml --listen "127.0.0.1:$port" 2>&1); rc=$?
if [[ $rc == 0 || $rc == 1 ]] && grep -qE '^[0-9]+ targets? ' <<<"$out"; then
    ok "serve --once on /etc/pinguard/pinguard.yml: a round, exit $rc ($(grep -E '^[0-9]+ targets? ' <<<"$out"))"
else fail "serve --once on /etc/pinguard/pinguard.yml exits 0 or 1 after a round (exit $rc)" "$out"; fi
# The shipped configuration names Chrome's and Apple's log list URLs: online the lists are put in force,
# offline the bundled copies stay; either way each list is spoken of once.
for list in "chrome CT log list https://www.gstatic.com/ct/log_list/v3/log_list.json" \
            "apple CT log list https://valid.apple.com/ct/log_list/current_log_list.json"; do
    said=$(grep -F "pinguard: $list: " <<<"$out")
    if [[ $(grep -c . <<<"$said") == 1 && ($said == *") in force" || $said == *"the list in force stays (the bundled copy, "*) ]]; then
        ok "serve --once: ${list%% *} log list fetched, or the bundled copy kept and said once (${said:0:160})"
    else fail "serve --once says once what became of the ${list%% *} log list" "$out"; fi
done
check "serve --once wrote the state file /var/lib/pinguard/state.db" test -s /var/lib/pinguard/state.db
out=$(/usr/bin/pinguard check-config /etc/pinguard/pinguard.yml 2>&1)
if grep -qx 'served chains are remembered in /var/lib/pinguard/state.db' <<<"$out"; then
    ok "check-config names the packaged state file"
else fail "check-config names the packaged state file /var/lib/pinguard/state.db" "$out"; fi

# The test's own configuration: one target on a loopback TLS server, the installed policies.
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj /CN=api.example.com \
    -addext subjectAltName=DNS:api.example.com -keyout "$TMP/key.pem" -out "$TMP/cert.pem" >/dev/null 2>&1
read -r tls_port listen_port < <(python3 "$ROOT/scripts/lib/free_port.py" 2 | tr '\n' ' ')
openssl s_server -quiet -accept "127.0.0.1:$tls_port" -cert "$TMP/cert.pem" -key "$TMP/key.pem" -www \
    </dev/null >"$TMP/s_server.log" 2>&1 &
server_pid=$!
# Up to a minute: a safety net for a server that never listens, not a measure of how fast it starts.
for _ in $(seq 600); do (exec 3<>"/dev/tcp/127.0.0.1/$tls_port") 2>/dev/null && break; sleep 0.1; done
cat >"$TMP/pinguard.yml" <<EOF
listen: "127.0.0.1:$listen_port"
trust: {ca_file: cert.pem}
policies: ["/etc/pinguard/policies/*.yml"]
journal: {enabled: false}
targets:
  - {host: api.example.com, port: $tls_port, connect: 127.0.0.1, name: loopback, policy_sets: [ios-app]}
EOF
chmod 0644 "$TMP/pinguard.yml" "$TMP/cert.pem"
out=$(cd / && timeout 120 /usr/bin/pinguard serve --once --config "$TMP/pinguard.yml" 2>&1); rc=$?
row=$(grep -E '^ *loopback ' <<<"$out")
if [[ ($rc == 0 || $rc == 1) && $row == *" ok"* && $row != *FAILED* ]]; then
    ok "serve --once, own config with the installed policies: loopback handshake, exit $rc ($(awk '{print $(NF-2), $(NF-1)}' <<<"$row"))"
else fail "serve --once, own config with the installed policies: a loopback handshake (exit $rc)" "$out"; fi

# As the unit runs it: no state.path in the test's configuration, STATE_DIRECTORY from systemd.
out=$(cd / && STATE_DIRECTORY=/var/lib/pinguard timeout 120 /usr/bin/pinguard serve --once --config "$TMP/pinguard.yml" 2>&1); rc=$?
row=$(grep -E '^ *loopback ' <<<"$out")
if [[ ($rc == 0 || $rc == 1) && $row == *" ok"* ]] && grep -q 'remembered in /var/lib/pinguard/state.db' <<<"$out"; then
    ok "serve --once with STATE_DIRECTORY=/var/lib/pinguard remembers the loopback chain there"
else fail "serve --once with STATE_DIRECTORY=/var/lib/pinguard (exit $rc)" "$out"; fi
out=$(cd / && env -u STATE_DIRECTORY /usr/bin/pinguard history loopback 2>&1); rc=$?
if [[ $rc == 0 ]] && grep -q '^loopback: 1 chains' <<<"$out" && grep -q "127.0.0.1:$tls_port" <<<"$out"; then
    ok "history loopback (shipped configuration, no STATE_DIRECTORY) lists the chain the service remembered"
else fail "history loopback (shipped configuration) lists the remembered chain (exit $rc)" "$out"; fi
out=$(cd / && env -u STATE_DIRECTORY /usr/bin/pinguard history loopback --config "$TMP/pinguard.yml" 2>&1); rc=$?
if [[ $rc == 2 ]] && grep -q 'STATE_DIRECTORY=/var/lib/pinguard' <<<"$out" && grep -q '/var/lib/pinguard/state.db' <<<"$out"; then
    ok "history without state.path or STATE_DIRECTORY says where the service keeps its state (exit 2)"
else fail "history without state.path or STATE_DIRECTORY says where the service keeps its state (exit $rc)" "$out"; fi
kill "$server_pid" 2>/dev/null; wait "$server_pid" 2>/dev/null; server_pid=""

UNIT=/usr/lib/systemd/system/pinguard.service
check "unit ExecStart is /usr/bin/pinguard" grep -qx 'ExecStart=/usr/bin/pinguard serve --config /etc/pinguard/pinguard.yml' "$UNIT"
# In a private mount namespace: systemd-analyze otherwise leaves /run/systemd/systemd-units-load behind.
out=$(unshare --mount --propagation private -- \
    sh -c 'mount -t tmpfs tmpfs /run/systemd && exec systemd-analyze verify "$1"' sh "$UNIT" 2>&1); rc=$?
if [[ $rc == 0 && -z $out ]]; then ok "systemd-analyze verify $UNIT: no errors, no warnings"
else fail "systemd-analyze verify $UNIT (exit $rc)" "$out"; fi

check "man -w pinguard" man -w pinguard
check "man -w 5 pinguard.yml" man -w 5 pinguard.yml
subcommands=$(/usr/bin/pinguard --help | sed -n '/^SUBCOMMANDS:/,/^$/p' | sed -n 's/^  \([a-z][a-z-]*\) .*/\1/p')
missing=""
for sub in $subcommands; do man -w "pinguard-$sub" >/dev/null 2>&1 || missing+=" pinguard-$sub"; done
if [[ -n $subcommands && -z $missing ]]; then ok "a man page per subcommand: $(echo $subcommands)"
else fail "a man page per subcommand" "missing:$missing"; fi
bad=""
for page in /usr/share/man/man1/pinguard*.1.gz /usr/share/man/man5/pinguard.yml.5.gz; do
    lexgrog "$page" >/dev/null 2>&1 || bad+=" $(basename "$page")"
done
if [[ -z $bad ]]; then ok "lexgrog reads every page's NAME (no bad-whatis-entry)"; else fail "lexgrog reads every page's NAME" "$bad"; fi
yml5=$(MANWIDTH=100 man 5 pinguard.yml 2>/dev/null | col -b)
keys=$(python3 "$ROOT/scripts/lib/reference_config_keys.py" "$ROOT/docs/reference.md")
missing=$(while read -r key; do grep -qE "^ *${key//./\\.}( |\$)" <<<"$yml5" || echo "$key"; done <<<"$keys")
if [[ -n $keys && -z $missing ]]; then ok "man 5 pinguard.yml has an entry for each of the $(wc -l <<<"$keys") configuration keys of docs/reference.md"
else fail "man 5 pinguard.yml has an entry for every configuration key of docs/reference.md" "missing: $missing"; fi
main=$(MANWIDTH=100 man 1 pinguard 2>/dev/null | col -b)
for section in 'EXIT STATUS' FILES ENVIRONMENT COMMANDS; do
    grep -qx "$section" <<<"$main" || missing_sections+=" $section"
done
if [[ -z ${missing_sections:-} ]]; then ok "pinguard(1) has COMMANDS, EXIT STATUS, ENVIRONMENT and FILES"
else fail "pinguard(1) has COMMANDS, EXIT STATUS, ENVIRONMENT and FILES" "missing:$missing_sections"; fi
check "bash completion parses" bash -n /usr/share/bash-completion/completions/pinguard
check "zsh and fish completions installed" test -s /usr/share/zsh/vendor-completions/_pinguard -a \
    -s /usr/share/fish/vendor_completions.d/pinguard.fish

catalog_ids=$(sed -n 's/^-- \([0-9a-f]\{32\}\)$/\1/p' /usr/lib/systemd/catalog/pinguard.catalog)
listed=$(journalctl --list-catalog 2>/dev/null | awk '{print $1}')
missing=$(comm -23 <(sort <<<"$catalog_ids") <(sort <<<"$listed"))
if [[ -n $catalog_ids && -z $missing ]]; then ok "journal catalog: $(wc -l <<<"$catalog_ids") entries listed after install"
else fail "journal catalog entries listed after install" "missing: $missing"; fi

# What the service refers to: docs, rules, routing, dashboard, and the reference's table of installed files.
paths=$(sed -n '/^### Installed files/,/^### \|^## /p' "$ROOT/docs/reference.md" | grep '^| `/' |
    awk -F' [|] ' '{print $1}' | grep -o '`/[^`]*`' | tr -d '`' | grep -v '[A-Z]' | sort -u)
missing=$(while read -r path; do [[ -e $path ]] || echo "$path"; done <<<"$paths")
if [[ -n $paths && -z $missing ]]; then ok "every path of docs/reference.md's Installed files exists ($(wc -l <<<"$paths") paths)"
else fail "every path of docs/reference.md's Installed files exists" "missing: $missing"; fi
check "docs installed in /usr/share/doc/pinguard" test -s /usr/share/doc/pinguard/reference.md -a \
    -s /usr/share/doc/pinguard/prometheus.md -a -s /usr/share/doc/pinguard/benchmarks.md
RULES=(/usr/share/pinguard/prometheus/pinguard.rules.yml /usr/share/pinguard/prometheus/pinguard.alerts.yml)
check "promtool check rules on the installed rules" promtool check rules "${RULES[@]}"
check "runbook links of the installed rules open installed docs at existing headings" \
    python3 "$ROOT/scripts/lib/installed_runbooks_check.py" "${RULES[@]}"
check "Grafana dashboard installed (JSON with panels)" python3 -c \
    'import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if d.get("panels") else 1)' /usr/share/pinguard/grafana/pinguard.json
if [[ -f $ROOT/contrib/prometheus/alertmanager.yml ]]; then
    check "Alertmanager routing installed as in contrib/prometheus" cmp "$ROOT/contrib/prometheus/alertmanager.yml" \
        /usr/share/pinguard/prometheus/alertmanager.yml
else
    echo "NOT RUN  Alertmanager routing: contrib/prometheus/alertmanager.yml is not in this tree (not counted)"
fi

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
