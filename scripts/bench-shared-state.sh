#!/usr/bin/env bash
# The memory of served chains at scale, the SQLite file against a shared PostgreSQL database (Debian's server,
# started here on loopback as the postgres user, fsync on as a real deployment has it): the same rounds
# (first, steady, last_seen due, 1% renewed) and what a restart loads.
#
#   scripts/bench-shared-state.sh [TARGETS]     (100,000 by default; a release build)
set -uo pipefail
cd "$(dirname "$0")/.."
export PATH=/opt/swift/usr/bin:$PATH
. scripts/lib/suite.sh
. scripts/lib/postgres.sh
count=${1:-100000}
suite_workdir W pinguard-bench-state
for pkg in postgresql libpq-dev; do
  dpkg-query -W -f='${Status}' "$pkg" 2> /dev/null | grep -q "install ok installed" || apt-get install -y -qq "$pkg" > /dev/null 2>&1
done
swift build -c release --product pinguard-state-bench > "$W/build.log" 2>&1 || { tail -n 20 "$W/build.log"; exit 1; }
bin=$(swift build -c release --show-bin-path)
PG_FSYNC=on postgres_start "$W/pg" || { echo "PostgreSQL could not be started"; exit 1; }
echo "== SQLite file"
"$bin/pinguard-state-bench" "$count" "$W/file"
echo
echo "== PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on loopback"
"$bin/pinguard-state-bench" "$count" "$PG_URL"
