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

pg_lookup *pg_lookup_start(const char *name, const char *service, int numeric, int *error) {
    sweep();
    struct pg_lookup *l = calloc(1, sizeof *l);
    if (!l) { *error = EAI_MEMORY; return NULL; }
    l->name = strdup(name);
    l->service = strdup(service);
    if (!l->name || !l->service) { lookup_free(l); *error = EAI_MEMORY; return NULL; }
    l->hints.ai_family = AF_UNSPEC;
    l->hints.ai_socktype = SOCK_STREAM;
    l->hints.ai_protocol = IPPROTO_TCP;
    if (numeric) l->hints.ai_flags = AI_NUMERICHOST;
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
    int rc = gai_error(&l->request);
    if (rc == EAI_INPROGRESS && timeout_ms > 0) {
        const struct gaicb *list[1] = { &l->request };
        struct timespec ts = { timeout_ms / 1000, (long)(timeout_ms % 1000) * 1000000L };
        gai_suspend(list, 1, &ts);
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
