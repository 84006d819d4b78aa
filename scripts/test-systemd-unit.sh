#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
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
# - The settings the service relies on (Type=notify, the watchdog, reload by SIGHUP:
#   docs/reference.md, `pinguard serve` and Reload) and the hardening are present.
# As root, systemd-analyze runs in a private mount namespace with an empty /run/systemd:
# it otherwise leaves /run/systemd/systemd-units-load behind on the host.
#
# Example config (contrib/systemd/pinguard.yml): only the keys of docs/reference.md,
# Configuration (needs PyYAML); with a built pinguard, `check-config` accepts it and
# `lint --strict` accepts its example policies.
#
# Catalog (contrib/journald/pinguard.catalog). That it has exactly one entry per
# JournalEvent, with Subject = the event's summary, is the Swift test
# Tests/PinGuardCoreTests/JournalCatalogTests.swift; here:
# - Parsed: every id is 32 lowercase hex digits and appears once, every entry has a Subject,
#   Defined-By: pinguard and a body, and every @FIELD@ is a journal field pinguard writes
#   (docs/reference.md, Journal events).
# - journalctl --update-catalog accepts it in a temporary root and --list-catalog shows
#   exactly the catalog's MESSAGE_IDs, as pinguard's.
# - As root: one entry per catalog id is written to a private journald
#   (scripts/with-journald.sh) and `journalctl -x` must explain each one with no
#   placeholder left unsubstituted.
# - As root, with a built pinguard: one round of the built-in demo (`serve --once`) writes
#   to a private journald, and every MESSAGE_ID it writes has a catalog entry.
# - scripts/with-journald.sh --self-test passes (as root).
# The checks written in Python are files in scripts/lib/, each runnable alone.
#
# Prints one line per check and ends with "N passed, M failed"; exits 1 if any failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
UNIT=$ROOT/contrib/systemd/pinguard.service
CONFIG=$ROOT/contrib/systemd/pinguard.yml
CATALOG=$ROOT/contrib/journald/pinguard.catalog
LIB=$ROOT/scripts/lib
MAX_EXPOSURE=2.0

. "$LIB/suite.sh"
suite_workdir TMP pinguard-systemd

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
StateDirectory=pinguard
EOF
    if [[ ${#missing[@]} == 0 ]]; then pass "unit has every required setting"
    else fail "unit has every required setting" "$(printf 'missing: %s\n' "${missing[@]}")"; fi

    # Probes must reach arbitrary hosts: an IP allow list would break them.
    if grep -qE '^IPAddress(Deny|Allow)=' "$UNIT"; then fail "unit sets no IPAddressDeny=/IPAddressAllow="
    else pass "unit sets no IPAddressDeny=/IPAddressAllow="; fi
fi

# --- catalog --------------------------------------------------------------------------
# That the catalog has exactly one entry per JournalEvent, with Subject = summary, is the
# Swift test JournalCatalogTests; here the catalog is checked as journald's tools read it.

catalog_ids=()
if [[ ! -f $CATALOG ]]; then
    fail "catalog exists: $CATALOG"
else
    mapfile -t catalog_ids < <(sed -n 's/^-- \(.*\)$/\1/p' "$CATALOG")
    if out=$(python3 "$LIB/journal_catalog_check.py" "$CATALOG" 2>&1); then
        pass "catalog: $(head -n 1 <<<"$out"), distinct 32-hex-digit ids, Defined-By pinguard, Subject, text, known fields only"
    else fail "catalog: well-formed entries, distinct 32-hex-digit ids, Defined-By pinguard, Subject, text, known fields only" "$out"; fi

    croot=$TMP/catalog-root
    mkdir -p "$croot/usr/lib/systemd/catalog"
    cp "$CATALOG" "$croot/usr/lib/systemd/catalog/"
    if out=$(journalctl --root="$croot" --update-catalog 2>&1); then
        pass "journalctl --update-catalog accepts the catalog"
        listed=$(journalctl --root="$croot" --list-catalog 2>&1)
        want=$(printf '%s pinguard\n' "${catalog_ids[@]}" | sort)
        got=$(awk '{ sub(":", "", $2); print $1, $2 }' <<<"$listed" | sort)
        if [[ $want == "$got" ]]; then pass "journalctl --list-catalog shows exactly the catalog's ${#catalog_ids[@]} ids, defined by pinguard"
        else fail "journalctl --list-catalog shows exactly the catalog's ${#catalog_ids[@]} ids, defined by pinguard" \
                "$(diff <(echo "$want") <(echo "$got"))"; fi
    else
        fail "journalctl --update-catalog accepts the catalog" "$out"
    fi
fi

# --- private journald -----------------------------------------------------------------

PG=${PINGUARD:-}
[[ -z $PG ]] && PG=$(cd "$ROOT" && swift build --show-bin-path 2>/dev/null)/pinguard

WJ=$ROOT/scripts/with-journald.sh
if [[ $IS_ROOT != yes ]]; then
    not_run "journalctl -x explains every event" "needs root for scripts/with-journald.sh"
    not_run "the demo's journal events are all in the catalog" "needs root for scripts/with-journald.sh"
    not_run "scripts/with-journald.sh --self-test" "needs root"
else
    # Writes one entry per catalog id through the native protocol, with every journal field
    # pinguard writes (docs/reference.md, Journal events), then lets journalctl -x render them
    # with the catalog installed.
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
        for _ in $(seq 600); do
            journalctl --sync 2>/dev/null
            n=$(journalctl --no-pager -o cat -t pinguard-catalog-check | wc -l)
            [ "$n" -ge "$#" ] && break
            sleep 0.1
        done
        journalctl --no-pager -x -t pinguard-catalog-check
    ' bash "${catalog_ids[@]}" 2>&1)
    if problems=$(python3 "$LIB/journal_explanations_check.py" "${catalog_ids[@]}" <<<"$out" 2>&1); then
        pass "journalctl -x explains all ${#catalog_ids[@]} events"
    else fail "journalctl -x explains every event" "$problems"; fi

    # What the real service writes: one round of the built-in demo (loopback endpoints,
    # pins that match, rotate, expire and fall back to backups) into the private journald.
    if [[ -x $PG ]]; then
        demo_port=$(python3 "$LIB/free_port.py")
        # shellcheck disable=SC2016
        out=$("$WJ" bash -c '
            TMPDIR=$2 "$1" serve --once --listen "127.0.0.1:$3" >"$2/demo.log" 2>&1
            journalctl --sync 2>/dev/null
            journalctl --no-pager -o json -t pinguard
        ' bash "$PG" "$TMP" "$demo_port" 2>"$TMP/demo-journal.err")
        if problems=$(python3 "$LIB/journal_events_in_catalog_check.py" "$CATALOG" <<<"$out" 2>&1); then
            pass "the demo's journal events all have a catalog entry ($problems)"
        else fail "the demo's journal events all have a catalog entry" \
                "$problems"$'\n'"$(tail -n 5 "$TMP/demo.log" "$TMP/demo-journal.err" 2>/dev/null)"; fi
    else
        not_run "the demo's journal events are all in the catalog" "no pinguard binary; build first"
    fi

    if out=$("$WJ" --self-test 2>&1); then pass "scripts/with-journald.sh --self-test"
    else fail "scripts/with-journald.sh --self-test" "$out"; fi
fi

# The shipped example config and its example policies pass check-config and lint, with the built binary.
if [[ -x $PG ]]; then
    if out=$("$PG" check-config "$CONFIG" 2>&1); then pass "pinguard check-config contrib/systemd/pinguard.yml"
    else fail "pinguard check-config contrib/systemd/pinguard.yml" "$out"; fi
    if out=$("$PG" lint --strict "$ROOT"/contrib/systemd/policies/*.yml 2>&1); then pass "pinguard lint --strict contrib/systemd/policies"
    else fail "pinguard lint --strict contrib/systemd/policies" "$out"; fi
else
    not_run "example config check" "no pinguard binary; build first"
fi

finish
