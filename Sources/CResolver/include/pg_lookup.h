#ifndef PINGUARD_PG_LOOKUP_H
#define PINGUARD_PG_LOOKUP_H
// Asynchronous name resolution with glibc's getaddrinfo_a: lookups run on glibc's small, bounded
// pool of resolver threads (not one thread per lookup), and a caller can stop waiting at its deadline.
#include <netdb.h>

/// One lookup in flight.
typedef struct pg_lookup pg_lookup;

/// Starts resolving NAME (TCP, any family) for SERVICE (a port number); address literals are converted by
/// the caller without a lookup.
/// Returns NULL and sets *ERROR to an EAI_* code when the lookup cannot be started.
pg_lookup *pg_lookup_start(const char *name, const char *service, int *error);

/// Returned by pg_lookup_wait while the lookup runs (EAI_INPROGRESS is a GNU extension Swift cannot see).
#define PG_LOOKUP_IN_PROGRESS 1

/// Waits up to TIMEOUT_MS for the lookup. Returns PG_LOOKUP_IN_PROGRESS while it runs, 0 when it
/// succeeded (the list is in *RESULT, owned by the lookup), or its (negative) EAI_* error.
int pg_lookup_wait(pg_lookup *lookup, int timeout_ms, struct addrinfo **result);

/// Ends the lookup: frees it, or, when glibc is still resolving it, hands it to a reaper that frees it
/// once glibc is done (swept by later pg_lookup_start calls).
void pg_lookup_release(pg_lookup *lookup);

/// Lookups released while still in progress and not yet freed (for tests and diagnostics).
int pg_lookup_abandoned(void);

#endif
