# SPDX-License-Identifier: Apache-2.0
# postgres.sh: a private PostgreSQL server for a suite, on loopback, run as the `postgres` user (the server
# refuses root). Source after suite.sh, then:
#
#   postgres_start DIR        initdb in DIR, start on a free port; sets PG_PORT, PG_URL (role and database
#                             "pinguard", password "s3cret" given through PGPASSWORD) and PG_BIN
#   postgres_stop / postgres_restart
#   psql_q 'SQL'              one query's value(s), unaligned, as the pinguard role
#
# The server is stopped at exit (pg_ctl stop on its data folder), whatever ends the suite.
postgres_start() {
  PG_DIR=$1
  PG_BIN=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -n 1)
  [[ -x $PG_BIN/initdb ]] || return 1
  mkdir -p "$PG_DIR" && chown postgres: "$PG_DIR" && chmod 700 "$PG_DIR"
  # The suite's work folder is usually root's, 0700: the server's user must reach its own data folder.
  chmod o+x "$(dirname "$PG_DIR")"
  PG_PORT=$(port)
  echo postgres > "$PG_DIR/pw" && chown postgres: "$PG_DIR/pw"
  runuser -u postgres -- "$PG_BIN/initdb" -D "$PG_DIR/data" -A scram-sha-256 --pwfile="$PG_DIR/pw" -U postgres > "$PG_DIR/initdb.log" 2>&1 || return 1
  at_exit 'postgres_stop'
  postgres_run || return 1
  PGPASSWORD=postgres "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U postgres -q -v ON_ERROR_STOP=1 \
    -c "CREATE ROLE pinguard LOGIN PASSWORD 's3cret'" -c "CREATE DATABASE pinguard OWNER pinguard" > "$PG_DIR/setup.log" 2>&1 || return 1
  export PGPASSWORD=s3cret
  PG_URL="postgresql://pinguard@127.0.0.1:$PG_PORT/pinguard"
}

postgres_run() {
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$PG_PORT -c unix_socket_directories=$PG_DIR -c fsync=${PG_FSYNC:-off}" start > /dev/null 2>&1
}

postgres_stop() {
  [[ -n ${PG_DIR:-} && -f $PG_DIR/data/postmaster.pid ]] || return 0
  runuser -u postgres -- "$PG_BIN/pg_ctl" -D "$PG_DIR/data" -m fast -w stop > /dev/null 2>&1
}

postgres_restart() { postgres_stop && postgres_run; }

psql_q() { "$PG_BIN/psql" -h 127.0.0.1 -p "$PG_PORT" -U pinguard -d pinguard -At -v ON_ERROR_STOP=1 -c "$1"; }
