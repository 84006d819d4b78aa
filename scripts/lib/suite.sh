# SPDX-License-Identifier: Apache-2.0
# suite.sh: the harness every script suite shares. Source it after `set -uo pipefail`:
#
#   . "$(dirname "${BASH_SOURCE[0]}")/lib/suite.sh"
#
# It counts checks and ends with the line scripts/test.sh reads ("N passed, M failed"):
#   pass NAME                      one check held
#   fail NAME [DETAIL]             one check failed; DETAIL (text) is printed indented, its last 20 lines
#   check NAME COMMAND...          runs COMMAND: passes when it exits 0, else fails with its output
#   check_that NAME 'TEST' [DETAIL] evaluates the shell TEST: passes when it is true, else fails with DETAIL
#   not_run NAME WHY               a check that could not run: said, never counted as passed
#   finish                         prints the totals (and what did not run) and exits 0 only when nothing failed
# and it cleans up after itself, whatever ends the script:
#   track PID                      a process this suite started, ended by its PID at exit
#   at_exit 'COMMAND'              run at exit, after the tracked processes have ended
#   suite_workdir VAR [PREFIX]     sets VAR to a new temporary folder, removed at exit unless KEEP is set
#   port                           prints a free loopback TCP port
SUITE_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
passed=0
failed=0
suite_not_run=()
suite_pids=()
suite_exit_commands=()
suite_dirs=()

pass() { echo "ok    $1"; passed=$((passed + 1)); }

fail() {
    echo "FAIL  $1"
    if [[ -n ${2:-} ]]; then printf '%s\n' "$2" | tail -n 20 | sed 's/^/      /'; fi
    failed=$((failed + 1))
}

check() {
    local name=$1 out
    shift
    if out=$("$@" 2>&1); then pass "$name"; else fail "$name" "$out"; fi
}

check_that() {
    if eval "$2"; then pass "$1"; else fail "$1" "${3:-}"; fi
}

# fail_early NAME [LOG]: one failure (with LOG's last lines), then the summary; for a setup step the rest needs.
fail_early() { fail "$1" "$([ -n "${2:-}" ] && tail -n 20 "$2")"; finish; }

not_run() { echo "NOT RUN  $1: $2"; suite_not_run+=("$1"); }

finish() {
    echo
    if ((${#suite_not_run[@]} > 0)); then echo "not run (not counted): ${suite_not_run[*]}"; fi
    echo "$passed passed, $failed failed"
    [[ $failed -eq 0 ]]
    exit $?
}

track() { suite_pids+=("$1"); }

at_exit() { suite_exit_commands+=("$1"); }

suite_workdir() {
    local dir
    dir=$(mktemp -d "/tmp/${2:-pinguard-suite}.XXXXXX") || { echo "cannot make a temporary folder"; exit 1; }
    suite_dirs+=("$dir")
    printf -v "$1" '%s' "$dir"
}

port() { python3 "$SUITE_LIB/free_port.py"; }

suite_cleanup() {
    local pid command dir
    for pid in "${suite_pids[@]}"; do kill "$pid" 2>/dev/null; done
    for pid in "${suite_pids[@]}"; do wait "$pid" 2>/dev/null; done
    for command in "${suite_exit_commands[@]}"; do eval "$command"; done
    if [[ -z ${KEEP:-} ]]; then for dir in "${suite_dirs[@]}"; do rm -rf "$dir"; done; else echo "kept: ${suite_dirs[*]}"; fi
}
trap suite_cleanup EXIT
