// libpq, PostgreSQL's client library, for the state store shared by several pinguard instances.
#include <libpq-fe.h>

/// A notice processor that drops the server's notices ("relation already exists, skipping"), which libpq
/// would otherwise print on stderr.
static inline void pg_pq_ignore_notice(void *arg, const char *message) {
    (void)arg;
    (void)message;
}

static inline void pg_pq_quiet(PGconn *connection) {
    PQsetNoticeProcessor(connection, pg_pq_ignore_notice, 0);
}
