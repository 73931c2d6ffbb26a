/* quota.h -- how much of the server one address or one player may spend:
 * rate limits (token buckets) and counts of things held open, keyed by
 * text, in a table of bounded size.
 *
 * A rate is `burst` actions per `period_ms`: a key's bucket holds up to
 * `burst` tokens, each action takes one, and the bucket refills at
 * burst/period_ms tokens a millisecond. A count (open WebSockets of an
 * address, say) goes up and down by quota_hold/quota_release.
 *
 * The table never forgets a key that still limits something: it drops only
 * keys whose bucket is full again and whose count is zero, which say
 * nothing a fresh key would not. When every one of its max_keys slots holds
 * a key that still limits something, a new key is refused (the action is
 * not allowed): the table fails closed and its memory stays bounded.
 *
 * Keys are at most QUOTA_KEY_MAX bytes (longer ones are cut); times are
 * the caller's (milliseconds of a monotonic clock), so tests choose them.
 */
#ifndef CITADEL_QUOTA_H
#define CITADEL_QUOTA_H

#include <stddef.h>
#include <stdint.h>

#define QUOTA_KEY_MAX 95

typedef struct quota quota;

/* NULL if out of memory. */
quota *quota_new(int max_keys);
void quota_free(quota *q);

/* Takes one token of key's bucket: 1 if it had one, 0 if not (nothing
 * changes then). burst <= 0 means no limit: always 1, nothing kept. */
int quota_take(quota *q, const char *key, int burst, int64_t period_ms, int64_t now);
/* Gives back a token quota_take took (the action turned out not to count). */
void quota_refund(quota *q, const char *key, int burst, int64_t period_ms, int64_t now);
/* Tokens key's bucket holds now (burst for a key the table does not hold). */
double quota_tokens(quota *q, const char *key, int burst, int64_t period_ms, int64_t now);
/* Whole seconds until key's bucket holds a token again (a 429's
 * Retry-After): at least 1, rounded up; 1 also for a key the table does
 * not hold (refused because the table was full). */
int quota_retry_s(quota *q, const char *key, int burst, int64_t period_ms, int64_t now);

/* One more of what key counts, if it holds fewer than max: 1, else 0 (and
 * nothing changes). max <= 0 means no limit (the count is still kept). */
int quota_hold(quota *q, const char *key, int max, int64_t now);
/* One fewer; a key at zero stays at zero. */
void quota_release(quota *q, const char *key);
int quota_count(quota *q, const char *key);

/* Keys the table holds (for tests and load reports). */
int quota_size(const quota *q);

/* The part of a client's address that quotas count: an IPv4 address as it
 * is (also when written as IPv4-mapped IPv6), an IPv6 address cut to its
 * /64 (one subscriber's network), anything else as it is. */
void quota_addr(const char *peer, char *out, size_t size);

#endif
