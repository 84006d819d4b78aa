// SQLite for pinguard's state file. SQLITE_TRANSIENT is a cast macro Swift cannot import.
#include <sqlite3.h>

static inline sqlite3_destructor_type pg_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}
