#!/usr/bin/env bash
# test-systemd-unit.sh: checks contrib/systemd and contrib/journald.
#
#   scripts/test-systemd-unit.sh
#
# Unit (contrib/systemd/pinguard.service):
# - `systemd-analyze verify` must pass with no output at all: it exits 0 on unknown keys and
#   unparsable values, printing only a warning. verify also fails when ExecStart's binary
#   does not exist, so it runs on a copy whose ExecStart points at a stub executable in a
#   temporary directory; nothing else in the copy changes. (`verify --root=DIR` would need
#   a whole unit tree under DIR: sysinit.target, /bin/kill, ...)
# - `systemd-analyze security --offline=yes` must rate the unit 2.0 or lower.
# - The settings SPEC and the hardening rely on are present.
# As root, systemd-analyze runs in a private mount namespace with an empty /run/systemd:
# it otherwise leaves /run/systemd/systemd-units-load behind on the host.
#
# Example config (contrib/systemd/pinguard.yml): only keys of SPEC §3 (needs PyYAML).
#
# Catalog (contrib/journald/pinguard.catalog), against Sources/PinGuardCore/JournalEvent.swift:
# - journalctl --update-catalog accepts it in a temporary root and --list-catalog shows
#   exactly the 19 MESSAGE_IDs, as pinguard's.
# - Parsed: every id is 32 lowercase hex digits and appears once, every entry has Subject
#   (equal to JournalEvent.summary), Defined-By: pinguard and a body, and every @FIELD@ is
#   a journal field of SPEC §6.
# - As root: one entry per event is written to a private journald (scripts/with-journald.sh)
#   and `journalctl -x` must explain each one with no placeholder left unsubstituted.
# - scripts/with-journald.sh --self-test passes (as root).
#
# Prints one line per check and ends with "N passed, M failed"; exits 1 if any failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UNIT=$ROOT/contrib/systemd/pinguard.service
CONFIG=$ROOT/contrib/systemd/pinguard.yml
CATALOG=$ROOT/contrib/journald/pinguard.catalog
EVENTS_SWIFT=$ROOT/Sources/PinGuardCore/JournalEvent.swift
MAX_EXPOSURE=2.0

passed=0
failed=0
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

pass() { echo "PASS  $1"; passed=$((passed + 1)); }
fail() {
    echo "FAIL  $1"
    if [[ -n ${2:-} ]]; then printf '%s\n' "$2" | sed 's/^/      /'; fi
    failed=$((failed + 1))
}
skip() { echo "SKIP  $1"; }

IS_ROOT=no
[[ $(id -u) == 0 ]] && command -v unshare >/dev/null && IS_ROOT=yes

# Runs systemd-analyze without leaving state in the host's /run/systemd.
analyze() {
    if [[ $IS_ROOT == yes ]]; then
        unshare --mount --propagation private -- \
            sh -c 'mount -t tmpfs tmpfs /run/systemd && exec systemd-analyze "$@"' sh "$@"
    else
        systemd-analyze "$@"
    fi
}

# Copies a unit with its ExecStart binary replaced by a stub, prints the copy's path.
stub_unit() {
    local src=$1 dir=$2
    mkdir -p "$dir"
    printf '#!/bin/sh\nexit 0\n' >"$dir/pinguard"
    chmod 755 "$dir/pinguard"
    sed "s|^ExecStart=/usr/local/bin/pinguard |ExecStart=$dir/pinguard |" "$src" >"$dir/$(basename "$src")"
    echo "$dir/$(basename "$src")"
}

# --- unit -----------------------------------------------------------------------------

if [[ ! -f $UNIT ]]; then
    fail "unit file exists: $UNIT"
else
    pass "unit file exists"

    copy=$(stub_unit "$UNIT" "$TMP/verify")
    if grep -q "^ExecStart=$TMP/verify/pinguard serve --config /etc/pinguard/pinguard.yml$" "$copy"; then
        out=$(analyze verify "$copy" 2>&1); rc=$?
        if [[ $rc == 0 && -z $out ]]; then pass "systemd-analyze verify: no errors, no warnings"
        else fail "systemd-analyze verify: no errors, no warnings (exit $rc)" "$out"; fi
    else
        fail "ExecStart is /usr/local/bin/pinguard serve --config /etc/pinguard/pinguard.yml"
    fi

    # Control: the verify check must catch what systemd-analyze only warns about.
    printf '[Service]\nProtectSystem=sometimes\n' >>"$copy"
    out=$(analyze verify "$copy" 2>&1)
    if [[ -n $out ]]; then pass "control: verify check catches an unparsable setting"
    else fail "control: verify check catches an unparsable setting"; fi

    out=$(analyze security --offline=yes "$UNIT" 2>&1)
    score=$(sed -n 's/.*Overall exposure level for pinguard.service: \([0-9.]*\).*/\1/p' <<<"$out")
    if [[ -z $score ]]; then
        fail "systemd-analyze security --offline=yes prints an exposure level" "$(tail -5 <<<"$out")"
    elif awk -v s="$score" -v m="$MAX_EXPOSURE" 'BEGIN { exit !(s <= m) }'; then
        pass "systemd-analyze security exposure $score <= $MAX_EXPOSURE"
    else
        fail "systemd-analyze security exposure $score <= $MAX_EXPOSURE" "$(grep '✗' <<<"$out")"
    fi

    missing=()
    while read -r line; do
        [[ -z $line ]] && continue
        grep -qxF -- "$line" "$UNIT" || missing+=("$line")
    done <<'EOF'
Type=notify
NotifyAccess=main
WatchdogSec=60s
ExecStart=/usr/local/bin/pinguard serve --config /etc/pinguard/pinguard.yml
ExecReload=/bin/kill -HUP $MAINPID
Restart=on-failure
DynamicUser=yes
CapabilityBoundingSet=
AmbientCapabilities=
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes
PrivateDevices=yes
PrivateUsers=yes
ProtectKernelTunables=yes
ProtectKernelModules=yes
ProtectKernelLogs=yes
ProtectControlGroups=yes
ProtectClock=yes
ProtectHostname=yes
ProtectProc=invisible
ProcSubset=pid
RestrictAddressFamilies=AF_INET AF_INET6 AF_UNIX
RestrictNamespaces=yes
RestrictRealtime=yes
RestrictSUIDSGID=yes
LockPersonality=yes
MemoryDenyWriteExecute=yes
SystemCallFilter=@system-service
SystemCallFilter=~@privileged @resources
SystemCallArchitectures=native
UMask=0077
DevicePolicy=closed
ConfigurationDirectory=pinguard
EOF
    if [[ ${#missing[@]} == 0 ]]; then pass "unit has every required setting"
    else fail "unit has every required setting" "$(printf 'missing: %s\n' "${missing[@]}")"; fi

    # Probes must reach arbitrary hosts: an IP allow list would break them.
    if grep -qE '^IPAddress(Deny|Allow)=' "$UNIT"; then fail "unit sets no IPAddressDeny=/IPAddressAllow="
    else pass "unit sets no IPAddressDeny=/IPAddressAllow="; fi
fi

# --- example config -------------------------------------------------------------------

if ! python3 -c 'import yaml' 2>/dev/null; then
    skip "example config uses only SPEC §3 keys (python3 has no yaml module)"
else
    out=$(python3 - "$CONFIG" <<'PY' 2>&1
import sys, yaml
top = {"listen", "interval", "timeout", "concurrency", "environment", "trust",
       "expiry_warning_days", "policies", "journal", "targets"}
target = {"host", "port", "connect", "environment", "name", "policy_sets"}
doc = yaml.safe_load(open(sys.argv[1]))
errors = [f"unknown key {k}" for k in doc if k not in top]
for i, t in enumerate(doc.get("targets") or []):
    errors += [f"targets[{i}]: unknown key {k}" for k in t if k not in target]
    if "host" not in t:
        errors.append(f"targets[{i}]: no host")
names = [t.get("name") or f"{t['host']}:{t.get('port', 443)}" for t in doc.get("targets") or []]
errors += [f"duplicate target name {n}" for n in set(names) if names.count(n) > 1]
if not names:
    errors.append("no targets")
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
); rc=$?
    if [[ $rc == 0 ]]; then pass "example config uses only SPEC §3 keys, distinct target names"
    else fail "example config uses only SPEC §3 keys, distinct target names" "$out"; fi
fi

# --- catalog --------------------------------------------------------------------------

mapfile -t swift_ids < <(sed -n '/var messageID/,/^    }/s/.*return "\([0-9a-f]*\)".*/\1/p' "$EVENTS_SWIFT")
if [[ ${#swift_ids[@]} == 19 ]]; then pass "JournalEvent.swift defines 19 MESSAGE_IDs"
else fail "JournalEvent.swift defines 19 MESSAGE_IDs (found ${#swift_ids[@]})"; fi

if [[ ! -f $CATALOG ]]; then
    fail "catalog exists: $CATALOG"
else
    croot=$TMP/catalog-root
    mkdir -p "$croot/usr/lib/systemd/catalog"
    cp "$CATALOG" "$croot/usr/lib/systemd/catalog/"
    if out=$(journalctl --root="$croot" --update-catalog 2>&1); then
        pass "journalctl --update-catalog accepts the catalog"
        listed=$(journalctl --root="$croot" --list-catalog 2>&1)
        want=$(printf '%s pinguard\n' "${swift_ids[@]}" | sort)
        got=$(awk '{ sub(":", "", $2); print $1, $2 }' <<<"$listed" | sort)
        if [[ $want == "$got" ]]; then pass "journalctl --list-catalog shows exactly the 19 ids, defined by pinguard"
        else fail "journalctl --list-catalog shows exactly the 19 ids, defined by pinguard" \
                "$(diff <(echo "$want") <(echo "$got"))"; fi
    else
        fail "journalctl --update-catalog accepts the catalog" "$out"
    fi

    out=$(python3 - "$CATALOG" "$EVENTS_SWIFT" <<'PY' 2>&1
import re, sys
catalog, swift = open(sys.argv[1]).read(), open(sys.argv[2]).read()

def swift_switch(var):
    body = re.search(r"public var %s: \w+ \{(.*?)\n    \}" % var, swift, re.S).group(1)
    return dict(re.findall(r'case \.(\w+): return "([^"]*)"', body))

ids, summaries = swift_switch("messageID"), swift_switch("summary")
fields = {"MESSAGE", "PRIORITY", "PINGUARD_EVENT", "PINGUARD_TARGET", "PINGUARD_HOST",
          "PINGUARD_PORT", "PINGUARD_POLICY_SET", "PINGUARD_ENVIRONMENT", "PINGUARD_REASON",
          "PINGUARD_MATCHED_PINS", "PINGUARD_RESERVE_PINS", "PINGUARD_LEAF_SPKI_SHA256",
          "PINGUARD_DAYS_TO_EXPIRY", "PINGUARD_DAYS_TO_PIN_BREAKAGE", "PINGUARD_ERROR"}

entries, errors = [], []
for line in catalog.splitlines():
    if line.startswith("-- "):
        entries.append({"id": line[3:].strip(), "headers": {}, "body": [], "in_header": True})
    elif entries and not line.startswith("#"):
        e = entries[-1]
        if e["in_header"] and line == "":
            e["in_header"] = False
        elif e["in_header"]:
            key, sep, value = line.partition(": ")
            if not sep or not re.fullmatch(r"[A-Z][A-Za-z-]*", key):
                errors.append(f"{e['id']}: not a header line: {line!r}")
            e["headers"][key] = value
        else:
            e["body"].append(line)

seen = [e["id"] for e in entries]
for e in entries:
    i, h = e["id"], e["headers"]
    if not re.fullmatch(r"[0-9a-f]{32}", i):
        errors.append(f"{i}: not 32 lowercase hex digits")
    if h.get("Defined-By") != "pinguard":
        errors.append(f"{i}: Defined-By is {h.get('Defined-By')!r}, not 'pinguard'")
    if not h.get("Subject"):
        errors.append(f"{i}: no Subject")
    if not "".join(e["body"]).strip():
        errors.append(f"{i}: no explanation text")
    for f in re.findall(r"@([A-Za-z0-9_]+)@", "\n".join(e["body"] + [h.get("Subject", "")])):
        if f not in fields:
            errors.append(f"{i}: @{f}@ is not a journal field of SPEC §6")
for case, i in ids.items():
    n = seen.count(i)
    if n != 1:
        errors.append(f"{case} ({i}): {n} catalog entries, want 1")
        continue
    subject = next(e for e in entries if e["id"] == i)["headers"].get("Subject")
    if subject != summaries.get(case):
        errors.append(f"{case}: Subject {subject!r} != JournalEvent.summary {summaries.get(case)!r}")
for i in set(seen) - set(ids.values()):
    errors.append(f"{i}: in the catalog, not in JournalEvent.swift")
if len(ids) != 19:
    errors.append(f"JournalEvent.swift has {len(ids)} ids, want 19")
print("\n".join(errors))
sys.exit(1 if errors else 0)
PY
); rc=$?
    if [[ $rc == 0 ]]; then pass "catalog: one well-formed entry per event, Subject = summary, known fields only"
    else fail "catalog: one well-formed entry per event, Subject = summary, known fields only" "$out"; fi
fi

# --- private journald -----------------------------------------------------------------

WJ=$ROOT/scripts/with-journald.sh
if [[ $IS_ROOT != yes ]]; then
    skip "journalctl -x explains every event (needs root for scripts/with-journald.sh)"
    skip "scripts/with-journald.sh --self-test (needs root)"
else
    # Writes one entry per event through the native protocol, with every SPEC §6 field,
    # then lets journalctl -x render them with the catalog installed.
    # shellcheck disable=SC2016
    out=$("$WJ" --catalog "$CATALOG" bash -c '
        for id in "$@"; do
            printf "%s\n" "MESSAGE=catalog check $id" "MESSAGE_ID=$id" "PRIORITY=5" \
                "SYSLOG_IDENTIFIER=pinguard-catalog-check" "PINGUARD_EVENT=check" \
                "PINGUARD_TARGET=tgt" "PINGUARD_HOST=host.invalid" "PINGUARD_PORT=443" \
                "PINGUARD_POLICY_SET=set" "PINGUARD_ENVIRONMENT=prod" "PINGUARD_REASON=r" \
                "PINGUARD_MATCHED_PINS=p" "PINGUARD_RESERVE_PINS=0" \
                "PINGUARD_LEAF_SPKI_SHA256=k" "PINGUARD_DAYS_TO_EXPIRY=12" \
                "PINGUARD_DAYS_TO_PIN_BREAKAGE=21" "PINGUARD_ERROR=e" | logger --journald
        done
        for _ in $(seq 50); do
            journalctl --sync 2>/dev/null
            n=$(journalctl --no-pager -o cat -t pinguard-catalog-check | wc -l)
            [ "$n" -ge "$#" ] && break
            sleep 0.1
        done
        journalctl --no-pager -x -t pinguard-catalog-check
    ' bash "${swift_ids[@]}" 2>&1)
    problems=$(python3 -c '
import re, sys
text, ids = sys.stdin.read(), sys.argv[1:]
explained = set(re.findall(r"catalog check ([0-9a-f]{32})\n░░ Subject: ", text))
errors = [f"{i}: not explained by journalctl -x" for i in ids if i not in explained]
errors += [f"unsubstituted: {l.strip()}" for l in text.splitlines() if re.search(r"@[A-Z_]+@", l)]
print("\n".join(errors))
' "${swift_ids[@]}" <<<"$out")
    if [[ -z $problems && ${#swift_ids[@]} -gt 0 ]]; then pass "journalctl -x explains all ${#swift_ids[@]} events"
    else fail "journalctl -x explains every event" "$problems"; fi

    if out=$("$WJ" --self-test 2>&1); then pass "scripts/with-journald.sh --self-test"
    else fail "scripts/with-journald.sh --self-test" "$out"; fi
fi

# The shipped example config and its example policies pass check-config and lint, with the built binary.
PG=${PINGUARD:-}
[[ -z $PG ]] && PG=$(cd "$ROOT" && swift build --show-bin-path 2>/dev/null)/pinguard
if [[ -x $PG ]]; then
    if out=$("$PG" check-config "$CONFIG" 2>&1); then pass "pinguard check-config contrib/systemd/pinguard.yml"
    else fail "pinguard check-config contrib/systemd/pinguard.yml" "$out"; fi
    if out=$("$PG" lint --strict "$ROOT"/contrib/systemd/policies/*.yml 2>&1); then pass "pinguard lint --strict contrib/systemd/policies"
    else fail "pinguard lint --strict contrib/systemd/policies" "$out"; fi
else
    skip "example config check (no pinguard binary; build first)"
fi

echo "$passed passed, $failed failed"
[[ $failed == 0 ]]
