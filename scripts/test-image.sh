#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test-image.sh: builds the container image (scripts/build-image.sh) and runs it with podman.
#
#   scripts/test-image.sh [pinguard_VERSION_ARCH.deb]
#
# Without an argument the package is built first (a static release build: about ten minutes from a
# clean scratch path), which is why this suite is not part of scripts/test.sh.
#
# Checks the image's configuration (user 65532, entrypoint, state volume and STATE_DIRECTORY, port
# 9477) and its files (exported from a created, never started container): no apt, no dpkg, no shell; the
# binary, the CA bundle, tzdata and the bundled data are there. Then it runs it with `podman run --read-only` on a published loopback port: /-/ready answers,
# /metrics carries pinguard_build_info with the image's version, the process runs as 65532 (read from
# /proc on the host: the image has no shell to ask), the root is read-only (podman cp into it fails)
# while /var/lib/pinguard holds state.db (copied out with podman cp), and SIGTERM (podman stop) ends it
# with status 0.
#
# Where podman cannot run a container here (no usable cgroups, rlimits or runtime), the run checks are
# reported as NOT RUN with podman's reason and counted neither as passed nor as failed; the script
# then exits 0 when everything that could run passed. It tries podman's default runtime first, then
# with lower --ulimit values (a container may not raise its limits), then runc (installed when missing:
# crun refuses cgroups in hybrid mode, runc does not).
# Prints ok/FAIL/NOT RUN lines and ends with "N passed, M failed"; exits 1 if any failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)

passed=0
failed=0
not_run=()
name=pinguard-image-test-$$
TMP=$(mktemp -d)
# One rm per container: podman rm of several stops at the first that does not exist.
cleanup() { podman rm -f -v "$name" >/dev/null 2>&1; podman rm -f -v "$name-files" >/dev/null 2>&1; rm -rf "$TMP"; }
trap cleanup EXIT

ok() { echo "ok    $1"; passed=$((passed + 1)); }
fail() {
    echo "FAIL  $1"
    if [[ -n ${2:-} ]]; then printf '%s\n' "$2" | tail -n 15 | sed 's/^/      /'; fi
    failed=$((failed + 1))
}
skipped() { echo "NOT RUN  $1"; not_run+=("$1"); }
finish() {
    [[ ${#not_run[@]} -gt 0 ]] && echo "not run here: ${#not_run[@]} check(s) that need a running container (reason above)"
    echo "$passed passed, $failed failed"
    [[ $failed == 0 ]]; exit $?
}

if [[ $(id -u) != 0 ]]; then fail "runs as root (mmdebstrap, podman)"; finish; fi

log=$(mktemp)
if ! image=$(bash "$ROOT/scripts/build-image.sh" "$@" 2>"$log" | tail -n 1) || [[ -z $image ]]; then
    fail "scripts/build-image.sh builds the image" "$(cat "$log")"; rm -f "$log"; finish
fi
rm -f "$log"
version=${image#pinguard:}
ok "scripts/build-image.sh built $image"

# --- the image's configuration ----------------------------------------------------------------

cfg() { podman image inspect "$image" --format "$1" 2>&1; }
expect() { # expect NAME GOT WANT
    if [[ $2 == "$3" ]]; then ok "$1"; else fail "$1" "got:  $2"$'\n'"want: $3"; fi
}
expect "user is 65532:65532" "$(cfg '{{.Config.User}}')" "65532:65532"
expect "entrypoint is pinguard serve --config /etc/pinguard/pinguard.yml" "$(cfg '{{json .Config.Entrypoint}}')" \
    '["/usr/bin/pinguard","serve","--config","/etc/pinguard/pinguard.yml"]'
expect "/var/lib/pinguard is a volume" "$(cfg '{{range $k, $v := .Config.Volumes}}{{$k}} {{end}}')" "/var/lib/pinguard "
expect "STATE_DIRECTORY=/var/lib/pinguard" "$(cfg '{{range .Config.Env}}{{.}} {{end}}' | tr ' ' '\n' | grep '^STATE_DIRECTORY=')" \
    "STATE_DIRECTORY=/var/lib/pinguard"
expect "port 9477/tcp exposed" "$(cfg '{{range $k, $v := .Config.ExposedPorts}}{{$k}} {{end}}')" "9477/tcp "
expect "pinguard:latest is the same image" "$(podman image inspect pinguard:latest --format '{{.Id}}' 2>&1)" "$(cfg '{{.Id}}')"

# --- the image's files ------------------------------------------------------------------------

if podman create --name "$name-files" "$image" >/dev/null 2>&1 && podman export "$name-files" >"$TMP/files.tar"; then
    tar -tvf "$TMP/files.tar" >"$TMP/listing"
    tar -tf "$TMP/files.tar" | sed 's|^\./||; s|/$||' >"$TMP/files"
    found=$(grep -E '^(usr/)?(bin|sbin)/(apt|apt-get|apt-cache|dpkg|dpkg-[a-z]+)$|^var/lib/dpkg|^etc/apt|^var/lib/apt' "$TMP/files" | head -n 5)
    if [[ -z $found ]]; then ok "no apt or dpkg in the image"; else fail "no apt or dpkg in the image" "$found"; fi
    found=$(grep -E '^(usr/)?bin/(sh|bash|dash)$' "$TMP/files")
    if [[ -z $found ]]; then ok "no shell in the image"; else fail "no shell in the image" "$found"; fi
    missing=""
    for f in usr/bin/pinguard etc/ssl/certs/ca-certificates.crt usr/share/zoneinfo/UTC usr/share/pinguard/public_suffix_list.dat \
        usr/share/pinguard/issuer_catalog.json etc/pinguard/pinguard.yml usr/share/doc/pinguard/copyright; do
        grep -qx "$f" "$TMP/files" || missing+=" $f"
    done
    if [[ -z $missing ]]; then ok "binary, CA bundle, tzdata, bundled data, configuration and copyright files are in the image"
    else fail "binary, CA bundle, tzdata, bundled data, configuration and copyright files are in the image" "missing:$missing"; fi
    echo "      image: $(podman image inspect "$image" --format '{{.Size}}' | awk '{printf "%.1f MB", $1 / 1e6}'), $(grep -c '^-' "$TMP/listing") files"
else
    fail "podman create and export $image" "$(podman create --name "$name-files" "$image" 2>&1)"
fi
podman rm -f -v "$name-files" >/dev/null 2>&1

# --- running it -------------------------------------------------------------------------------

# Podman's default rlimits can be above what this machine lets a process set. nofile: this shell's hard
# limit; nproc: 4096, ample for pinguard's threads (where this was written, runc could not set this
# shell's hard limit of processes though the shell has it).
hard_nofile=$(ulimit -Hn)
[[ $hard_nofile == unlimited ]] && hard_nofile=1048576
limits=(--ulimit "nofile=$hard_nofile:$hard_nofile" --ulimit "nproc=4096:4096")
attempts=("default runtime" "default runtime, --ulimit nofile=$hard_nofile nproc=4096" "runc, --ulimit nofile=$hard_nofile nproc=4096")
run_opts=()
runnable=no
reasons=""
for i in 0 1 2; do
    case $i in
        0) opts=() ;;
        1) opts=("${limits[@]}") ;;
        2) command -v runc >/dev/null || apt-get install -y -qq runc >/dev/null 2>&1
           command -v runc >/dev/null || { reasons+="${attempts[$i]}: runc is not installed and apt-get could not install it"$'\n'; continue; }
           opts=(--runtime runc "${limits[@]}") ;;
    esac
    # The entrypoint's serve accepts --version: it prints the version and exits.
    if out=$(podman run --rm ${opts[@]+"${opts[@]}"} "$image" --version 2>&1) && [[ $out == "$version" ]]; then
        run_opts=("${opts[@]}"); runnable=yes; echo "podman runs containers here with: ${attempts[$i]}"; break
    fi
    reasons+="${attempts[$i]}: $(tail -n 1 <<<"$out")"$'\n'
done
if [[ $runnable == no ]]; then
    echo "podman cannot run a container here:"; printf '%s' "$reasons" | sed 's/^/      /'
    for c in "/-/ready answers on the published port" "/metrics carries pinguard_build_info version $version" \
        "runs as UID 65532" "root is read-only" "state.db in /var/lib/pinguard" "podman stop: exit status 0"; do
        skipped "$c"
    done
    finish
fi
[[ -n $reasons ]] && { echo "(before that:"; printf '%s' "$reasons" | sed 's/^/      /'; echo ")"; }

port=$(python3 "$ROOT/scripts/lib/free_port.py")
if ! out=$(podman run -d --name "$name" --read-only ${run_opts[@]+"${run_opts[@]}"} -p "127.0.0.1:$port:9477" "$image" 2>&1); then
    fail "podman run -d --read-only -p 127.0.0.1:$port:9477 $image" "$out"; finish
fi
ready=""
# Up to two minutes: a safety net for a container that never gets ready, not a measure of how fast it does.
for _ in $(seq 240); do
    ready=$(curl -s -m 2 "http://127.0.0.1:$port/-/ready" 2>/dev/null) && [[ -n $ready ]] && break
    [[ $(podman inspect "$name" --format '{{.State.Running}}' 2>/dev/null) == true ]] || break
    sleep 0.5
done
if curl -sf -m 30 -o /dev/null "http://127.0.0.1:$port/-/ready"; then ok "/-/ready answers on the published port ($ready)"
else fail "/-/ready answers on the published port" "$(podman logs "$name" 2>&1)"; fi
metrics=$(curl -sf -m 60 "http://127.0.0.1:$port/metrics" 2>&1)
if grep -qE "^pinguard_build_info\{.*version=\"$version\"" <<<"$metrics"; then
    ok "/metrics carries pinguard_build_info version $version ($(grep -c '^pinguard_' <<<"$metrics") pinguard_ samples)"
else fail "/metrics carries pinguard_build_info version $version" "$(head -n 20 <<<"$metrics")"; fi
pid=$(podman inspect "$name" --format '{{.State.Pid}}' 2>/dev/null)
expect "runs as UID 65532" "$(awk '/^Uid:/ {print $2}' "/proc/$pid/status" 2>&1)" "65532"
echo probe >"$TMP/probe-write"
# podman cp writes through the container's mounts: into the volume it works, into the root it must not.
if out=$(podman cp "$TMP/probe-write" "$name:/usr/probe-write" 2>&1); then fail "root is read-only (podman cp into /usr succeeded)"
elif ! grep -q 'read-only file system' <<<"$out"; then fail "root is read-only (podman cp into /usr failed for another reason)" "$out"
elif ! podman cp "$TMP/probe-write" "$name:/var/lib/pinguard/probe-write" >/dev/null 2>&1; then
    fail "root is read-only, the state volume writable (podman cp into /var/lib/pinguard failed)"
else ok "root is read-only (podman cp into /usr: read-only file system), the state volume writable"; fi
if podman cp "$name:/var/lib/pinguard/state.db" "$TMP/state.db" >/dev/null 2>&1 && [[ -s $TMP/state.db ]]; then
    ok "state.db in /var/lib/pinguard"
else fail "state.db in /var/lib/pinguard" "$(podman logs "$name" 2>&1 | tail -n 5)"; fi
podman stop -t 15 "$name" >/dev/null 2>&1
expect "podman stop: exit status 0" "$(podman inspect "$name" --format '{{.State.ExitCode}}' 2>&1)" "0"

finish
