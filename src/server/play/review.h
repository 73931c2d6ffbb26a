/* review.h -- the server's computer review of finished games: a player
 * asks (POST /api/games/ID/review), the review waits its turn, then the
 * worker pool scores every position with the same search, depth and table
 * as the page's own review (web/src/review/computer.ts, engine.h
 * eng_search), and the scores are kept with the game for everyone to see
 * (GET /api/games/ID/review).
 *
 * Invariants: a review acknowledged as queued is in the store before the
 * answer goes out, and a server that starts queues again every review the
 * store holds as waiting; one review runs at a time, a few positions per
 * job, so bot moves on the same pool never wait behind a whole game; the
 * queue and each account's requests have limits (LIM_REVIEW_QUEUE,
 * LIM_REVIEWS).
 */
#ifndef CITADEL_SERVER_REVIEW_H
#define CITADEL_SERVER_REVIEW_H

#include <stdint.h>

#include "../core/srv.h"

#ifdef CITADEL_FUZZ
#define REVIEW_DEPTH 1   /* the fuzz targets run their jobs in line: kept quick */
#define REVIEW_HASH_MB 1 /* cleared for every position: 16 MB each time was most
                          * of fuzz_http's time */
#else
#define REVIEW_DEPTH 6   /* web/src/review/computer.ts REVIEW_DEPTH */
#define REVIEW_HASH_MB 16
#endif

/* GET and POST /api/games/ID/review. */
void review_http(srv *s, net_http *h, const net_request *req, int64_t game);
/* Queues again the reviews the store holds as waiting (srv_start). */
void review_resume(srv *s);
/* Frees the queue and the searcher (srv_free, after the pools are gone). */
void review_free(srv *s);

#endif
