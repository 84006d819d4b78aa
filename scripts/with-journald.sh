#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# with-journald.sh: run a command against a private systemd-journald.
#
#   scripts/with-journald.sh [--hosts FILE] [--resolv-conf FILE] [--catalog FILE]... COMMAND [ARGS...]
#   scripts/with-journald.sh --no-journal [--hosts FILE] [--resolv-conf FILE] COMMAND [ARGS...]
#   scripts/with-journald.sh --self-test
#
# COMMAND runs in a private mount namespace (unshare --mount --propagation private) in
# which a private systemd-journald owns /run/systemd/journal/socket. Everything the command
# writes with sd_journal_sendv / sd_journal_print / systemd-cat / logger --journald lands in
# that journald, and every `journalctl` the command runs reads only that journald's files.
# Nothing reaches the host's journal, and the host's journal is not visible. COMMAND gets
# JOURNAL_PRIVATE=1 and WITH_JOURNALD_PID (journald's PID: `kill $WITH_JOURNALD_PID` makes
# journald die under the command, leaving a stale socket). The exit status is COMMAND's;
# 125 when the wrapper itself fails.
#
# --catalog FILE   install a message catalog (e.g. contrib/journald/pinguard.catalog) in the
#                  namespace, next to the system's catalogs, so `journalctl -x` explains
#                  entries. The host's catalog database is not touched.
# --hosts FILE     bind-mount FILE over /etc/hosts in the namespace, so names resolve as the
#                  test says (one name to 127.0.0.2, 127.0.0.3 and ::1, say) without touching
#                  the machine's /etc/hosts. Rewriting FILE in place (not by rename) changes
#                  what the command resolves from then on; glibc re-reads it on every lookup.
# --resolv-conf FILE  bind-mount FILE over /etc/resolv.conf the same way (a name server that never
#                  answers, to test resolution deadlines).
# --no-journal     no journald at all: an empty tmpfs hides /run/systemd/journal, exactly
#                  as on a host without journald. COMMAND gets JOURNAL_PRIVATE=none. This is
#                  how to test "no journal socket: keep running, count the failure, log to
#                  stderr". Beware: sd_journal_sendv returns 0 when the socket does not
#                  exist (libsystemd drops the entry silently on ENOENT, by design), so a
#                  writer that wants to count the failure must check for the socket itself
#                  (stat /run/systemd/journal/socket, S_ISSOCK). With a stale socket (journald
#                  killed via WITH_JOURNALD_PID) sd_journal_sendv returns -ECONNREFUSED.
#                  By hand, the same is:
#                    unshare --mount --propagation private sh -c \
#                      'mount -t tmpfs tmpfs /run/systemd/journal && exec COMMAND'
# --self-test      write entries through both the native and the stdout protocol, read them
#                  back with `journalctl -o json`, check a catalog explanation, check that the
#                  host journal did not receive them, and check the --no-journal mode.
#
# How it works and what was found on the way (systemd 252, Debian 12, no systemd as PID 1):
# - Needs root: mount namespaces and mounts need CAP_SYS_ADMIN.
# - systemd-journald does not need PID 1 or socket activation: started as root with no
#   LISTEN_FDS, it creates socket, stdout, dev-log and io.systemd.journal (varlink) in
#   /run/systemd/journal itself. It is ready when /run/systemd/journal/socket exists; the
#   wait is bounded (10 s) and fails early if journald exits.
# - Private tmpfs mounts: /run/systemd/journal (sockets), /run/log (runtime journal files),
#   /var/log/journal (only if it exists: persistent journal files). Not all of /run/systemd:
#   that would also hide /run/systemd/resolve, where /etc/resolv.conf often points, and break
#   DNS for the command. Missing mount points are created on the host as empty directories.
# - Config: a private journald.conf bind-mounted over /etc/systemd/journald.conf (a drop-in
#   in /run/systemd/journald.conf.d when that file is missing); existing drop-in directories
#   are covered with empty tmpfs so host settings cannot leak in.
#   Storage=volatile; ReadKMsg=no and Audit=no, or the private journal fills with the host's
#   kernel and audit messages; ForwardTo*=no, or an emergency-level test entry would be
#   written on every terminal (ForwardToWall defaults to yes); rate limiting off, so a test
#   that writes many events does not lose any.
# - journald logs about itself to /dev/kmsg when its stderr is not a terminal (its main()),
#   i.e. into the host's kernel log.
#   SYSTEMD_LOG_TARGET=console sends that to its stderr, kept in a file and printed if
#   journald fails to start.
# - Writing is asynchronous: sd_journal_sendv returns once the datagram is queued. To read
#   an entry back, run `journalctl --sync` (varlink: journald first processes what is queued)
#   and still poll briefly; the self-test polls up to 5 s.
# - Entries have no _SYSTEMD_UNIT and the like (no service manager), and _SYSTEMD_CGROUP is
#   the host cgroup of the writer. _MACHINE_ID/_BOOT_ID are the host's.
# - NOTIFY_SOCKET and JOURNAL_STREAM are removed from the environment of journald and
#   COMMAND: run from a systemd unit, they would point at the host's manager and journal.
# - journald reads /etc/machine-id; a container without it cannot use this script.
# - journald is stopped by PID when COMMAND returns, and gets SIGTERM through its parent-death
#   signal if the wrapper is killed first. Processes COMMAND leaves running in the
#   background keep the namespace (and its tmpfs) alive, but without a journald.
set -euo pipefail

SELF=$(readlink -f "${BASH_SOURCE[0]}")
JOURNALD=${SYSTEMD_JOURNALD:-/lib/systemd/systemd-journald}
SOCKET=/run/systemd/journal/socket
READY_TIMEOUT_DS=100   # tenths of a second to wait for journald's socket

die() { echo "with-journald: $*" >&2; exit 125; }

usage() {
    sed -n '2,6p' "$SELF" | sed 's/^# \{0,1\}//' >&2
    exit 125
}

# Mounts an empty tmpfs on DIR, creating DIR first if it does not exist.
private_tmpfs() {
    mkdir -p "$1"
    mount -t tmpfs -o mode=0755,nosuid,nodev tmpfs "$1"
}

# Hides the host's journal sockets and files. Runs inside the namespace.
hide_host_journal() {
    private_tmpfs /run/systemd/journal
    private_tmpfs /run/log
    if [[ -d /var/log/journal ]]; then
        mount -t tmpfs -o mode=2755,nosuid,nodev tmpfs /var/log/journal
    fi
}

# Builds a catalog database from the system catalogs plus FILEs and mounts it where
# libsystemd looks for it. Runs inside the namespace; $1 is a private scratch directory.
install_catalogs() {
    local scratch=$1; shift
    local root=$scratch/catalog-root
    mkdir -p "$root/usr/lib/systemd/catalog"
    local dir f
    for dir in /usr/lib/systemd/catalog /usr/local/lib/systemd/catalog; do
        for f in "$dir"/*.catalog; do
            [[ -e $f ]] && cp "$f" "$root/usr/lib/systemd/catalog/"
        done
    done
    for f in "$@"; do
        cp "$f" "$root/usr/lib/systemd/catalog/"
    done
    journalctl --root="$root" --update-catalog || die "journalctl --update-catalog rejected a catalog"
    private_tmpfs /var/lib/systemd/catalog
    cp "$root/var/lib/systemd/catalog/database" /var/lib/systemd/catalog/database
}

# Makes journald read only our settings: they replace journald.conf, and every drop-in
# directory that exists is covered by an empty tmpfs. Runs inside the namespace.
write_journald_config() {
    local scratch=$1 dir
    cat >"$scratch/journald.conf" <<'EOF'
[Journal]
Storage=volatile
ReadKMsg=no
Audit=no
ForwardToSyslog=no
ForwardToKMsg=no
ForwardToConsole=no
ForwardToWall=no
MaxLevelStore=debug
RateLimitIntervalSec=0
RateLimitBurst=0
EOF
    for dir in /etc/systemd/journald.conf.d /run/systemd/journald.conf.d \
               /usr/local/lib/systemd/journald.conf.d /usr/lib/systemd/journald.conf.d; do
        if [[ -d $dir ]]; then mount -t tmpfs tmpfs "$dir"; fi
    done
    if [[ -f /etc/systemd/journald.conf ]]; then
        mount --bind "$scratch/journald.conf" /etc/systemd/journald.conf
    else
        private_tmpfs /run/systemd/journald.conf.d
        cp "$scratch/journald.conf" /run/systemd/journald.conf.d/with-journald.conf
    fi
}

# Inside the namespace: the test's /etc/hosts, when given.
use_hosts() {
    if [[ -n ${WITH_JOURNALD_HOSTS:-} ]]; then
        mount --bind "$WITH_JOURNALD_HOSTS" /etc/hosts || die "cannot bind-mount $WITH_JOURNALD_HOSTS over /etc/hosts"
    fi
    if [[ -n ${WITH_JOURNALD_RESOLV:-} ]]; then
        mount --bind "$WITH_JOURNALD_RESOLV" "$(readlink -f /etc/resolv.conf)" \
            || die "cannot bind-mount $WITH_JOURNALD_RESOLV over /etc/resolv.conf"
    fi
}

# Inside the namespace: journald mode.
inner_journald() {
    use_hosts
    local -a catalogs=()
    while [[ $# -gt 0 && $1 == --catalog ]]; do
        catalogs+=("$2"); shift 2
    done
    hide_host_journal
    local scratch=/run/log/with-journald
    mkdir -p "$scratch"
    write_journald_config "$scratch"
    if [[ ${#catalogs[@]} -gt 0 ]]; then install_catalogs "$scratch" "${catalogs[@]}"; fi

    # --pdeathsig: if this shell is killed, journald goes with it instead of keeping the
    # namespace alive as an orphan.
    env -u NOTIFY_SOCKET -u JOURNAL_STREAM -u WITH_JOURNALD_INNER \
        SYSTEMD_LOG_TARGET=console SYSTEMD_LOG_LEVEL="${SYSTEMD_LOG_LEVEL:-info}" \
        setpriv --pdeathsig TERM "$JOURNALD" </dev/null >"$scratch/journald.log" 2>&1 &
    local jpid=$!
    local i
    for ((i = 0; i < READY_TIMEOUT_DS; i++)); do
        [[ -S $SOCKET ]] && break
        if ! kill -0 "$jpid" 2>/dev/null; then
            cat "$scratch/journald.log" >&2
            die "systemd-journald exited before creating $SOCKET"
        fi
        sleep 0.1
    done
    if [[ ! -S $SOCKET ]]; then
        cat "$scratch/journald.log" >&2
        kill "$jpid" 2>/dev/null || true
        die "systemd-journald did not create $SOCKET within $((READY_TIMEOUT_DS / 10)) s"
    fi

    local rc=0
    env -u NOTIFY_SOCKET -u JOURNAL_STREAM -u WITH_JOURNALD_INNER -u WITH_JOURNALD_HOSTS -u WITH_JOURNALD_RESOLV \
        JOURNAL_PRIVATE=1 WITH_JOURNALD_PID="$jpid" "$@" || rc=$?

    kill -TERM "$jpid" 2>/dev/null || true
    wait "$jpid" 2>/dev/null || true
    return "$rc"
}

# Inside the namespace: no-journal mode.
inner_no_journal() {
    use_hosts
    hide_host_journal
    exec env -u NOTIFY_SOCKET -u JOURNAL_STREAM -u WITH_JOURNALD_INNER -u WITH_JOURNALD_HOSTS -u WITH_JOURNALD_RESOLV JOURNAL_PRIVATE=none "$@"
}

# Waits up to 5 s until `journalctl ARGS` prints something containing PATTERN.
poll_journal() {
    local pattern=$1; shift
    local i out
    for ((i = 0; i < 50; i++)); do
        journalctl --sync 2>/dev/null || true
        out=$(journalctl --no-pager "$@" 2>/dev/null || true)
        [[ $out == *"$pattern"* ]] && return 0
        sleep 0.1
    done
    return 1
}

# The checks that run inside the private journal (called back by --self-test).
self_test_inner() {
    local token=$1 catalog_given=$2 fails=0
    check() { if "${@:2}"; then echo "ok    $1"; else echo "FAIL  $1"; fails=$((fails + 1)); fi; }

    check "JOURNAL_PRIVATE=1 is set" test "${JOURNAL_PRIVATE:-}" = 1
    check "journal socket exists" test -S "$SOCKET"

    # Native protocol, the same datagram format sd_journal_sendv writes.
    printf '%s\n' "MESSAGE=native $token" "SYSLOG_IDENTIFIER=pinguard-selftest" "PRIORITY=4" \
        "MESSAGE_ID=919779c6c4456e4b8214e7facd4bd98f" "PINGUARD_EVENT=probe_failed" \
        "PINGUARD_TARGET=selftest-$token" "PINGUARD_HOST=selftest.invalid" "PINGUARD_PORT=443" \
        "PINGUARD_ERROR=connection refused" | logger --journald
    # Stdout stream protocol.
    systemd-cat -t pinguard-selftest echo "stream $token"

    local json
    check "native entry read back with journalctl -o json" \
        poll_journal "native $token" -o json -t pinguard-selftest
    json=$(journalctl --no-pager -o json -t pinguard-selftest)
    check "native entry keeps its fields" \
        grep -q "\"PINGUARD_TARGET\":\"selftest-$token\"" <<<"$json"
    check "stream entry read back with journalctl -o json" \
        poll_journal "stream $token" -o json -t pinguard-selftest
    check "journalctl -t sees exactly the 2 entries written" \
        test "$(journalctl --no-pager -o cat -t pinguard-selftest | grep -c "$token")" = 2
    check "no host kernel messages (ReadKMsg=no)" \
        test "$(journalctl --no-pager -k -q | wc -l)" = 0
    if [[ $catalog_given == 1 ]]; then
        local explained
        explained=$(journalctl --no-pager -x -t pinguard-selftest -g "native $token" || true)
        check "journalctl -x explains the entry from the catalog, fields substituted" \
            grep -q "Probing selftest-$token (selftest.invalid:443) failed" <<<"$explained"
    fi
    return "$fails"
}

self_test() {
    local token catalog="" fails=0 rc=0
    token=$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')
    local repo_catalog
    repo_catalog=$(dirname "$SELF")/../contrib/journald/pinguard.catalog
    [[ -f $repo_catalog ]] && catalog=$(readlink -f "$repo_catalog")
    local socket_before=no
    [[ -S $SOCKET ]] && socket_before=yes

    echo "== private journald"
    if [[ -n $catalog ]]; then
        "$SELF" --catalog "$catalog" "$SELF" __self-test-inner "$token" 1 || rc=$?
    else
        "$SELF" "$SELF" __self-test-inner "$token" 0 || rc=$?
    fi
    fails=$((fails + rc))

    echo "== isolation from the host"
    if journalctl --no-pager -q -o cat -g "$token" 2>/dev/null | grep -q "$token"; then
        echo "FAIL  host journal does not contain the entries"; fails=$((fails + 1))
    else
        echo "ok    host journal does not contain the entries"
    fi
    local socket_after=no
    [[ -S $SOCKET ]] && socket_after=yes
    if [[ $socket_before == "$socket_after" ]]; then
        echo "ok    host journal socket unchanged (present: $socket_after)"
    else
        echo "FAIL  host journal socket changed ($socket_before -> $socket_after)"; fails=$((fails + 1))
    fi

    echo "== --no-journal"
    # shellcheck disable=SC2016
    if "$SELF" --no-journal bash -c '
            test "$JOURNAL_PRIVATE" = none && test ! -e /run/systemd/journal/socket &&
            ! echo x | systemd-cat -t pinguard-selftest 2>/dev/null'; then
        echo "ok    no socket; writing to the journal fails"
    else
        echo "FAIL  no socket; writing to the journal fails"; fails=$((fails + 1))
    fi

    echo "== exit status"
    local st=0
    "$SELF" sh -c 'exit 7' || st=$?
    if [[ $st == 7 ]]; then echo "ok    COMMAND's exit status is returned"
    else echo "FAIL  COMMAND's exit status is returned (got $st)"; fails=$((fails + 1)); fi

    if [[ $fails == 0 ]]; then echo "self-test passed"; else echo "self-test: $fails failed"; fi
    [[ $fails == 0 ]]
}

main() {
    case "${WITH_JOURNALD_INNER:-}" in
        journald) inner_journald "$@"; return ;;
        no-journal) inner_no_journal "$@" ;;
    esac
    [[ $# -gt 0 ]] || usage
    case "$1" in
        -h|--help) usage ;;
        --self-test) self_test; return ;;
        __self-test-inner) shift; self_test_inner "$@"; return ;;
    esac
    [[ $(id -u) == 0 ]] || die "must run as root (mount namespace, tmpfs mounts, journald)"
    [[ -x $JOURNALD ]] || die "$JOURNALD not found (set SYSTEMD_JOURNALD)"
    command -v unshare >/dev/null || die "unshare (util-linux) not found"

    local mode=journald hosts="" resolv=""
    local -a pass=()
    while [[ $# -gt 0 ]]; do
        case "$1" in
            --no-journal) mode=no-journal; shift ;;
            --hosts)
                [[ $# -ge 2 && -f $2 ]] || die "--hosts needs a readable file"
                hosts=$(readlink -f "$2"); shift 2 ;;
            --resolv-conf)
                [[ $# -ge 2 && -f $2 ]] || die "--resolv-conf needs a readable file"
                resolv=$(readlink -f "$2"); shift 2 ;;
            --catalog)
                [[ $# -ge 2 && -f $2 ]] || die "--catalog needs a readable file"
                pass+=(--catalog "$(readlink -f "$2")"); shift 2 ;;
            --) shift; break ;;
            -*) die "unknown option $1" ;;
            *) break ;;
        esac
    done
    [[ $# -gt 0 ]] || usage
    [[ $mode == journald || ${#pass[@]} == 0 ]] || die "--catalog needs a journald"
    WITH_JOURNALD_INNER=$mode WITH_JOURNALD_HOSTS=$hosts WITH_JOURNALD_RESOLV=$resolv exec unshare --mount --propagation private -- \
        bash "$SELF" "${pass[@]}" "$@"
}

main "$@"
