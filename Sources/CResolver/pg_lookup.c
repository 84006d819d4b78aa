#define _GNU_SOURCE
#include "pg_lookup.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct pg_lookup {
    struct gaicb request;     // what glibc reads and writes while it resolves
    struct addrinfo hints;
    char *name;
    char *service;
    struct pg_lookup *next;   // in the abandoned list
};

static pthread_mutex_t abandoned_lock = PTHREAD_MUTEX_INITIALIZER;
static struct pg_lookup *abandoned = NULL;
static int abandoned_count = 0;

static void lookup_free(struct pg_lookup *l) {
    if (l->request.ar_result) freeaddrinfo(l->request.ar_result);
    free(l->name);
    free(l->service);
    free(l);
}

/// Frees the abandoned lookups glibc has finished with.
static void sweep(void) {
    pthread_mutex_lock(&abandoned_lock);
    struct pg_lookup **link = &abandoned;
    while (*link) {
        struct pg_lookup *l = *link;
        if (gai_error(&l->request) != EAI_INPROGRESS) {
            *link = l->next;
            abandoned_count--;
            lookup_free(l);
        } else {
            link = &l->next;
        }
    }
    pthread_mutex_unlock(&abandoned_lock);
}

pg_lookup *pg_lookup_start(const char *name, const char *service, int *error) {
    sweep();
    struct pg_lookup *l = calloc(1, sizeof *l);
    if (!l) { *error = EAI_MEMORY; return NULL; }
    l->name = strdup(name);
    l->service = strdup(service);
    if (!l->name || !l->service) { lookup_free(l); *error = EAI_MEMORY; return NULL; }
    l->hints.ai_family = AF_UNSPEC;
    l->hints.ai_socktype = SOCK_STREAM;
    l->hints.ai_protocol = IPPROTO_TCP;
    l->request.ar_name = l->name;
    l->request.ar_service = l->service;
    l->request.ar_request = &l->hints;
    struct gaicb *list[1] = { &l->request };
    int rc = getaddrinfo_a(GAI_NOWAIT, list, 1, NULL);
    if (rc != 0) { lookup_free(l); *error = rc; return NULL; }
    *error = 0;
    return l;
}

int pg_lookup_wait(pg_lookup *l, int timeout_ms, struct addrinfo **result) {
    // Polls gai_error instead of calling gai_suspend. glibc's resolver thread stores the result outside its
    // lock and only then, under the lock, walks the waiters of the request; a gai_suspend that times out in
    // between sees the result, skips unlinking its waiter (which lives on its stack) and returns, and the
    // resolver thread then writes through that stale stack pointer (seen as SIGSEGV in __gai_notify under
    // load). Polling reads only the gaicb's result field, which glibc never touches again once it is set.
    int rc = gai_error(&l->request);
    long waited_us = 0, step_us = 200;
    while (rc == EAI_INPROGRESS && waited_us < (long)timeout_ms * 1000) {
        long nap = step_us;
        if (nap > (long)timeout_ms * 1000 - waited_us) nap = (long)timeout_ms * 1000 - waited_us;
        struct timespec ts = { nap / 1000000, (nap % 1000000) * 1000 };
        nanosleep(&ts, NULL);
        waited_us += nap;
        if (step_us < 10000) step_us *= 2;  // 0.2 ms doubling to 10 ms: fast answers are seen quickly
        rc = gai_error(&l->request);
    }
    if (rc == EAI_INPROGRESS) return PG_LOOKUP_IN_PROGRESS;
    if (rc == 0) *result = l->request.ar_result;
    return rc;
}

void pg_lookup_release(pg_lookup *l) {
    if (!l) return;
    if (gai_error(&l->request) == EAI_INPROGRESS && gai_cancel(&l->request) != EAI_CANCELED
        && gai_error(&l->request) == EAI_INPROGRESS) {
        pthread_mutex_lock(&abandoned_lock);
        l->next = abandoned;
        abandoned = l;
        abandoned_count++;
        pthread_mutex_unlock(&abandoned_lock);
        return;
    }
    lookup_free(l);
}

int pg_lookup_abandoned(void) {
    sweep();
    pthread_mutex_lock(&abandoned_lock);
    int n = abandoned_count;
    pthread_mutex_unlock(&abandoned_lock);
    return n;
}
