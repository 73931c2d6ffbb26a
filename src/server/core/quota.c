/* quota.c -- see quota.h.
 *
 * A chained hash table of entries, each a key with its bucket (tokens as
 * of `last`) and its count. The invariant: an entry is in the table only if
 * it limits something (a bucket not full, or a count above zero) or it has
 * not been looked at since it stopped doing so; `sweep` removes the second
 * kind when the table needs room, at most once per SWEEP_MS so that a table
 * full of live keys is not walked on every request.
 */
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "quota.h"

#define SWEEP_MS 1000

typedef struct entry {
    char key[QUOTA_KEY_MAX + 1];
    double tokens;       /* as of `last`; meaningful if burst > 0 */
    int64_t last;
    int burst;           /* 0: no bucket, only a count */
    int64_t period_ms;
    int count;
    struct entry *next;
} entry;

struct quota {
    entry **buckets;
    size_t nbuckets;     /* a power of two */
    int size, max;
    int64_t swept;       /* when sweep last ran */
};

static uint64_t hash(const char *s)
{
    uint64_t h = 1469598103934665603ull;  /* FNV-1a */
    for (; *s; s++) {
        h ^= (unsigned char)*s;
        h *= 1099511628211ull;
    }
    return h;
}

quota *quota_new(int max_keys)
{
    quota *q = calloc(1, sizeof *q);
    if (!q)
        return NULL;
    q->max = max_keys > 0 ? max_keys : 1;
    q->nbuckets = 64;
    while (q->nbuckets < (size_t)q->max)
        q->nbuckets *= 2;
    q->buckets = calloc(q->nbuckets, sizeof *q->buckets);
    if (!q->buckets) {
        free(q);
        return NULL;
    }
    q->swept = INT64_MIN / 2;
    return q;
}

void quota_free(quota *q)
{
    if (!q)
        return;
    /* stop at the last entry: most tables are far from full */
    for (size_t i = 0; i < q->nbuckets && q->size > 0; i++)
        while (q->buckets[i]) {
            entry *e = q->buckets[i];
            q->buckets[i] = e->next;
            free(e);
            q->size--;
        }
    free(q->buckets);
    free(q);
}

int quota_size(const quota *q)
{
    return q->size;
}

/* Brings e's tokens up to now. */
static void refill(entry *e, int64_t now)
{
    if (e->burst <= 0 || now <= e->last)
        return;
    e->tokens += (double)(now - e->last) * e->burst / (double)e->period_ms;
    if (e->tokens > e->burst)
        e->tokens = e->burst;
    e->last = now;
}

static int idle(entry *e, int64_t now)
{
    refill(e, now);
    return e->count <= 0 && (e->burst <= 0 || e->tokens >= e->burst);
}

static void sweep(quota *q, int64_t now)
{
    q->swept = now;
    for (size_t i = 0; i < q->nbuckets; i++)
        for (entry **p = &q->buckets[i]; *p;) {
            entry *e = *p;
            if (idle(e, now)) {
                *p = e->next;
                free(e);
                q->size--;
            } else {
                p = &e->next;
            }
        }
}

/* key's entry; with create, a new one (NULL if the table has no room). */
static entry *find(quota *q, const char *key, int create, int64_t now)
{
    char k[QUOTA_KEY_MAX + 1];
    snprintf(k, sizeof k, "%s", key);
    size_t b = (size_t)hash(k) & (q->nbuckets - 1);
    for (entry *e = q->buckets[b]; e; e = e->next)
        if (strcmp(e->key, k) == 0)
            return e;
    if (!create)
        return NULL;
    if (q->size >= q->max && now - q->swept >= SWEEP_MS)
        sweep(q, now);
    if (q->size >= q->max)
        return NULL;
    entry *e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    memcpy(e->key, k, sizeof k);
    e->last = now;
    e->next = q->buckets[b];
    q->buckets[b] = e;
    q->size++;
    return e;
}

/* Gives a new entry (or one that was only a count) its bucket, full. */
static void shape(entry *e, int burst, int64_t period_ms, int64_t now)
{
    if (e->burst != burst || e->period_ms != period_ms) {
        e->burst = burst;
        e->period_ms = period_ms > 0 ? period_ms : 1;
        e->tokens = burst;
        e->last = now;
    }
}

int quota_take(quota *q, const char *key, int burst, int64_t period_ms, int64_t now)
{
    if (burst <= 0)
        return 1;
    entry *e = find(q, key, 1, now);
    if (!e)
        return 0;
    shape(e, burst, period_ms, now);
    refill(e, now);
    if (e->tokens < 1.0)
        return 0;
    e->tokens -= 1.0;
    return 1;
}

void quota_refund(quota *q, const char *key, int burst, int64_t period_ms, int64_t now)
{
    if (burst <= 0)
        return;
    entry *e = find(q, key, 0, now);
    if (!e || e->burst != burst || e->period_ms != period_ms)
        return;
    refill(e, now);
    e->tokens += 1.0;
    if (e->tokens > burst)
        e->tokens = burst;
}

double quota_tokens(quota *q, const char *key, int burst, int64_t period_ms, int64_t now)
{
    entry *e = find(q, key, 0, now);
    if (!e || e->burst != burst || e->period_ms != period_ms)
        return burst;
    refill(e, now);
    return e->tokens;
}

int quota_retry_s(quota *q, const char *key, int burst, int64_t period_ms, int64_t now)
{
    double t = quota_tokens(q, key, burst, period_ms, now);
    if (burst <= 0 || t >= 1)
        return 1;
    double ms = (1 - t) * (double)period_ms / burst;
    double s = ms / 1000;
    int whole = (int)s;
    return whole < s ? whole + 1 : whole < 1 ? 1 : whole;
}

int quota_hold(quota *q, const char *key, int max, int64_t now)
{
    entry *e = find(q, key, 1, now);
    if (!e)
        return 0;
    if (max > 0 && e->count >= max)
        return 0;
    e->count++;
    return 1;
}

void quota_release(quota *q, const char *key)
{
    entry *e = find(q, key, 0, 0);
    if (e && e->count > 0)
        e->count--;
}

int quota_count(quota *q, const char *key)
{
    entry *e = find(q, key, 0, 0);
    return e ? e->count : 0;
}

void quota_addr(const char *peer, char *out, size_t size)
{
    const char *p = peer ? peer : "";
    if (strncmp(p, "::ffff:", 7) == 0 && strchr(p + 7, '.'))
        p += 7;
    unsigned char a6[16];
    char buf[INET6_ADDRSTRLEN];
    if (strchr(p, ':') && inet_pton(AF_INET6, p, a6) == 1) {
        memset(a6 + 8, 0, 8);
        if (inet_ntop(AF_INET6, a6, buf, sizeof buf)) {
            snprintf(out, size, "%s/64", buf);
            return;
        }
    }
    snprintf(out, size, "%s", p);
}
