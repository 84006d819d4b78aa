#!/usr/bin/env bash
# SPDX-License-Identifier: Apache-2.0
# test-man-pages.sh: the man pages the Debian package generates from docs/reference.md, checked without
# building the package (scripts/package-deb.sh generates them the same way, with each command's --help).
#
#   scripts/test-man-pages.sh [PINGUARD]      (with a built pinguard: its --help goes into the pages)
#
# Checks: scripts/lib/man_pages.py writes pinguard(1), pinguard.yml(5) and a page per command of the
# reference's synopsis; man renders each without a warning; lexgrog reads each NAME line (lintian:
# bad-whatis-entry); pinguard(1) has COMMANDS, EXIT STATUS, ENVIRONMENT and FILES; pinguard.yml(5) has an
# entry for every configuration key (scripts/lib/reference_config_keys.py); the generator fails, naming
# the section, when the reference lacks one the pages need.
# Prints one ok/FAIL line per check and ends with "N passed, M failed"; exits 1 if any failed.
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
LIB=$ROOT/scripts/lib
. "$LIB/suite.sh"
suite_workdir TMP pinguard-man

binary=()
[[ -n ${1:-} ]] && binary=(--binary "$1")
if out=$(python3 "$LIB/man_pages.py" "$ROOT/docs/reference.md" "$TMP/man" --date 2026-01-01 --version 0.0.0 \
    ${binary[@]+"${binary[@]}"} 2>&1); then
    pass "man_pages.py wrote $(wc -l <<<"$out") pages${1:+ (with the --help of $1)}"
else
    fail "man_pages.py writes the pages" "$out"
    finish
fi
commands=$(sed -n '/^## Commands and exit codes/,/^### /p' "$ROOT/docs/reference.md" | sed -n 's/^pinguard \([a-z-]*\) .*/\1/p')
missing=""
for c in $commands; do [[ -f $TMP/man/man1/pinguard-$c.1 ]] || missing+=" pinguard-$c.1"; done
if [[ -n $commands && -z $missing ]]; then pass "a page per command: $(echo $commands)"; else fail "a page per command" "missing:$missing"; fi

bad=""
for page in "$TMP"/man/man1/*.1 "$TMP"/man/man5/*.5; do
    warnings=$(LC_ALL=C.UTF-8 MANWIDTH=80 man --warnings -E UTF-8 -l -Tutf8 -Z "$page" 2>&1 >/dev/null)
    [[ -z $warnings ]] || bad+="$(basename "$page"): $warnings"$'\n'
    lexgrog "$page" >/dev/null 2>&1 || bad+="$(basename "$page"): lexgrog cannot read its NAME"$'\n'
done
if [[ -z $bad ]]; then pass "man renders every page without a warning; lexgrog reads every NAME"
else fail "man renders every page without a warning; lexgrog reads every NAME" "$bad"; fi

main=$(MANWIDTH=100 man -l "$TMP/man/man1/pinguard.1" 2>/dev/null | col -b)
missing=""
for section in COMMANDS 'EXIT STATUS' ENVIRONMENT FILES; do grep -qx "$section" <<<"$main" || missing+=" $section"; done
if [[ -z $missing ]]; then pass "pinguard(1) has COMMANDS, EXIT STATUS, ENVIRONMENT and FILES"
else fail "pinguard(1) has COMMANDS, EXIT STATUS, ENVIRONMENT and FILES" "missing:$missing"; fi

yml5=$(MANWIDTH=100 man -l "$TMP/man/man5/pinguard.yml.5" 2>/dev/null | col -b)
keys=$(python3 "$LIB/reference_config_keys.py" "$ROOT/docs/reference.md")
missing=$(while read -r key; do grep -qE "^ *${key//./\\.}( |\$)" <<<"$yml5" || echo "$key"; done <<<"$keys")
if [[ -n $keys && -z $missing ]]; then pass "pinguard.yml(5) has an entry for each of the $(wc -l <<<"$keys") configuration keys"
else fail "pinguard.yml(5) has an entry for every configuration key" "missing: $missing"; fi

# A reference without the table of installed files: the generator refuses, naming it.
sed 's/^### Installed files$/### Files we install/' "$ROOT/docs/reference.md" >"$TMP/reference.md"
out=$(python3 "$LIB/man_pages.py" "$TMP/reference.md" "$TMP/broken" --date 2026-01-01 --version 0.0.0 2>&1); rc=$?
if [[ $rc == 1 && $out == *"no section 'Installed files'"* ]]; then pass "a missing section fails the generator, named"
else fail "a missing section fails the generator, named (exit $rc)" "$out"; fi

finish
[[ $failed == 0 ]]
